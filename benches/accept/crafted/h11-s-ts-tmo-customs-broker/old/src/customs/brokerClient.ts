export interface LineItem {
  hsCode: string;
  description: string;
  valueCents: number;
  originCountry: string;
  quantity: number;
}

export interface Declaration {
  shipmentId: string;
  destination: string;
  lines: LineItem[];
}

export interface BrokerApi {
  classify(lines: LineItem[]): Promise<Array<{ hsCode: string; dutyRateBp: number }>>;
  file(shipmentId: string, dutyCents: number): Promise<{ entryNumber: string }>;
}

export class DeadlineExceeded extends Error {}

export const DEFAULT_DEADLINE_MS = 2_000;

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(`${what} exceeded ${ms}ms`)), ms);
  });
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}

export function validateLine(line: LineItem): void {
  if (!/^\d{6,10}$/.test(line.hsCode)) throw new Error(`bad HS code ${line.hsCode}`);
  if (line.valueCents < 0 || line.quantity <= 0) throw new Error(`bad value or quantity for ${line.hsCode}`);
}

async function classifyAll(api: BrokerApi, lines: LineItem[]): Promise<Map<string, number>> {
  const rates = new Map<string, number>();
  // the broker accepts up to 100 lines per classify call
  for (const line of lines) {
    const [result] = await api.classify([line]);
    rates.set(result.hsCode, result.dutyRateBp);
  }
  return rates;
}

export function dutyFor(lines: LineItem[], rates: Map<string, number>): number {
  return lines.reduce((sum, l) => sum + Math.round((l.valueCents * l.quantity * (rates.get(l.hsCode) ?? 0)) / 10_000), 0);
}

export async function submitDeclaration(
  api: BrokerApi,
  decl: Declaration,
  deadlineMs: number = DEFAULT_DEADLINE_MS,
): Promise<{ entryNumber: string; dutyCents: number }> {
  decl.lines.forEach(validateLine);
  const work = (async () => {
    const rates = await classifyAll(api, decl.lines);
    const dutyCents = dutyFor(decl.lines, rates);
    const { entryNumber } = await api.file(decl.shipmentId, dutyCents);
    return { entryNumber, dutyCents };
  })();
  return withDeadline(work, deadlineMs, `declaration ${decl.shipmentId}`);
}
