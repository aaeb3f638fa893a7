'use strict';

const { EventEmitter } = require('node:events');

const IDLE_MS = 1000;
const MAX_IN_FLIGHT = 5;

/**
 * Pulls outgoing mail from a queue and hands it to a transport. When the
 * queue is empty it sleeps for IDLE_MS before asking again.
 */
class MailQueueConsumer extends EventEmitter {
  constructor(queue, transport, options = {}) {
    super();
    this.queue = queue;
    this.transport = transport;
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    this.running = false;
    this.sent = 0;
    this.failed = 0;
  }

  async handle(message) {
    try {
      await this.transport.send(message);
      this.sent += 1;
      this.emit('sent', message.id);
    } catch (err) {
      this.failed += 1;
      await this.queue.nack(message.id);
      this.emit('failed', message.id, err);
    }
  }

  async loop() {
    while (this.running) {
      const batch = await this.queue.take(this.maxInFlight);
      if (batch.length > 0) {
        await Promise.all(batch.map((m) => this.handle(m)));
      }
      await new Promise((resolve) => setTimeout(resolve, this.idleMs));
    }
  }

  start() {
    if (this.running) return this;
    this.running = true;
    this.done = this.loop();
    return this;
  }

  async stop() {
    this.running = false;
    await this.done;
  }
}

module.exports = { MailQueueConsumer, IDLE_MS };
