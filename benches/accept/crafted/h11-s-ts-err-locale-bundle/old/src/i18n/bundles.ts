import { readFile } from 'node:fs/promises';
import path from 'node:path';

export type Messages = Record<string, string>;

export class MissingBundleError extends Error {
  constructor(readonly locale: string, readonly file: string) {
    super(`no message bundle for ${locale} at ${file}`);
  }
}

const cache = new Map<string, Messages>();

export function bundleFile(root: string, locale: string): string {
  // bundles are stored as <language>_<REGION>.json, e.g. pt_BR.json
  return path.join(root, `${locale}.json`);
}

export async function loadBundle(root: string, locale: string): Promise<Messages> {
  const key = `${root}::${locale}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const file = bundleFile(root, locale);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingBundleError(locale, file);
    throw err;
  }
  const messages = JSON.parse(text) as Messages;
  cache.set(key, messages);
  return messages;
}

export function fallbackChain(locale: string, defaultLocale = 'en'): string[] {
  const chain = [locale];
  const language = locale.split(/[-_]/)[0];
  if (language !== locale) chain.push(language);
  if (!chain.includes(defaultLocale)) chain.push(defaultLocale);
  return chain;
}

export async function translator(root: string, locale: string): Promise<(key: string, vars?: Record<string, string>) => string> {
  const bundles = await Promise.all(
    fallbackChain(locale).map((l, i) => (i === 0 ? loadBundle(root, l) : loadBundle(root, l).catch((): Messages => ({})))),
  );
  return (key, vars = {}) => {
    const template = bundles.find((b) => key in b)?.[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? `{${name}}`);
  };
}

export function clearBundleCache(): void {
  cache.clear();
}
