export interface OrderSignals {
  orderId: string;
  amountCents: number;
  accountAgeDays: number;
  billingCountry: string;
  shippingCountry: string;
  ipCountry: string;
  failedPaymentAttempts: number;
  cardBinCountry: string;
}

export type Decision = { action: 'approve' | 'hold' | 'decline'; score: number; reasons: string[] };

export const riskConfig = {
  holdAbove: 0.5,
  blockedCountries: new Set(['KP', 'IR']),
  highAmountCents: 150_000,
  weights: {
    newAccount: 0.25,
    countryMismatch: 0.25,
    failedAttempts: 0.3,
    highAmount: 0.2,
  },
};

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

export function signalValues(o: OrderSignals): Record<keyof typeof riskConfig.weights, number> {
  const mismatches = [o.shippingCountry, o.ipCountry, o.cardBinCountry].filter((c) => c !== o.billingCountry).length;
  return {
    newAccount: clamp01(1 - o.accountAgeDays / 30),
    countryMismatch: mismatches,
    failedAttempts: clamp01(o.failedPaymentAttempts / 3),
    highAmount: o.amountCents >= riskConfig.highAmountCents ? 1 : 0,
  };
}

export function riskScore(o: OrderSignals): number {
  const values = signalValues(o);
  let score = 0;
  for (const [name, weight] of Object.entries(riskConfig.weights)) {
    score += weight * values[name as keyof typeof values];
  }
  return Math.round(score * 1000) / 1000;
}

export function decide(o: OrderSignals): Decision {
  const reasons: string[] = [];
  if (riskConfig.blockedCountries.has(o.billingCountry) || riskConfig.blockedCountries.has(o.ipCountry)) {
    return { action: 'decline', score: 1, reasons: ['blocked_country'] };
  }
  const score = riskScore(o);
  const values = signalValues(o);
  for (const [name, v] of Object.entries(values)) {
    if (v > 0.5) reasons.push(name);
  }
  if (score > riskConfig.holdAbove) {
    return { action: 'hold', score, reasons };
  }
  return { action: 'approve', score, reasons };
}
