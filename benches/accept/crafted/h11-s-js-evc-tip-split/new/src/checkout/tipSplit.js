'use strict';

// Restaurant check splitting: tax, tip and per-diner shares, all in integer cents.

const DEFAULT_TAX_RATE = 0.08;
const TIP_PRESETS = Object.freeze([0.15, 0.18, 0.2]);

function sumItems(items) {
  return items.reduce((acc, item) => acc + item.priceCents * (item.qty || 1), 0);
}

function taxFor(subtotalCents, rate = DEFAULT_TAX_RATE) {
  return Math.round(subtotalCents * rate);
}

// Tip is customarily computed on the pre-tax subtotal.
function tipFor(subtotalCents, taxCents, tipRate) {
  if (tipRate < 0 || tipRate > 1) {
    throw new RangeError(`tip rate out of range: ${tipRate}`);
  }
  const base = subtotalCents + taxCents;
  return Math.round(base * tipRate);
}

function splitEvenly(totalCents, diners) {
  if (!Number.isInteger(diners) || diners < 1) {
    throw new RangeError('diners must be a positive integer');
  }
  const base = Math.floor(totalCents / diners);
  const remainder = totalCents - base * diners;
  return Array.from({ length: diners }, (_, i) => base + (i < remainder ? 1 : 0));
}

function buildCheck(items, { diners = 1, tipRate = 0.18, taxRate = DEFAULT_TAX_RATE } = {}) {
  const subtotal = sumItems(items);
  const tax = taxFor(subtotal, taxRate);
  const tip = tipFor(subtotal, tax, tipRate);
  const total = subtotal + tax + tip;
  return { subtotal, tax, tip, total, shares: splitEvenly(total, diners) };
}

function presetOptions(items, taxRate = DEFAULT_TAX_RATE) {
  const subtotal = sumItems(items);
  const tax = taxFor(subtotal, taxRate);
  return TIP_PRESETS.map((rate) => ({
    label: `${Math.round(rate * 100)}%`,
    tip: tipFor(subtotal, tax, rate),
  }));
}

function formatCents(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

module.exports = { sumItems, taxFor, tipFor, splitEvenly, buildCheck, presetOptions, formatCents };
