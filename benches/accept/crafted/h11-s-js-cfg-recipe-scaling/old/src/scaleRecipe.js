// Scales a recipe to a new yield and converts awkward quantities to friendlier units.

const UNIT_STEPS = {
  tsp: { up: 'tbsp', factor: 3 },
  tbsp: { up: 'cup', factor: 16 },
  g: { up: 'kg', factor: 1000 },
  ml: { up: 'l', factor: 1000 },
};

const FRACTIONS = [
  [0, ''], [0.125, '⅛'], [0.25, '¼'], [0.333, '⅓'], [0.5, '½'], [0.667, '⅔'], [0.75, '¾'], [1, ''],
];

function roundToFraction(x) {
  const whole = Math.floor(x);
  const rest = x - whole;
  let best = FRACTIONS[0];
  for (const f of FRACTIONS) {
    if (Math.abs(f[0] - rest) < Math.abs(best[0] - rest)) best = f;
  }
  if (best[0] === 1) return String(whole + 1);
  if (!best[1]) return String(whole);
  return whole ? `${whole} ${best[1]}` : best[1];
}

function promote(qty, unit) {
  let q = qty;
  let u = unit;
  while (UNIT_STEPS[u] && q >= UNIT_STEPS[u].factor) {
    q /= UNIT_STEPS[u].factor;
    u = UNIT_STEPS[u].up;
  }
  return { qty: q, unit: u };
}

function scaleIngredient(ing, ratio) {
  if (ing.toTaste) return { ...ing };
  const scaled = ing.qty * ratio;
  const { qty, unit } = promote(scaled, ing.unit);
  return { ...ing, qty, unit };
}

function scaleRecipe(recipe, servings) {
  if (!(servings > 0)) throw new RangeError('servings must be positive');
  const ratio = recipe.servings / servings;
  return {
    ...recipe,
    servings,
    ingredients: recipe.ingredients.map((ing) => scaleIngredient(ing, ratio)),
  };
}

function formatIngredient(ing) {
  if (ing.toTaste) return `${ing.name}, to taste`;
  const unit = ing.unit === 'each' ? '' : ` ${ing.unit}`;
  return `${roundToFraction(ing.qty)}${unit} ${ing.name}`;
}

module.exports = { scaleRecipe, scaleIngredient, promote, roundToFraction, formatIngredient };
