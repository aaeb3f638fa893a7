const cache = new Map();

function load(key, compute) {
  if (cache.has(key)) {
    return cache.get(key);
  }
  // gsd-debug-probe:start cache-miss p1
  console.error('cache-miss p1 reached');
  // gsd-debug-probe:end cache-miss p1
  const value = compute(key);
  cache.set(key, value);
  return value;
}

function evict(key) {
  const had = cache.delete(key);
  return had;
}

module.exports = { load, evict };
