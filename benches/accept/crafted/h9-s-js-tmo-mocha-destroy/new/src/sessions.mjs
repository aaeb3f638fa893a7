import crypto from 'node:crypto';

/**
 * Server-side sessions kept in a key/value store (redis in production).
 * store: { get(key) -> Promise<string|null>, set(key, value, ttlSeconds), del(key) }
 */

export const IDLE_TTL_SECONDS = 30 * 60;
export const ABSOLUTE_TTL_SECONDS = 12 * 60 * 60;

const PREFIX = 'sess:';

export class SessionStore {
  constructor(store, { now = () => Date.now(), idleTtl = IDLE_TTL_SECONDS } = {}) {
    this.store = store;
    this.now = now;
    this.idleTtl = idleTtl;
  }

  async create(userId, data = {}) {
    const id = crypto.randomBytes(18).toString('base64url');
    const t = this.now();
    const session = { id, userId, data, createdAt: t, touchedAt: t };
    await this.store.set(PREFIX + id, JSON.stringify(session), this.idleTtl);
    return session;
  }

  async load(id) {
    if (typeof id !== 'string' || id.length !== 24) return null;
    const raw = await this.store.get(PREFIX + id);
    if (raw == null) return null;
    const session = JSON.parse(raw);
    const t = this.now();
    if (t - session.createdAt > ABSOLUTE_TTL_SECONDS * 1000) {
      await this.store.del(PREFIX + id);
      return null;
    }
    if (t - session.touchedAt > this.idleTtl * 1000) {
      await this.store.del(PREFIX + id);
      return null;
    }
    return session;
  }

  async touch(id) {
    const session = await this.load(id);
    if (!session) return null;
    session.touchedAt = this.now();
    await this.store.set(PREFIX + id, JSON.stringify(session), this.idleTtl);
    return session;
  }

  async destroy(id) {
    await this.store.del(PREFIX + id);
  }

  async waitUntilGone(id, { interval = 50, deadline = 1000 } = {}) {
    const until = Date.now() + deadline;
    while (Date.now() < until) {
      if ((await this.store.get(PREFIX + id)) == null) return true;
      await new Promise((r) => setTimeout(r, interval));
    }
    return false;
  }
}
