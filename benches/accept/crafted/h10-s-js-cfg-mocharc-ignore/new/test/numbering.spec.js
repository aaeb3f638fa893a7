const assert = require('assert');
const { Sequencer, MemoryStore, render } = require('../lib/numbering');

describe('invoice numbering', () => {
  it('pads the sequence', () => {
    assert.strictEqual(render('INV-{YYYY}-{SEQ:5}', { year: 2027, month: 3, seq: 42 }), 'INV-2027-00042');
  });

  it('renders a two-digit year', () => {
    assert.strictEqual(render('{YY}{MM}/{SEQ}', { year: 2027, month: 3, seq: 7 }), '2703/7');
  });

  it('resets each year', async () => {
    const s = new Sequencer(new MemoryStore());
    await s.next('acme', '{SEQ}', new Date('2026-12-31T12:00:00Z'));
    assert.strictEqual(await s.next('acme', '{SEQ}', new Date('2027-01-01T12:00:00Z')), '1');
  });
});
