const assert = require('assert');
const { editDistance, searchMenu } = require('../src/menuSearch');

const menu = [
  { name: 'Crème Brûlée', course: 'dessert' },
  { name: 'Crab Cakes', course: 'starter' },
  { name: 'Caesar Salad', course: 'starter' },
  { name: 'Carbonara', course: 'main' },
  { name: 'Tiramisu', course: 'dessert', available: false },
];

describe('menu search', function () {
  it('computes edit distance', function () {
    assert.strictEqual(editDistance('kitten', 'sitting'), 3);
  });

  it('ranks a prefix match first', function () {
    assert.strictEqual(searchMenu(menu, 'Carb')[0].name, 'Carbonara');
  });

  it('ignores case and accents the waiter did not type', function () {
    const names = searchMenu(menu, 'creme brulee').map((d) => d.name);
    assert.strictEqual(names[0], 'Crème Brûlée');
  });

  it('hides unavailable dishes', function () {
    const names = searchMenu(menu, 'Tiramisu').map((d) => d.name);
    assert.ok(!names.includes('Tiramisu'));
  });
});
