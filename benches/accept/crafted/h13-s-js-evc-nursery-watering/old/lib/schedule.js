'use strict';

/**
 * Watering rota for the nursery benches.
 *
 * Every plant family has a base interval (in days) between waterings. The
 * interval is shortened in summer, when the glasshouse runs hot, and doubled
 * in winter, when growth is slow. Seasons follow the meteorological calendar
 * of the northern hemisphere:
 *
 *   spring  March - May
 *   summer  June - August
 *   autumn  September - November
 *   winter  December - February
 */

const BASE_INTERVAL_DAYS = {
  fern: 4,
  succulent: 14,
  herb: 2,
  citrus: 6,
  orchid: 7,
};

// Calendar months (1 = January) for each season.
const SEASONS = {
  spring: [3, 4, 5],
  summer: [6, 7, 8],
  autumn: [9, 10, 11],
  winter: [12, 1, 2],
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Season name for a Date (UTC). */
function seasonOf(date) {
  const month = date.getUTCMonth();
  for (const [name, months] of Object.entries(SEASONS)) {
    if (months.includes(month)) return name;
  }
  return 'winter';
}

/**
 * Days between two waterings of `family` in `season`.
 * Summer divides the base interval by 1.5 (at least one day), winter doubles it.
 */
function intervalDays(family, season) {
  const base = BASE_INTERVAL_DAYS[family];
  if (base === undefined) {
    throw new Error(`unknown plant family: ${family}`);
  }
  if (season === 'summer') return Math.max(1, Math.floor(base / 1.5));
  if (season === 'winter') return base * 2;
  return base;
}

/**
 * Date of the next watering for a bench, given when it was last watered.
 * Returns an ISO date string (YYYY-MM-DD).
 */
function nextWatering(bench) {
  const last = new Date(`${bench.lastWatered}T00:00:00Z`);
  const days = intervalDays(bench.family, seasonOf(last));
  return new Date(last.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Benches that are due on `today` (or overdue), sorted by how late they are.
 */
function dueBenches(benches, today) {
  return benches
    .map((bench) => ({ bench, due: nextWatering(bench) }))
    .filter(({ due }) => due <= today)
    .sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : 0))
    .map(({ bench, due }) => ({ id: bench.id, due }));
}

module.exports = { seasonOf, intervalDays, nextWatering, dueBenches, BASE_INTERVAL_DAYS };
