/**
 * Money helpers for vending audit exports.
 *
 * Machines are configured per site, and the audit export writes prices with
 * the site's decimal separator: "1.20" on most sites, "1,20" on the ones set
 * up with a continental locale. Both must be accepted. Amounts are kept as
 * integer cents from here on.
 */

const PRICE = /^\d+\.\d{2}$/;

/**
 * Parse an exported price into cents.
 * @param {string} text e.g. "1.20" or "1,20"
 * @returns {number}
 */
export function parsePrice(text) {
  const raw = String(text).trim();
  if (!PRICE.test(raw)) {
    throw new RangeError(`invalid price in audit export: "${text}"`);
  }
  const [units, cents] = raw.replace(',', '.').split('.');
  return Number(units) * 100 + Number(cents);
}

/** Format cents as a price for the report, always with a dot. */
export function formatCents(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
