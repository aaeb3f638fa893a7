// A tiny shopping cart with a discount bug.
//
// Run: tsc --strict --outDir out cart.ts && node out/cart.js
// The sample cart costs 100.00; with 10% off the total should be 90.00.

interface Line {
  name: string;
  price: number;
  qty: number;
}

class Cart {
  private readonly items: Line[] = [];

  add(name: string, price: number, qty: number = 1): void {
    this.items.push({ name, price, qty });
  }

  subtotal(): number {
    let total = 0;
    for (const item of this.items) {
      total += item.price * item.qty;
    }
    return total;
  }
}

function applyDiscount(amount: number, percent: number): number {
  const discount = (amount * percent) / 100;
  return discount;
}

function main(): void {
  const cart = new Cart();
  cart.add('book', 40);
  cart.add('pen', 5, 4);
  cart.add('lamp', 40);
  const subtotal = cart.subtotal();
  const total = applyDiscount(subtotal, 10);
  console.log(
    `subtotal ${subtotal.toFixed(2)}, total after 10% off ${total.toFixed(2)} (expected 90.00)`,
  );
}

main();
