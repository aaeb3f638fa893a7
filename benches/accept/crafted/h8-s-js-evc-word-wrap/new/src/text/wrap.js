'use strict';

/**
 * Greedy word wrap for plain-text e-mails and terminal output.
 * Lines never exceed `width` characters unless a single word is longer,
 * in which case the word is hard-split.
 */
function splitLongWord(word, width) {
  const parts = [];
  for (let i = 0; i < word.length; i += width) {
    parts.push(word.slice(i, i + width));
  }
  return parts;
}

function wrapParagraph(paragraph, width) {
  const words = paragraph.split(/\s+/).filter(Boolean);
  const lines = [];
  let line = '';
  for (const raw of words) {
    const pieces = raw.length > width ? splitLongWord(raw, width) : [raw];
    for (const word of pieces) {
      if (line === '') {
        line = word;
      } else if (line.length + 1 + word.length <= width + 1) {
        line += ' ' + word;
      } else {
        lines.push(line);
        line = word;
      }
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function wrap(text, options = {}) {
  const width = options.width || 72;
  const indent = options.indent || '';
  if (width <= indent.length) {
    throw new RangeError('width must be larger than the indent');
  }
  const inner = width - indent.length;
  return text
    .split(/\n{2,}/)
    .map((p) => wrapParagraph(p, inner).map((l) => indent + l).join('\n'))
    .join('\n\n');
}

function quote(text, width = 72) {
  return wrap(text, { width, indent: '> ' });
}

module.exports = { wrap, quote, wrapParagraph };
