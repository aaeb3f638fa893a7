const RATES: Record<string, number> = { FR: 0.2, DE: 0.19, IT: 0.22, ES: 0.21 };

export function taxRate(region: string): number {
  const rate = RATES[region];
  if (rate === undefined) {
    throw new Error(`unknown region ${region}`);
  }
  return rate;
}
