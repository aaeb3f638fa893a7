const cache = new Map<string, unknown>();

export function load<T>(key: string, compute: (k: string) => T): T {
  if (cache.has(key)) {
    return cache.get(key) as T;
  }
  // gsd-debug-probe:start cache-miss p1
  console.error('cache-miss p1 reached');
  // gsd-debug-probe:end cache-miss p1
  const value = compute(key);
  cache.set(key, value);
  return value;
}

export function evict(key: string): boolean {
  const had = cache.delete(key);
  return had;
}
