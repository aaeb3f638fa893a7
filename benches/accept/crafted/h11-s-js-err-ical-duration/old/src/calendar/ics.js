'use strict';

// Minimal iCalendar (RFC 5545) reader for the conference agenda import: VEVENT blocks only.

function unfold(text) {
  return text.replace(/\r?\n[ \t]/g, '');
}

function parseDateTime(value) {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value);
  if (!m) throw new SyntaxError(`bad DATE-TIME ${value}`);
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  return new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
}

const DURATION = /^P(?:(\d+)W)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

function parseDuration(value) {
  const m = DURATION.exec(value);
  if (!m) throw new SyntaxError(`bad DURATION ${value}`);
  const [, w = 0, h = 0, mi = 0, s = 0] = m;
  return ((+w * 7 * 24 + +h) * 60 + +mi) * 60000 + +s * 1000;
}

function parseLine(line) {
  const colon = line.indexOf(':');
  const head = line.slice(0, colon);
  const [name, ...params] = head.split(';');
  return { name: name.toUpperCase(), params, value: line.slice(colon + 1) };
}

function toEvent(props) {
  const start = parseDateTime(props.DTSTART);
  let end;
  if (props.DTEND) end = parseDateTime(props.DTEND);
  else if (props.DURATION) end = new Date(start.getTime() + parseDuration(props.DURATION));
  else end = start;
  return { uid: props.UID, summary: props.SUMMARY || '', start, end, location: props.LOCATION || null };
}

function parseCalendar(text) {
  const events = [];
  let current = null;
  for (const raw of unfold(text).split(/\r?\n/)) {
    if (!raw.trim()) continue;
    const { name, value } = parseLine(raw);
    if (name === 'BEGIN' && value === 'VEVENT') current = {};
    else if (name === 'END' && value === 'VEVENT') {
      events.push(toEvent(current));
      current = null;
    } else if (current) current[name] = value;
  }
  return events.sort((a, b) => a.start - b.start);
}

module.exports = { parseCalendar, parseDuration, parseDateTime, unfold };
