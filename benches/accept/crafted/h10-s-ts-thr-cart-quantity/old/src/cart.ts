// Cart line validation and totals for the storefront API.

export interface CartLine {
  sku: string;
  quantity: number;
  unitCents: number;
}

export interface Cart {
  lines: CartLine[];
  couponPercent?: number;
}

export class CartError extends Error {
  constructor(public readonly sku: string, message: string) {
    super(message);
  }
}

export const MAX_QUANTITY_PER_LINE = 99;
export const MAX_LINES = 100;

export function validateLine(line: CartLine): void {
  if (!Number.isInteger(line.quantity) || line.quantity < 1) {
    throw new CartError(line.sku, `quantity must be a positive integer`);
  }
  if (line.quantity > MAX_QUANTITY_PER_LINE) {
    throw new CartError(line.sku, `at most ${MAX_QUANTITY_PER_LINE} per line`);
  }
  if (line.unitCents < 0) {
    throw new CartError(line.sku, `negative price`);
  }
}

export function mergeLines(lines: CartLine[]): CartLine[] {
  const bySku = new Map<string, CartLine>();
  for (const l of lines) {
    const prev = bySku.get(l.sku);
    if (prev) prev.quantity += l.quantity;
    else bySku.set(l.sku, { ...l });
  }
  return [...bySku.values()];
}

export function validateCart(cart: Cart): CartLine[] {
  const lines = mergeLines(cart.lines);
  if (lines.length > MAX_LINES) {
    throw new CartError("*", `at most ${MAX_LINES} distinct items`);
  }
  lines.forEach(validateLine);
  return lines;
}

export function totalCents(cart: Cart): number {
  const lines = validateCart(cart);
  const gross = lines.reduce((s, l) => s + l.quantity * l.unitCents, 0);
  const pct = Math.min(Math.max(cart.couponPercent ?? 0, 0), 100);
  return Math.round(gross * (1 - pct / 100));
}
