const { enforceBudget } = require('../src/complexity');

const list = (name, first, selections) => ({
  kind: 'Field', name, list: true, arguments: [{ name: 'first', value: first }], selections,
});
const leaf = (name) => ({ kind: 'Field', name });

test('dashboard query fits the budget', () => {
  const doc = {
    definitions: [{
      kind: 'Operation',
      selections: [list('projects', 50, [leaf('id'), list('members', 100, [leaf('name')])])],
    }],
  };
  expect(enforceBudget(doc)).toBeGreaterThan(0);
});

test('rejects an absurd nesting', () => {
  const doc = {
    definitions: [{
      kind: 'Operation',
      selections: [list('a', 100, [list('b', 100, [list('c', 100, [leaf('x')])])])],
    }],
  };
  expect(() => enforceBudget(doc)).toThrow(/exceeds/);
});
