import { describe, expect, it } from 'vitest';
import { plural, pluralCategory } from './plural';

const files = { one: '{count} file', other: '{count} files' };

describe('plural', () => {
  it('uses the singular for one in English', () => {
    expect(plural('en-US', 1, files)).toBe('1 file');
  });

  it('uses the plural for zero in English', () => {
    expect(plural('en-US', 0, files)).toBe('0 files');
  });

  it('treats zero as singular in French', () => {
    expect(plural('fr-FR', 0, { one: '{count} fichier', other: '{count} fichiers' })).toBe('0 fichier');
  });

  it('formats large numbers with the locale', () => {
    expect(plural('en', 12345, files)).toBe('12,345 files');
  });

  it('knows the Polish few/many split', () => {
    expect([2, 5, 22, 12].map((n) => pluralCategory('pl', n))).toEqual(['few', 'many', 'few', 'many']);
  });
});
