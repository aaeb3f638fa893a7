'use strict';

// Ride fares for the city bike scheme. The tariff is published by operations as a
// semicolon-separated sheet (exported from their spreadsheet, so decimals use a comma)
// and loaded at start-up; fares are computed per ride and capped per day.

const fs = require('fs');

const REQUIRED = ['unlock', 'per_minute', 'ebike_per_minute', 'daily_cap', 'member_free_minutes'];

const DEFAULT_TARIFF = Object.freeze({
  unlock: 1.0,
  per_minute: 0.15,
  ebike_per_minute: 0.25,
  daily_cap: 15.0,
  member_free_minutes: 30,
});

function parseTariff(text) {
  const tariff = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [key, value] = line.split(';').map((s) => s.trim());
    const num = parseFloat(value);
    if (Number.isNaN(num)) throw new Error(`tariff: ${key} is not a number: ${value}`);
    tariff[key] = num;
  }
  const missing = REQUIRED.filter((k) => !(k in tariff));
  if (missing.length) throw new Error(`tariff: missing ${missing.join(', ')}`);
  return tariff;
}

function loadTariff(path) {
  return parseTariff(fs.readFileSync(path, 'utf8'));
}

const round2 = (x) => Math.round(x * 100) / 100;

function rideFare(ride, tariff) {
  const minutes = Math.ceil((ride.endedAt - ride.startedAt) / 60000);
  if (minutes < 0) throw new RangeError('ride ends before it starts');
  const free = ride.member ? tariff.member_free_minutes : 0;
  const billable = Math.max(0, minutes - free);
  const rate = ride.ebike ? tariff.ebike_per_minute : tariff.per_minute;
  const unlock = ride.member ? 0 : tariff.unlock;
  return round2(unlock + billable * rate);
}

function dailyCharges(rides, tariff) {
  const byDay = new Map();
  for (const ride of rides) {
    const day = new Date(ride.startedAt).toISOString().slice(0, 10);
    byDay.set(day, (byDay.get(day) ?? 0) + rideFare(ride, tariff));
  }
  return [...byDay].map(([day, total]) => ({ day, total: round2(Math.min(total, tariff.daily_cap)) }));
}

module.exports = { DEFAULT_TARIFF, parseTariff, loadTariff, rideFare, dailyCharges };
