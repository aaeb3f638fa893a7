export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

type Rule = (n: number) => PluralCategory;

const rules: Record<string, Rule> = {
  en: (n) => (n === 1 ? 'one' : 'other'),
  fr: (n) => (n >= 0 && n < 2 ? 'one' : 'other'),
  pl: (n) => {
    const mod10 = n % 10;
    const mod100 = n % 100;
    if (n === 1) return 'one';
    if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return 'few';
    return 'many';
  },
  ar: (n) => {
    if (n === 0) return 'zero';
    if (n === 1) return 'one';
    if (n === 2) return 'two';
    if (n % 100 >= 3 && n % 100 <= 10) return 'few';
    if (n % 100 >= 11) return 'many';
    return 'other';
  },
};

export type Messages = Partial<Record<PluralCategory, string>> & { other: string };

export function pluralCategory(locale: string, n: number): PluralCategory {
  const language = locale.toLowerCase().split(/[-_]/)[0];
  const rule = rules[language] ?? rules.en;
  return rule(Math.abs(n));
}

export function plural(locale: string, n: number, messages: Messages): string {
  const category = pluralCategory(locale, n);
  const template = messages[category] ?? messages.other;
  const formatted = new Intl.NumberFormat(locale).format(n);
  return template.replace(/\{count\}/g, formatted);
}

export function registerRule(language: string, rule: Rule): void {
  if (rules[language]) {
    throw new Error(`a plural rule for ${language} already exists`);
  }
  rules[language] = rule;
}
