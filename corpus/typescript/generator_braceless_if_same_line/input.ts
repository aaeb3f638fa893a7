"use strict";

import { readFileSync } from 'fs';

function legacy(path: string): string[] {
  "use strict";
  const text = readFileSync(path, 'utf8');
  return text.split('\n');
}

export function* lines(path: string): Generator<string> {
  for (const line of legacy(path)) {
    if (line.trim() === '') continue;
    yield line;
  }
}

export { legacy };
