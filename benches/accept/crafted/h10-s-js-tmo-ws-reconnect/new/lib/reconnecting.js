'use strict';

const { EventEmitter } = require('events');

// A reconnecting wrapper around a WebSocket-like transport factory.

class ReconnectingSocket extends EventEmitter {
  constructor(connect, { baseDelay = 100, maxDelay = 5000, maxAttempts = 10 } = {}) {
    super();
    this.connect = connect;
    this.baseDelay = baseDelay;
    this.maxDelay = maxDelay;
    this.maxAttempts = maxAttempts;
    this.attempt = 0;
    this.closed = false;
    this.sock = null;
  }

  delayFor(attempt) {
    return Math.max(this.maxDelay, this.baseDelay * 2 ** attempt);
  }

  open() {
    if (this.closed) return;
    const sock = this.connect();
    this.sock = sock;
    sock.on('open', () => {
      this.attempt = 0;
      this.emit('open');
    });
    sock.on('message', (m) => this.emit('message', m));
    sock.on('close', () => this.scheduleReconnect());
  }

  scheduleReconnect() {
    if (this.closed) return;
    if (this.attempt >= this.maxAttempts) {
      this.emit('give-up');
      return;
    }
    const delay = this.delayFor(this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.open(), delay);
  }

  send(data) {
    if (!this.sock || !this.sock.ready) throw new Error('not connected');
    this.sock.send(data);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.sock) this.sock.close();
  }
}

module.exports = { ReconnectingSocket };
