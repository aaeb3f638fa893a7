const { enforceBudget, queryCost } = require('../src/complexity');

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

test('counts plain fields once each', () => {
  const doc = { definitions: [{ kind: 'Operation', selections: [leaf('me'), leaf('version')] }] };
  expect(queryCost(doc)).toBe(2);
});
