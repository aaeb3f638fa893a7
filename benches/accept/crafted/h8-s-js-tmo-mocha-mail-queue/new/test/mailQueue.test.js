'use strict';

const assert = require('node:assert');
const { MailQueueConsumer } = require('../lib/mailQueue');

function memoryQueue(items) {
  const pending = [...items];
  return {
    async take(n) { return pending.splice(0, 1).slice(0, n); },
    async nack(id) { pending.push({ id, retried: true }); },
    get size() { return pending.length; },
  };
}

describe('MailQueueConsumer', function () {
  it('drains a backlog without idling between messages', async function () {
    this.timeout(120000);
    const queue = memoryQueue(Array.from({ length: 10 }, (_, i) => ({ id: i })));
    const sent = [];
    const consumer = new MailQueueConsumer(queue, { send: async (m) => { sent.push(m.id); } }, { idleMs: 500 });
    consumer.start();
    while (sent.length < 10) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await consumer.stop();
    assert.deepStrictEqual(sent, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('counts failed sends', async function () {
    const queue = memoryQueue([{ id: 'x' }]);
    const consumer = new MailQueueConsumer(queue, { send: async () => { throw new Error('550'); } }, { idleMs: 5 });
    consumer.start();
    await new Promise((r) => setTimeout(r, 30));
    await consumer.stop();
    assert.ok(consumer.failed >= 1);
  });
});
