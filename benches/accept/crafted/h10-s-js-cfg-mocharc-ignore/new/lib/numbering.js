'use strict';

// Invoice numbering: per-tenant sequences with a yearly reset and a prefix template.

const PLACEHOLDER = /\{(YYYY|YY|MM|SEQ(?::(\d+))?)\}/g;

class Sequencer {
  constructor(store) {
    this.store = store;
  }

  async next(tenant, template, now = new Date()) {
    const year = now.getUTCFullYear();
    const key = `${tenant}:${template}`;
    const current = (await this.store.get(key)) || 0;
    const seq = current + 1;
    await this.store.set(key, seq);
    return render(template, { year, month: now.getUTCMonth() + 1, seq });
  }
}

function render(template, { year, month, seq }) {
  return template.replace(PLACEHOLDER, (_, token, width) => {
    switch (token.slice(0, 3)) {
      case 'YYY':
        return String(year);
      case 'YY':
        return String(year).slice(-2);
      case 'MM':
        return String(month).padStart(2, '0');
      default:
        return String(seq).padStart(Number(width || 1), '0');
    }
  });
}

function parse(number, template) {
  const pattern = template
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{YYYY\\?\}/, '(\\d{4})')
    .replace(/\\?\{YY\\?\}/, '(\\d{2})')
    .replace(/\\?\{MM\\?\}/, '(\\d{2})')
    .replace(/\\?\{SEQ(?::\d+)?\\?\}/, '(\\d+)');
  const m = new RegExp(`^${pattern}$`).exec(number);
  return m ? m.slice(1).map(Number) : null;
}

class MemoryStore {
  constructor() {
    this.map = new Map();
  }
  async get(k) {
    return this.map.get(k);
  }
  async set(k, v) {
    this.map.set(k, v);
  }
}

module.exports = { Sequencer, MemoryStore, render, parse };
