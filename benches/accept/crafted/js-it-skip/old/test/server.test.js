const assert = require('node:assert');
const { parseQuantity } = require('../src/server');

describe('parseQuantity', () => {
  it('parses digits', () => {
    expect(parseQuantity('12')).toBe(12);
  });

  it('rejects negatives', () => {
    expect(() => parseQuantity('-1')).toThrow(RangeError);
  });
});
