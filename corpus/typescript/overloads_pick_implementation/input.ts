export function format(value: number): string;
export function format(value: Date): string;
export function format(value: number | Date): string {
  if (typeof value === 'number') {
    return value.toFixed(2);
  }
  return value.toISOString();
}

export const groupBy = <T, K extends string>(xs: T[], key: (x: T) => K): Record<K, T[]> => {
  const out = {} as Record<K, T[]>;
  for (const x of xs) {
    (out[key(x)] ??= []).push(x);
  }
  return out;
};
