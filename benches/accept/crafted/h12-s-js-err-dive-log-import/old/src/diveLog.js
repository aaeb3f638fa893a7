// Imports the CSV log exported by the club's dive computers into logbook entries.
// The export starts with a header line naming the depth unit the computer is set to:
//   #units depth=m temp=C      or      #units depth=ft temp=F

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const DEPTH_TO_METRES = { m: 1, feet: 0.3048 };
const COLUMNS = ['date', 'site', 'maxDepth', 'duration', 'waterTemp'];

export function toMetres(value, unit) {
  const factor = DEPTH_TO_METRES[unit];
  if (factor === undefined) throw new Error(`unknown depth unit "${unit}"`);
  return Math.round(value * factor * 10) / 10;
}

export function toCelsius(value, unit) {
  return unit === 'F' ? Math.round(((value - 32) * 5 / 9) * 10) / 10 : value;
}

export function parseDuration(text) {
  const m = /^(\d+):([0-5]\d)$/.exec(text.trim());
  if (!m) throw new Error(`bad duration "${text}"`);
  return Number(m[1]) + Number(m[2]) / 60;
}

function parseUnits(line) {
  const units = { depth: 'm', temp: 'C' };
  for (const pair of line.replace('#units', '').trim().split(/\s+/)) {
    const [k, v] = pair.split('=');
    if (k in units) units[k] = v;
  }
  return units;
}

function parseRow(cells, units, lineNo) {
  if (cells.length !== COLUMNS.length) {
    throw new Error(`line ${lineNo}: expected ${COLUMNS.length} columns, got ${cells.length}`);
  }
  const [date, site, maxDepth, duration, waterTemp] = cells;
  return {
    date,
    site,
    maxDepthM: toMetres(Number(maxDepth), units.depth),
    minutes: Math.round(parseDuration(duration)),
    waterTempC: waterTemp === '' ? null : toCelsius(Number(waterTemp), units.temp),
  };
}

export async function importDiveLog(lines) {
  let units = { depth: 'm', temp: 'C' };
  const dives = [];
  let lineNo = 0;
  for await (const raw of lines) {
    lineNo += 1;
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('#units')) { units = parseUnits(line); continue; }
    if (line.startsWith('#') || line.startsWith('date,')) continue;
    dives.push(parseRow(line.split(',').map((c) => c.trim()), units, lineNo));
  }
  return dives;
}

export function importDiveLogFile(path) {
  return importDiveLog(createInterface({ input: createReadStream(path), crlfDelay: Infinity }));
}

export function summary(dives) {
  const depths = dives.map((d) => d.maxDepthM).filter((d) => d !== null);
  return {
    dives: dives.length,
    bottomTimeMin: dives.reduce((sum, d) => sum + d.minutes, 0),
    deepestM: depths.length ? Math.max(...depths) : null,
  };
}
