'use strict';

// gsd-debug-probe:start golden-run p1
// prettier-ignore
try {
  let gsd$p = globalThis, gsd$m = gsd$p.__GSDDBG1_rt1, gsd$f;
  if (!gsd$m) gsd$p = Object.defineProperty(gsd$p, "__GSDDBG1_rt1", { configurable: true, value:
    gsd$m = new gsd$p.Map() }).process, (gsd$f = gsd$p.env.GSD_DEBUG_PROBE_RUNTIME) && (gsd$p
    .getBuiltinModule || require)("module").createRequire("/")(gsd$f + ".cjs").into(gsd$m);
  if (gsd$m.size && (gsd$f = gsd$m.get("gsd-debug-probe/golden-run/p1"))) gsd$f(() => [
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
