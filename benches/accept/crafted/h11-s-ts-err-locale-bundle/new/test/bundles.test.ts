import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fallbackChain, translator } from '../src/i18n/bundles';

let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'bundles-'));
  writeFileSync(path.join(root, 'en.json'), JSON.stringify({ greeting: 'Hello, {name}', farewell: 'Goodbye' }));
  writeFileSync(path.join(root, 'pt.json'), JSON.stringify({ farewell: 'Tchau' }));
  writeFileSync(path.join(root, 'pt_BR.json'), JSON.stringify({ greeting: 'Olá, {name}' }));
});

describe('fallbackChain', () => {
  it('goes region -> language -> default', () => {
    expect(fallbackChain('pt-BR')).toEqual(['pt-BR', 'pt', 'en']);
  });
});

describe('translator', () => {
  it('falls back to the language bundle for keys the region lacks', async () => {
    const t = await translator(root, 'pt-BR');
    expect(t('farewell')).toBe('Tchau');
  });

  it('unknown keys render as themselves', async () => {
    const t = await translator(root, 'en');
    expect(t('nope')).toBe('nope');
  });
});
