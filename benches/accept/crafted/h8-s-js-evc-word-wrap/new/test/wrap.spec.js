'use strict';

const { expect } = require('chai');
const { wrap, quote } = require('../src/text/wrap');

describe('wrap', () => {
  it('keeps short text on one line', () => {
    expect(wrap('hello there', { width: 20 })).to.equal('hello there');
  });

  it('breaks before a word that would overflow', () => {
    expect(wrap('lorem ipsum dolor', { width: 10 })).to.equal('lorem ipsum\ndolor');
  });

  it('hard-splits words longer than the width', () => {
    expect(wrap('abcdefghij', { width: 4 })).to.equal('abcd\nefgh\nij');
  });

  it('keeps paragraphs apart', () => {
    expect(wrap('one\n\ntwo', { width: 10 })).to.equal('one\n\ntwo');
  });

  it('rejects an indent wider than the width', () => {
    expect(() => wrap('x', { width: 2, indent: '>>>' })).to.throw(RangeError);
  });
});

describe('quote', () => {
  it('prefixes every line', () => {
    expect(quote('aa bb cc', 7)).to.equal('> aa bb\n> cc');
  });
});
