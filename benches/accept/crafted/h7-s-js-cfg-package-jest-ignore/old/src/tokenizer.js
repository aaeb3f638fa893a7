'use strict';

const OPEN = '{{';
const CLOSE = '}}';

class TemplateSyntaxError extends Error {
  constructor(message, offset) {
    super(`${message} at offset ${offset}`);
    this.name = 'TemplateSyntaxError';
    this.offset = offset;
  }
}

function classify(inner, offset) {
  const body = inner.trim();
  if (body === '') throw new TemplateSyntaxError('empty tag', offset);
  const sigil = body[0];
  const name = body.slice(1).trim();
  switch (sigil) {
    case '#': return { type: 'section', name, offset };
    case '^': return { type: 'inverted', name, offset };
    case '/': return { type: 'close', name, offset };
    case '!': return { type: 'comment', text: name, offset };
    case '&': return { type: 'raw', name, offset };
    default: return { type: 'var', name: body, offset };
  }
}

function tokenize(source) {
  const tokens = [];
  let pos = 0;
  while (pos < source.length) {
    const open = source.indexOf(OPEN, pos);
    if (open === -1) {
      tokens.push({ type: 'text', text: source.slice(pos), offset: pos });
      break;
    }
    if (open > pos) {
      tokens.push({ type: 'text', text: source.slice(pos, open), offset: pos });
    }
    const triple = source.startsWith('{{{', open);
    const closer = triple ? '}}}' : CLOSE;
    const start = open + (triple ? 3 : 2);
    const close = source.indexOf(closer, start);
    if (close === -1) throw new TemplateSyntaxError('unclosed tag', open);
    const inner = source.slice(start, close);
    tokens.push(triple ? { type: 'raw', name: inner.trim(), offset: open } : classify(inner, open));
    pos = close + closer.length;
  }
  return tokens;
}

function checkSections(tokens) {
  const stack = [];
  for (const token of tokens) {
    if (token.type === 'section' || token.type === 'inverted') stack.push(token);
    if (token.type === 'close') {
      const top = stack.pop();
      if (!top || top.name !== token.name) {
        throw new TemplateSyntaxError(`unexpected close of ${token.name}`, token.offset);
      }
    }
  }
  if (stack.length) throw new TemplateSyntaxError(`unclosed section ${stack[0].name}`, stack[0].offset);
  return tokens;
}

module.exports = { tokenize, checkSections, TemplateSyntaxError };
