'use strict';

/**
 * Storage slot codes.
 *
 * A slot code looks like "A07-B12-L3": aisle 7, bay 12, level 3. Zones
 * prefix the aisle with a letter (A = ambient, C = chilled); the route
 * planner only walks one zone at a time.
 */

const SLOT = /^([AC])(\d{2})-B(\d{2})-L(\d)$/;

function parseSlot(code) {
  const m = SLOT.exec(String(code).trim().toUpperCase());
  if (!m) throw new Error(`bad slot code: ${code}`);
  return { zone: m[1], aisle: Number(m[2]), bay: Number(m[3]), level: Number(m[4]), code: m[0] };
}

function formatSlot({ zone, aisle, bay, level }) {
  const two = (n) => String(n).padStart(2, '0');
  return `${zone}${two(aisle)}-B${two(bay)}-L${level}`;
}

/** Group parsed slots by zone, keeping the input order inside each zone. */
function byZone(slots) {
  const groups = new Map();
  for (const slot of slots) {
    if (!groups.has(slot.zone)) groups.set(slot.zone, []);
    groups.get(slot.zone).push(slot);
  }
  return groups;
}

module.exports = { parseSlot, formatSlot, byZone };
