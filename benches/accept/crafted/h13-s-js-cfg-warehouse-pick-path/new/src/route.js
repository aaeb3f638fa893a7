'use strict';

/**
 * Serpentine (S-shape) pick routes.
 *
 * The picker enters the first aisle that has something to pick at bay 1 and
 * walks to its far end, crosses over, walks the next aisle on the list back
 * towards bay 1, and so on. Aisles with nothing to pick are skipped
 * entirely, so the walking direction alternates with every aisle that is
 * actually visited. Inside a bay, lower levels are picked first.
 */

const { parseSlot, byZone } = require('./slots');

function compareUp(a, b) {
  return a.bay - b.bay || a.level - b.level;
}

function compareDown(a, b) {
  return b.bay - a.bay || a.level - b.level;
}

/**
 * Order one zone's slots into a serpentine route.
 * @param {Array<{aisle:number,bay:number,level:number}>} slots
 */
function serpentine(slots) {
  const aisles = new Map();
  for (const slot of slots) {
    if (!aisles.has(slot.aisle)) aisles.set(slot.aisle, []);
    aisles.get(slot.aisle).push(slot);
  }
  const order = [...aisles.keys()].sort((a, b) => a - b);
  const route = [];
  for (const aisle of order) {
    const upwards = aisle % 2 === 1;
    route.push(...aisles.get(aisle).sort(upwards ? compareUp : compareDown));
  }
  return route;
}

/**
 * Plan a pick list: ambient zone first, then chilled (so cold goods spend
 * the least time on the trolley). Returns slot codes in walking order.
 */
function planPick(codes) {
  const groups = byZone(codes.map(parseSlot));
  const route = [];
  for (const zone of ['A', 'C']) {
    if (groups.has(zone)) route.push(...serpentine(groups.get(zone)));
  }
  return route.map((slot) => slot.code);
}

module.exports = { serpentine, planPick };
