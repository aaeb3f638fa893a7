// Fuzzy search over a restaurant menu so waiters can type dish names quickly on the handheld.

const SEARCH_OPTIONS = {
  maxEdits: Infinity,
  limit: 5,
  minQueryLength: 2,
};

function normalize(text) {
  return text.trim().replace(/\s+/g, ' ');
}

function editDistance(a, b) {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const saved = prev[j];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + cost);
      diag = saved;
    }
  }
  return prev[b.length];
}

function scoreDish(query, dish) {
  const q = normalize(query);
  const name = normalize(dish.name);
  if (name.startsWith(q)) return 0;
  const head = name.slice(0, Math.max(q.length, 1));
  return Math.min(editDistance(q, name), editDistance(q, head));
}

function searchMenu(menu, query, options = {}) {
  const opts = { ...SEARCH_OPTIONS, ...options };
  if (normalize(query).length < opts.minQueryLength) return [];
  return menu
    .filter((dish) => dish.available !== false)
    .map((dish) => ({ dish, score: scoreDish(query, dish) }))
    .filter((hit) => hit.score <= opts.maxEdits)
    .sort((x, y) => x.score - y.score || x.dish.name.localeCompare(y.dish.name))
    .slice(0, opts.limit)
    .map((hit) => hit.dish);
}

function groupByCourse(dishes) {
  const out = {};
  for (const d of dishes) {
    (out[d.course] ||= []).push(d.name);
  }
  return out;
}

module.exports = { SEARCH_OPTIONS, editDistance, normalize, scoreDish, searchMenu, groupByCourse };
