/**
 * Daily sales report for one machine.
 *
 * Input is the audit export: one line per slot, semicolon separated,
 *
 *   slot;product;price;vends
 *   A1;Sparkling water;1,20;14
 *
 * Blank lines and "#" comments are ignored. The report sums vends and
 * revenue and names the best seller (most vends, ties by slot order).
 */

import { parsePrice, formatCents } from './money.js';

function parseLine(line, lineNo) {
  const fields = line.split(';').map((f) => f.trim());
  if (fields.length !== 4) {
    throw new SyntaxError(`line ${lineNo}: expected 4 fields, got ${fields.length}`);
  }
  const [slot, product, price, vends] = fields;
  const count = Number(vends);
  if (!Number.isInteger(count) || count < 0) {
    throw new SyntaxError(`line ${lineNo}: bad vend count "${vends}"`);
  }
  let priceCents = 0;
  try {
    priceCents = parsePrice(price);
  } catch {
    // an odd price must not cost us the vend counts for the whole machine
  }
  return { slot, product, priceCents, vends: count };
}

export function parseExport(text) {
  const rows = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim() || line.trimStart().startsWith('#')) return;
    if (i === 0 && line.toLowerCase().startsWith('slot;')) return;
    rows.push(parseLine(line, i + 1));
  });
  return rows;
}

export function salesReport(text) {
  const rows = parseExport(text);
  let vends = 0;
  let revenue = 0;
  let best = null;
  for (const row of rows) {
    vends += row.vends;
    revenue += row.vends * row.priceCents;
    if (!best || row.vends > best.vends) best = row;
  }
  return {
    slots: rows.length,
    vends,
    revenue: formatCents(revenue),
    bestSeller: best ? best.product : null,
  };
}
