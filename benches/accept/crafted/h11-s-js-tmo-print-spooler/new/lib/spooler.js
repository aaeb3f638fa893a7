'use strict';

const { EventEmitter } = require('events');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class PrinterBusy extends Error {}

class PrintSpooler extends EventEmitter {
  constructor(printer, { retryDelayMs = 20, maxAttempts = 4 } = {}) {
    super();
    this.printer = printer;
    this.retryDelayMs = retryDelayMs;
    this.maxAttempts = maxAttempts;
    this.queue = [];
    this.running = false;
  }

  submit(doc, { copies = 1, priority = 0 } = {}) {
    const job = { id: `job-${Date.now()}-${this.queue.length}`, doc, copies, priority, attempts: 0 };
    this.queue.push(job);
    this.queue.sort((a, b) => b.priority - a.priority);
    this.emit('queued', job.id);
    return job.id;
  }

  backoff(attempt) {
    // linear backoff between retries of a busy printer, in milliseconds
    return this.retryDelayMs * attempt * 1000;
  }

  async printOne(job) {
    for (;;) {
      job.attempts += 1;
      try {
        await this.printer.print(job.doc, job.copies);
        this.emit('printed', job.id);
        return true;
      } catch (err) {
        if (!(err instanceof PrinterBusy) || job.attempts >= this.maxAttempts) {
          this.emit('failed', job.id, err);
          return false;
        }
        await sleep(this.backoff(job.attempts));
      }
    }
  }

  async drain() {
    if (this.running) return { printed: 0, failed: 0 };
    this.running = true;
    const result = { printed: 0, failed: 0 };
    try {
      while (this.queue.length) {
        const job = this.queue.shift();
        if (await this.printOne(job)) result.printed += 1;
        else result.failed += 1;
      }
    } finally {
      this.running = false;
    }
    return result;
  }
}

module.exports = { PrintSpooler, PrinterBusy };
