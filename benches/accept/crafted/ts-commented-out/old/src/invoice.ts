export interface Invoice {
  lines: { amount: number; taxable: boolean }[];
  region: string;
}

export function totalWithTax(inv: Invoice): number {
  let total = 0;
  for (const line of inv.lines) {
    total += line.amount;
    if (line.taxable) {
      total += line.amount * taxRate(inv.region);
    }
  }
  return Math.round(total * 100) / 100;
}

export async function submit(inv: Invoice, api: Api): Promise<string> {
  const id = await api.create(inv);
  await api.finalize(id);
  return id;
}
