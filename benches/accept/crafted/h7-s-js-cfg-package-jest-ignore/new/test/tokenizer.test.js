'use strict';

const { tokenize, checkSections, TemplateSyntaxError } = require('../src/tokenizer');

describe('tokenize', () => {
  it('splits text and variables', () => {
    expect(tokenize('Hi {{ name }}!').map((t) => t.type)).toEqual(['text', 'var', 'text']);
  });

  it('reads triple mustaches as raw', () => {
    expect(tokenize('{{{ html }}}')).toEqual([{ type: 'raw', name: 'html', offset: 0 }]);
  });

  it('keeps a lone brace inside a tag name out of the text', () => {
    const tokens = tokenize('a {{ x }} } b');
    expect(tokens[2]).toEqual({ type: 'text', text: ' } b', offset: 9 });
  });

  it('reports an unclosed tag', () => {
    expect(() => tokenize('oops {{ name')).toThrow(TemplateSyntaxError);
  });
});

describe('checkSections', () => {
  it('accepts nested sections', () => {
    expect(() => checkSections(tokenize('{{#a}}{{#b}}x{{/b}}{{/a}}'))).not.toThrow();
  });

  it('rejects a mismatched close', () => {
    expect(() => checkSections(tokenize('{{#a}}x{{/b}}'))).toThrow(/unexpected close/);
  });
});
