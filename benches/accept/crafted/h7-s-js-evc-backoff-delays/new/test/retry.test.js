'use strict';

const { withRetry, backoffDelay, RetryError } = require('../lib/retry');

describe('backoffDelay', () => {
  it('doubles from the base delay', () => {
    expect([1, 2, 3].map((n) => backoffDelay(n))).toEqual([200, 400, 800]);
  });

  it('is capped', () => {
    expect(backoffDelay(20, { maxDelayMs: 5000 })).toBe(5000);
  });
});

describe('withRetry', () => {
  it('retries transient failures then succeeds', async () => {
    const waits = [];
    let calls = 0;
    const result = await withRetry(async () => {
      calls += 1;
      if (calls < 3) throw Object.assign(new Error('busy'), { response: { status: 503 } });
      return 'ok';
    }, { sleep: async (ms) => { waits.push(ms); } });
    expect(result).toBe('ok');
    expect(waits).toHaveLength(2);
  });

  it('does not retry a 400', async () => {
    const err = Object.assign(new Error('bad'), { response: { status: 400 } });
    await expect(withRetry(async () => { throw err; }, { sleep: async () => {} })).rejects.toBe(err);
  });

  it('throws RetryError when out of attempts', async () => {
    await expect(withRetry(async () => { throw new Error('down'); }, { retries: 1, sleep: async () => {} }))
      .rejects.toBeInstanceOf(RetryError);
  });
});
