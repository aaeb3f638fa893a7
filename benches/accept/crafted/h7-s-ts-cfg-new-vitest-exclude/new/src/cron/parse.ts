export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
}

const FIELDS: Array<{ name: keyof CronSchedule; min: number; max: number }> = [
  { name: 'minutes', min: 0, max: 59 },
  { name: 'hours', min: 0, max: 23 },
  { name: 'daysOfMonth', min: 1, max: 31 },
  { name: 'months', min: 1, max: 12 },
  { name: 'daysOfWeek', min: 0, max: 6 },
];

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export class CronSyntaxError extends Error {
  constructor(expression: string, detail: string) {
    super(`invalid cron expression "${expression}": ${detail}`);
    this.name = 'CronSyntaxError';
  }
}

function resolveName(token: string, field: keyof CronSchedule): string {
  const lower = token.toLowerCase();
  if (field === 'months' && MONTH_NAMES.includes(lower)) return String(MONTH_NAMES.indexOf(lower) + 1);
  if (field === 'daysOfWeek' && DAY_NAMES.includes(lower)) return String(DAY_NAMES.indexOf(lower));
  return token;
}

function parseField(expr: string, text: string, spec: (typeof FIELDS)[number]): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const [rangeText, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new CronSyntaxError(expr, `bad step in ${part}`);
    let lo = spec.min;
    let hi = spec.max;
    if (rangeText !== '*') {
      const [a, b] = rangeText.split('-').map((t) => Number(resolveName(t, spec.name)));
      lo = a;
      hi = b === undefined ? (stepText === undefined ? a : spec.max) : b;
    }
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < spec.min || hi > spec.max || lo > hi) {
      throw new CronSyntaxError(expr, `${spec.name} out of range in ${part}`);
    }
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return values;
}

export function parseCron(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronSyntaxError(expression, `expected 5 fields, got ${parts.length}`);
  const schedule = {} as CronSchedule;
  FIELDS.forEach((spec, i) => {
    schedule[spec.name] = parseField(expression, parts[i], spec);
  });
  if (schedule.daysOfWeek.has(7)) schedule.daysOfWeek.add(0);
  return schedule;
}

export function matches(schedule: CronSchedule, date: Date): boolean {
  return (
    schedule.minutes.has(date.getUTCMinutes()) &&
    schedule.hours.has(date.getUTCHours()) &&
    schedule.daysOfMonth.has(date.getUTCDate()) &&
    schedule.months.has(date.getUTCMonth() + 1) &&
    schedule.daysOfWeek.has(date.getUTCDay())
  );
}
