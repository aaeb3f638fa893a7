const { scaleRecipe, formatIngredient } = require('../src/scaleRecipe');

const pancakes = {
  name: 'pancakes',
  servings: 4,
  ingredients: [
    { name: 'flour', qty: 250, unit: 'g' },
    { name: 'milk', qty: 300, unit: 'ml' },
    { name: 'eggs', qty: 2, unit: 'each' },
    { name: 'sugar', qty: 2, unit: 'tbsp' },
  ],
};

describe('scaleRecipe', () => {
  test('doubling a recipe doubles every quantity', () => {
    const doubled = scaleRecipe(pancakes, 8);
    expect(doubled.ingredients.map(formatIngredient)).toEqual(['500 g flour', '600 ml milk', '4 eggs', '4 tbsp sugar']);
  });

  test('halving', () => {
    const half = scaleRecipe(pancakes, 2);
    expect(half.ingredients[2].qty).toBe(1);
  });

  test('rejects zero servings', () => {
    expect(() => scaleRecipe(pancakes, 0)).toThrow(RangeError);
  });
});
