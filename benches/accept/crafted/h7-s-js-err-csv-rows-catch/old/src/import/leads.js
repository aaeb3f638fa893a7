'use strict';

const fs = require('node:fs/promises');

const REQUIRED = ['company', 'email'];

class ImportError extends Error {
  constructor(message, line) {
    super(line ? `line ${line}: ${message}` : message);
    this.name = 'ImportError';
    this.line = line;
  }
}

function splitLine(line) {
  const cells = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { current += '"'; i += 1; }
      else if (ch === '"') quoted = false;
      else current += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { cells.push(current); current = ''; }
    else current += ch;
  }
  if (quoted) throw new ImportError('unterminated quote');
  cells.push(current);
  return cells;
}

function parseCsv(text) {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new ImportError('empty file');
  const header = splitLine(lines[0]).map((h) => h.trim().toLowerCase());
  for (const column of REQUIRED) {
    if (!header.includes(column)) throw new ImportError(`missing column ${column}`, 1);
  }
  return lines.slice(1).map((line, index) => {
    let cells;
    try {
      cells = splitLine(line);
    } catch (err) {
      throw new ImportError(err.message, index + 2);
    }
    if (cells.length !== header.length) {
      throw new ImportError(`expected ${header.length} cells, got ${cells.length}`, index + 2);
    }
    return Object.fromEntries(header.map((h, i) => [h, cells[i].trim()]));
  });
}

function readRows(path) {
  return fs.readFile(path, 'utf8').then(parseCsv);
}

async function importLeads(path, repo) {
  const rows = await readRows(path);
  let created = 0;
  let skipped = 0;
  for (const row of rows) {
    const existing = await repo.findByEmail(row.email.toLowerCase());
    if (existing) {
      skipped += 1;
      continue;
    }
    await repo.create({ company: row.company, email: row.email.toLowerCase(), source: 'csv' });
    created += 1;
  }
  return { created, skipped, total: rows.length };
}

module.exports = { importLeads, parseCsv, readRows, ImportError };
