import { expect } from 'chai';
import { SessionStore, IDLE_TTL_SECONDS } from '../src/sessions.mjs';

function fakeRedis() {
  const m = new Map();
  return {
    m,
    async get(k) { return m.has(k) ? m.get(k) : null; },
    async set(k, v) { m.set(k, v); },
    async del(k) { m.delete(k); },
  };
}

describe('SessionStore', function () {
  let clock;
  let sessions;

  beforeEach(function () {
    clock = 1_760_000_000_000;
    sessions = new SessionStore(fakeRedis(), { now: () => clock });
  });

  it('loads a fresh session', async function () {
    const s = await sessions.create('u-9', { cart: 2 });
    const loaded = await sessions.load(s.id);
    expect(loaded).to.deep.include({ userId: 'u-9', data: { cart: 2 } });
  });

  it('expires an idle session', async function () {
    const s = await sessions.create('u-9');
    clock += (IDLE_TTL_SECONDS + 1) * 1000;
    expect(await sessions.load(s.id)).to.equal(null);
  });

  it('touch keeps an active session alive', async function () {
    const s = await sessions.create('u-9');
    clock += 20 * 60 * 1000;
    await sessions.touch(s.id);
    clock += 20 * 60 * 1000;
    expect(await sessions.load(s.id)).to.not.equal(null);
  });

  it('refuses malformed ids', async function () {
    expect(await sessions.load('../../etc/passwd')).to.equal(null);
  });

  describe('destroy', function () {
    this.timeout(2000);

    it('is visible to a poller', async function () {
      const s = await sessions.create('u-1');
      setTimeout(() => sessions.destroy(s.id), 100);
      expect(await sessions.waitUntilGone(s.id, { interval: 20, deadline: 1500 })).to.equal(true);
    });
  });
});
