'use strict';

/**
 * Shelf-edge unit prices.
 *
 * Consumer rules require every label to show the price per kilogram (solids)
 * or per litre (liquids), next to the selling price. The product feed gives
 * the pack size as free text taken from the supplier's data sheet, e.g.
 *
 *   "500 g"   "1.5kg"   "75 cl"   "6x330ml"   "6 x 330 ml"   "4 x 125g"
 *
 * Multipacks are priced on the total content of the pack.
 */

// Factor to the base unit (grams or millilitres) and the reference quantity.
const UNITS = {
  g: { base: 'g', factor: 1 },
  kg: { base: 'g', factor: 1000 },
  ml: { base: 'ml', factor: 1 },
  cl: { base: 'ml', factor: 10 },
  l: { base: 'ml', factor: 1000 },
};

const REFERENCE = { g: { amount: 1000, label: 'kg' }, ml: { amount: 1000, label: 'l' } };

const MULTIPACK = /^(\d+)x(\d+(?:[.,]\d+)?)\s*([a-z]+)$/i;
const SINGLE = /(\d+(?:[.,]\d+)?)\s*([a-z]+)$/i;

function toNumber(text) {
  return Number(text.replace(',', '.'));
}

/**
 * Total content of a pack in its base unit.
 * @returns {{ amount: number, base: 'g' | 'ml' }}
 */
function parsePackSize(text) {
  const label = String(text).trim();
  let count = 1;
  let amount;
  let unit;

  const multi = MULTIPACK.exec(label);
  if (multi) {
    count = Number(multi[1]);
    amount = toNumber(multi[2]);
    unit = multi[3].toLowerCase();
  } else {
    const single = SINGLE.exec(label);
    if (!single) throw new Error(`unreadable pack size: ${text}`);
    amount = toNumber(single[1]);
    unit = single[2].toLowerCase();
  }

  const def = UNITS[unit];
  if (!def) throw new Error(`unknown unit "${unit}" in pack size: ${text}`);
  return { amount: count * amount * def.factor, base: def.base };
}

/**
 * Unit price for a label: selling price (in pence) and pack size text.
 * Rounded to the nearest penny, as printed.
 */
function unitPrice(pricePence, packSize) {
  const { amount, base } = parsePackSize(packSize);
  const ref = REFERENCE[base];
  return {
    pence: Math.round((pricePence * ref.amount) / amount),
    per: ref.label,
  };
}

/** The text printed under the price, e.g. "£2.42 per l". */
function unitPriceText(pricePence, packSize) {
  const { pence, per } = unitPrice(pricePence, packSize);
  return `£${(pence / 100).toFixed(2)} per ${per}`;
}

module.exports = { parsePackSize, unitPrice, unitPriceText };
