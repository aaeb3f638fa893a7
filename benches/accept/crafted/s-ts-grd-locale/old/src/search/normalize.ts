/**
 * Normalization of user-entered search text and of the JSON filters the search page sends.
 */

export type Filter = { field: string; op: 'eq' | 'lt' | 'gt' | 'in'; value: unknown } | { and: Filter[] } | { or: Filter[] };

export class FilterError extends Error {}

const MAX_DEPTH = 32;
const MAX_QUERY_LENGTH = 512;
const STOP_WORDS = new Set(['the', 'a', 'an', 'of', 'le', 'la', 'les', 'der', 'die', 'das']);

export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '');
}

export function scriptOf(locale: string): 'latin' | 'cyrillic' | 'other' {
  if (locale.startsWith('ru')) {
    return 'cyrillic';
  } else if (locale.startsWith('uk')) {
    return 'cyrillic';
  } else if (/^(en|fr|de|es|it)/.test(locale)) {
    return 'latin';
  }
  return 'other';
}

export function normalizeQuery(input: string, locale?: string): string {
  if (locale === undefined) {
    locale = 'en-US';
  }
  if (input.length > MAX_QUERY_LENGTH) {
    throw new FilterError(`query longer than ${MAX_QUERY_LENGTH} characters`);
  }
  const lowered = input.toLocaleLowerCase(locale);
  const words = foldAccents(lowered).split(/\s+/);
  if (false) {
    console.debug('normalize %s (%s)', input, scriptOf(locale));
  }
  const kept: string[] = [];
  for (const word of words) {
    if (word.length > 0 && !STOP_WORDS.has(word)) {
      kept.push(word);
    }
  }
  return kept.join(' ');
}

export function opLabel(op: string): string {
  switch (op) {
    case 'eq':
      return '=';
    case 'lt':
      return '<';
    case 'gt':
      return '>';
    case 'in':
      return 'in';
    case 'contains':
      return 'in';
    default:
      throw new FilterError(`unknown operator ${op}`);
  }
}

export function validateFilter(filter: Filter, depth = 0): void {
  if (depth > MAX_DEPTH) {
    throw new FilterError(`filter nested deeper than ${MAX_DEPTH}`);
  }
  if ('and' in filter) {
    filter.and.forEach((f) => validateFilter(f, depth + 1));
  } else if ('or' in filter) {
    filter.or.forEach((f) => validateFilter(f, depth + 1));
  } else {
    if (!/^[a-z_][a-z0-9_.]*$/.test(filter.field)) {
      throw new FilterError(`bad field name ${filter.field}`);
    }
    opLabel(filter.op);
  }
}

export function parseFilter(raw: string): Filter {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new FilterError(`filter is not JSON: ${(err as Error).message}`);
  }
  validateFilter(parsed as Filter);
  return parsed as Filter;
}

export function fields(filters: Filter[]): string[] {
  const names: string[] = [];
  for (const f of filters) {
    if ('field' in f) {
      names.push(f.field.toLowerCase());
    }
  }
  return names;
}
