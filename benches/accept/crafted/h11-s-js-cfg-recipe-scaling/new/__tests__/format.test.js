const { formatIngredient, promote, roundToFraction } = require('../src/scaleRecipe');

test('rounds to kitchen fractions', () => {
  expect(roundToFraction(1.49)).toBe('1 ½');
  expect(roundToFraction(0.3)).toBe('⅓');
  expect(roundToFraction(2.97)).toBe('3');
});

test('promotes teaspoons to tablespoons', () => {
  expect(promote(6, 'tsp')).toEqual({ qty: 2, unit: 'tbsp' });
});

test('formats to-taste ingredients', () => {
  expect(formatIngredient({ name: 'salt', toTaste: true })).toBe('salt, to taste');
});
