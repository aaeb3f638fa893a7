'use strict';

const assert = require('assert');
const { PrintSpooler, PrinterBusy } = require('../lib/spooler');

function flakyPrinter(busyTimes) {
  let calls = 0;
  return {
    printed: [],
    async print(doc) {
      calls += 1;
      if (calls <= busyTimes) throw new PrinterBusy('busy');
      this.printed.push(doc);
    },
  };
}

describe('PrintSpooler', () => {
  it('prints by priority', async () => {
    const printer = flakyPrinter(0);
    const spooler = new PrintSpooler(printer);
    spooler.submit('invoice');
    spooler.submit('label', { priority: 5 });
    await spooler.drain();
    assert.deepStrictEqual(printer.printed, ['label', 'invoice']);
  });

  it('retries a busy printer', async () => {
    const printer = flakyPrinter(2);
    const spooler = new PrintSpooler(printer);
    spooler.submit('manifest');
    assert.deepStrictEqual(await spooler.drain(), { printed: 1, failed: 0 });
  });

  it('gives up after maxAttempts', async () => {
    const spooler = new PrintSpooler(flakyPrinter(10), { maxAttempts: 1 });
    spooler.submit('x');
    assert.deepStrictEqual(await spooler.drain(), { printed: 0, failed: 1 });
  });
});
