'use strict';

// Cost analysis for incoming GraphQL documents (already parsed to a plain AST).
// Each field costs 1, list fields multiply their children by the `first` argument.

const MAX_COST = 5000;
const DEFAULT_PAGE = 20;

class QueryTooExpensive extends Error {
  constructor(cost, max) {
    super(`query cost ${cost} exceeds ${max}`);
    this.cost = cost;
    this.max = max;
  }
}

function argValue(field, name) {
  const arg = (field.arguments || []).find((a) => a.name === name);
  return arg ? Number(arg.value) : undefined;
}

function fieldCost(field, fragments, seen) {
  if (field.kind === 'FragmentSpread') {
    if (seen.has(field.name)) return 0;
    seen.add(field.name);
    const frag = fragments[field.name];
    const c = frag ? selectionCost(frag.selections, fragments, seen) : 0;
    seen.delete(field.name);
    return c;
  }
  const children = field.selections ? selectionCost(field.selections, fragments, seen) : 0;
  if (field.list) {
    const page = argValue(field, 'first') ?? DEFAULT_PAGE;
    return 1 + page * children;
  }
  return 1 + children;
}

function selectionCost(selections, fragments, seen) {
  let total = 0;
  for (const f of selections) total += fieldCost(f, fragments, seen);
  return total;
}

function queryCost(doc) {
  const fragments = {};
  for (const def of doc.definitions) {
    if (def.kind === 'Fragment') fragments[def.name] = def;
  }
  const op = doc.definitions.find((d) => d.kind === 'Operation');
  if (!op) return 0;
  return selectionCost(op.selections, fragments, new Set());
}

function enforceBudget(doc, max = MAX_COST) {
  const cost = queryCost(doc);
  if (cost > max) throw new QueryTooExpensive(cost, max);
  return cost;
}

module.exports = { queryCost, enforceBudget, QueryTooExpensive, MAX_COST };
