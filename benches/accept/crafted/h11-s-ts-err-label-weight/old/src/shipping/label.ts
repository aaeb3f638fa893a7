export interface OrderLine {
  sku: string;
  quantity: number;
  weight: string; // as entered in the catalogue, e.g. "350 g", "1.2 kg", "2 lb"
}

export interface LabelRequest {
  orderId: string;
  service: 'standard' | 'express';
  weightGrams: number;
  declaredValueCents: number;
}

export class WeightFormatError extends Error {}

const GRAMS_PER_UNIT: Record<string, number> = { g: 1, kg: 1000 };
const PACKAGING_GRAMS = 120;
const EXPRESS_MAX_GRAMS = 10_000;

export function parseWeight(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*$/i.exec(text);
  if (!m) throw new WeightFormatError(`cannot read weight "${text}"`);
  const unit = m[2].toLowerCase();
  const factor = GRAMS_PER_UNIT[unit];
  if (factor === undefined) throw new WeightFormatError(`unknown weight unit "${unit}"`);
  return Math.round(Number(m[1]) * factor);
}

export function shipmentWeight(lines: OrderLine[]): number {
  const items = lines.reduce((sum, l) => sum + parseWeight(l.weight) * l.quantity, 0);
  return items + PACKAGING_GRAMS;
}

export function chooseService(weightGrams: number, requested: LabelRequest['service']): LabelRequest['service'] {
  return requested === 'express' && weightGrams > EXPRESS_MAX_GRAMS ? 'standard' : requested;
}

export function buildLabelRequest(
  orderId: string,
  lines: OrderLine[],
  declaredValueCents: number,
  requested: LabelRequest['service'] = 'standard',
): LabelRequest {
  if (lines.length === 0) throw new Error(`order ${orderId} has no lines`);
  const weightGrams = shipmentWeight(lines);
  return { orderId, service: chooseService(weightGrams, requested), weightGrams, declaredValueCents };
}
