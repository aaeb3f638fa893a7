const { parseCalendar, parseDuration } = require('../src/calendar/ics');

const ICS = [
  'BEGIN:VCALENDAR',
  'BEGIN:VEVENT',
  'UID:a1',
  'SUMMARY:Board meeting',
  'DTSTART:20260310T090000Z',
  'DTEND:20260310T103000Z',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:a2',
  'SUMMARY:Offsite',
  'DTSTART:20260312T080000Z',
  'DURATION:P1DT2H',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

describe('parseDuration', () => {
  test('hours and minutes', () => {
    expect(parseDuration('PT1H30M')).toBe(90 * 60000);
  });
  test('weeks', () => {
    expect(parseDuration('P2W')).toBe(14 * 86400000);
  });
});

describe('parseCalendar', () => {
  test('reads every event, including day-long durations', () => {
    const events = parseCalendar(ICS);
    expect(events.map((e) => e.uid)).toEqual(['a1', 'a2']);
    expect(events[1].summary).toBe('Offsite');
  });
});
