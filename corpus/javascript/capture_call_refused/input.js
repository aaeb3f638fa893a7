'use strict';

const TAX_RATE = 0.2;

class Cart {
  constructor(owner) {
    this.owner = owner;
    this.items = [];
  }

  add(item) {
    const existing = this.items.find((i) => i.sku === item.sku);
    if (existing) {
      existing.qty += item.qty;
      return this;
    }
    this.items.push({ ...item });
    return this;
  }

  total() {
    let sum = 0;
    for (const item of this.items) {
      sum += item.price * item.qty;
    }
    return Math.round(sum * (1 + TAX_RATE));
  }
}

function summarize(cart) {
  const lines = cart.items.map((item) => {
    const label = `${item.sku} x${item.qty}`;
    return label.padEnd(20);
  });
  return lines.join('\n');
}

module.exports = { Cart, summarize };
