'use strict';

// gsd-debug-probe:start golden-run p1
// prettier-ignore
try {
  const gsd$p = globalThis.process, gsd$e = gsd$p && gsd$p.env.GSD_DEBUG_PROBE_RUNTIME;
  const gsd$rt = !gsd$e ? globalThis[Symbol.for("GSDDBG1_rt1")] : (gsd$p.getBuiltinModule
    ? gsd$p.getBuiltinModule("module").createRequire("/") : require)(gsd$e + ".cjs");
  if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
  ]);
} catch (e) {}
// gsd-debug-probe:end golden-run p1
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
