'use strict';

const DEFAULT_SEPARATOR = '-';
const MAX_LENGTH = 80;

const TRANSLITERATIONS = {
  'ä': 'ae', 'ö': 'oe', 'ü': 'ue', 'ß': 'ss',
  'æ': 'ae', 'ø': 'o', 'å': 'a', 'œ': 'oe',
  '&': ' and ',
};

function transliterate(input) {
  let out = '';
  for (const ch of input) {
    const lower = ch.toLowerCase();
    out += Object.prototype.hasOwnProperty.call(TRANSLITERATIONS, lower)
      ? TRANSLITERATIONS[lower]
      : ch;
  }
  return out.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Turn a title into a URL slug: lowercase ASCII words joined by `separator`.
 * Leading and trailing separators are removed, runs are collapsed, and the
 * result is cut at a word boundary so it stays under `maxLength`.
 */
function slugify(title, options = {}) {
  const separator = options.separator || DEFAULT_SEPARATOR;
  const maxLength = options.maxLength || MAX_LENGTH;
  if (typeof title !== 'string') {
    throw new TypeError('slugify expects a string');
  }
  const sep = escapeRegExp(separator);
  let slug = transliterate(title)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^${sep}+`), '')
    .replace(new RegExp(`${sep}{2,}`, 'g'), separator);

  if (slug.length > maxLength) {
    const cut = slug.lastIndexOf(separator, maxLength);
    slug = slug.slice(0, cut > 0 ? cut : maxLength);
  }
  return slug;
}

function uniqueSlug(title, taken, options = {}) {
  const base = slugify(title, options);
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n += 1;
  return `${base}-${n}`;
}

module.exports = { slugify, uniqueSlug, transliterate };
