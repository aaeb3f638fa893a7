const { parseHex, contrast, readableOn, mix } = require('../lib/colour');

describe('colour', () => {
  test('parses six-digit hex', () => {
    expect(parseHex('#336699')).toEqual({ r: 0x33, g: 0x66, b: 0x99 });
  });

  test('expands the short form', () => {
    expect(parseHex('#fa3')).toEqual({ r: 0xf0, g: 0xa0, b: 0x30 });
  });

  test('black on white is 21:1', () => {
    expect(contrast('#000000', '#ffffff')).toBe(21);
  });

  test('picks white text on navy', () => {
    expect(readableOn('#001f3f')).toBe('#ffffff');
  });

  test('mixes halfway', () => {
    expect(mix('#000000', '#ffffff')).toBe('#808080');
  });
});
