export function healthy(values: number[]): number {
  let best = -Infinity;
  for (const v of values) {
    best = Math.max(best, v);
  }
  return best;
}

export function broken(values: number[]): number {
  const total: number = values.reduce((a, b) => a + b, 0);
  const avg: number = total / (values.length + ;
  return avg;
}
