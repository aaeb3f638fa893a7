export interface StockItem {
  sku: string;
  onHand: number;
  onOrder: number;
  dailyDemand: number[]; // last N days, oldest first
  leadTimeDays: number;
  packSize: number;
  discontinued?: boolean;
}

export interface Suggestion {
  sku: string;
  orderQty: number;
  packs: number;
  coverDays: number;
  reason: "below-reorder-point" | "cover-target";
}

export const REORDER_CONFIG = {
  serviceZ: 1.65, // ~95% cycle service level
  reviewPeriodDays: 7,
  maxCoverDays: 90,
  maxOrderUnits: 20_000,
};

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function stddev(xs: number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((acc, x) => acc + (x - m) ** 2, 0) / (xs.length - 1));
}

export function reorderPoint(item: StockItem, cfg = REORDER_CONFIG): number {
  const d = mean(item.dailyDemand);
  const sigma = stddev(item.dailyDemand);
  const safety = cfg.serviceZ * sigma * Math.sqrt(item.leadTimeDays);
  return Math.ceil(d * item.leadTimeDays + safety);
}

export function suggest(item: StockItem, cfg = REORDER_CONFIG): Suggestion | null {
  if (item.discontinued) return null;
  if (item.packSize <= 0) {
    throw new Error(`${item.sku}: pack size must be positive`);
  }
  const position = item.onHand + item.onOrder;
  const rop = reorderPoint(item, cfg);
  if (position > rop) return null;

  const d = mean(item.dailyDemand);
  const target = Math.ceil(d * (item.leadTimeDays + cfg.reviewPeriodDays)) + (rop - Math.ceil(d * item.leadTimeDays));
  let units = Math.max(target - position, 0);
  const packs = Math.ceil(units / item.packSize);
  units = packs * item.packSize;

  const coverDays = d > 0 ? Math.floor((position + units) / d) : Infinity;
  if (packs === 1) {
    return { sku: item.sku, orderQty: units, packs, coverDays, reason: "below-reorder-point" };
  }
  if (coverDays > cfg.maxCoverDays || units > cfg.maxOrderUnits) {
    throw new Error(`${item.sku}: suggested ${units} units (${coverDays} days of cover) exceeds the limits`);
  }
  return { sku: item.sku, orderQty: units, packs, coverDays, reason: "below-reorder-point" };
}

export function suggestAll(items: StockItem[], cfg = REORDER_CONFIG): Suggestion[] {
  return items
    .map((it) => suggest(it, cfg))
    .filter((s): s is Suggestion => s !== null)
    .sort((a, b) => a.coverDays - b.coverDays || a.sku.localeCompare(b.sku));
}
