'use strict';

const ALIGN = { left: ':---', right: '---:', center: ':---:', none: '---' };

function cellText(value) {
  if (value === null || value === undefined) return '';
  return String(value).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function width(text) {
  return text.length;
}

function pad(text, size, align) {
  const gap = size - width(text);
  if (gap <= 0) return text;
  if (align === 'right') return ' '.repeat(gap) + text;
  if (align === 'center') {
    const left = Math.floor(gap / 2);
    return ' '.repeat(left) + text + ' '.repeat(gap - left);
  }
  return text + ' '.repeat(gap);
}

/**
 * Render rows of objects as a GitHub-flavoured Markdown table with the
 * columns padded to equal width.
 */
function renderTable(rows, columns, options = {}) {
  if (!Array.isArray(columns) || columns.length === 0) {
    throw new Error('renderTable needs at least one column');
  }
  const align = options.align || {};
  const header = columns.map((c) => cellText(c.title ?? c.key));
  const body = rows.map((row) => columns.map((c) => cellText(row[c.key])));
  const widths = columns.map((c, i) =>
    Math.max(3, width(header[i]), ...body.map((cells) => width(cells[i]))),
  );
  const line = (cells) =>
    '| ' + cells.map((cell, i) => pad(cell, widths[i], align[columns[i].key])).join(' | ') + ' |';
  const rule = '| ' + columns.map((c, i) => {
    const marker = ALIGN[align[c.key] || 'none'];
    const fill = '-'.repeat(Math.max(0, widths[i] - marker.length));
    if (marker.startsWith(':') && marker.endsWith(':')) return ':' + fill + marker.slice(1);
    return marker.endsWith(':') ? fill + marker : marker + fill;
  }).join(' | ') + ' |';
  return [line(header), rule, ...body.map(line)].join('\n');
}

module.exports = { renderTable, cellText };
