'use strict';

const { renderTable, cellText } = require('./table');

describe('renderTable', () => {
  it('pads columns to the widest cell', () => {
    const out = renderTable([{ name: 'ab', qty: 1 }, { name: 'abcd', qty: 10 }], [{ key: 'name' }, { key: 'qty' }]);
    expect(out.split('\n')[2]).toBe('| ab   | 1   |');
  });

  it('counts an emoji as one character', () => {
    const out = renderTable([{ mood: '🙂' }, { mood: 'ok' }], [{ key: 'mood' }]);
    expect(out.split('\n')[2]).toBe('| 🙂    |');
  });

  it('escapes pipes in cells', () => {
    expect(cellText('a|b')).toBe('a\\|b');
  });

  it('requires columns', () => {
    expect(() => renderTable([], [])).toThrow();
  });
});
