export interface Cursor {
  offset: number;
  sort: string;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

export class CursorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CursorError";
  }
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8")
    .toString("base64")
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export function decodeCursor(token: string, sort: string): Cursor {
  const json = atob(token);
  const parsed = JSON.parse(json) as Partial<Cursor>;
  if (typeof parsed.offset !== "number" || parsed.offset < 0 || !Number.isInteger(parsed.offset)) {
    throw new CursorError("cursor offset is invalid");
  }
  if (parsed.sort !== sort) {
    throw new CursorError("cursor was issued for a different sort order");
  }
  return { offset: parsed.offset, sort };
}

/** Slice `items` (already sorted by `sort`) into a page. */
export function paginate<T>(items: T[], sort: string, token?: string, limit = DEFAULT_LIMIT): Page<T> {
  if (limit < 1 || limit > MAX_LIMIT) {
    throw new CursorError(`limit must be between 1 and ${MAX_LIMIT}`);
  }
  const start = token ? decodeCursor(token, sort).offset : 0;
  const slice = items.slice(start, start + limit);
  const end = start + slice.length;
  return {
    items: slice,
    next: end < items.length ? encodeCursor({ offset: end, sort }) : null,
  };
}
