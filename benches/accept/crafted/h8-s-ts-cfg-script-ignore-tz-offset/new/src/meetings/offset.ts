export interface LocalTime {
  hour: number;
  minute: number;
}

const OFFSET = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/;

export class OffsetError extends Error {
  constructor(public readonly input: string) {
    super(`invalid UTC offset: ${input}`);
    this.name = "OffsetError";
  }
}

/** Minutes east of UTC for strings like "UTC+2", "UTC-03:30", "UTC+0545". */
export function parseOffset(input: string): number {
  if (input === "UTC" || input === "Z") return 0;
  const match = OFFSET.exec(input.trim());
  if (!match) throw new OffsetError(input);
  const sign = match[1] === "-" ? -1 : 1;
  const hours = parseInt(match[2], 10);
  if (hours > 14) throw new OffsetError(input);
  return sign * hours * 60;
}

function wrap(minutes: number): number {
  const day = 24 * 60;
  return ((minutes % day) + day) % day;
}

/** Convert a wall-clock time from one offset to another. */
export function convert(time: LocalTime, from: string, to: string): LocalTime & { dayShift: number } {
  const start = time.hour * 60 + time.minute;
  const utc = start - parseOffset(from);
  const target = utc + parseOffset(to);
  const dayShift = Math.floor(target / (24 * 60));
  const wrapped = wrap(target);
  return { hour: Math.floor(wrapped / 60), minute: wrapped % 60, dayShift };
}

export function formatTime(time: LocalTime): string {
  return `${String(time.hour).padStart(2, "0")}:${String(time.minute).padStart(2, "0")}`;
}

/** UTC hours that fall inside 09:00-17:00 local time for every offset. */
export function sharedWorkingHours(offsets: string[]): number[] {
  const hours: number[] = [];
  for (let utcHour = 0; utcHour < 24; utcHour++) {
    const ok = offsets.every((o) => {
      const local = convert({ hour: utcHour, minute: 0 }, "UTC", o);
      return local.hour >= 9 && local.hour < 17;
    });
    if (ok) hours.push(utcHour);
  }
  return hours;
}
