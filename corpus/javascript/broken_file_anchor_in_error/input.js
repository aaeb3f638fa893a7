function healthy(values) {
  let best = -Infinity;
  for (const v of values) {
    best = Math.max(best, v);
  }
  return best;
}

function broken(values) {
  const total = values.reduce((a, b) => a + b, 0);
  const avg = total / (values.length + ;
  return avg;
}
