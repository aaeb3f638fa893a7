export interface Ean {
  digits: string;
  kind: "EAN-8" | "EAN-13" | "UPC-A";
  prefix: string;
}

export class BarcodeError extends Error {
  constructor(public readonly input: string, reason: string) {
    super(`${input}: ${reason}`);
    this.name = "BarcodeError";
  }
}

/** GS1 check digit for the payload (all digits except the check digit). */
export function checkDigit(payload: string): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    const digit = payload.charCodeAt(i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

function kindOf(length: number): Ean["kind"] | undefined {
  switch (length) {
    case 8:
      return "EAN-8";
    case 12:
      return "UPC-A";
    case 13:
      return "EAN-13";
    default:
      return undefined;
  }
}

/** Parse a scanned or typed barcode, verifying its check digit. */
export function parseEan(input: string): Ean {
  const digits = input.replace(/[\s-]/g, "");
  if (!/^\d+$/.test(digits)) throw new BarcodeError(input, "not numeric");
  const kind = kindOf(digits.length);
  if (!kind) throw new BarcodeError(input, `unexpected length ${digits.length}`);
  const payload = digits.slice(0, -1);
  const expected = checkDigit(payload);
  if (expected !== Number(digits[digits.length - 1])) {
    throw new BarcodeError(input, `check digit should be ${expected}`);
  }
  return { digits, kind, prefix: digits.slice(0, 3) };
}

/** Normalize UPC-A to EAN-13 by prefixing a zero. */
export function toEan13(code: Ean): string {
  return code.kind === "UPC-A" ? "0" + code.digits : code.digits;
}

export function isRestrictedCirculation(code: Ean): boolean {
  const p = Number(toEan13(code).slice(0, 3));
  return (p >= 20 && p <= 29) || (p >= 200 && p <= 299);
}
