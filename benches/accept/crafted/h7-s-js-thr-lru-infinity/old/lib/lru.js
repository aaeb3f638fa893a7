'use strict';

/**
 * A least-recently-used cache with an entry limit and an optional TTL.
 * Map keeps insertion order, so re-inserting on access moves a key to the end.
 */
class LRUCache {
  constructor({ maxEntries = 500, ttlMs = 0, now = Date.now, onEvict } = {}) {
    if (!(maxEntries > 0)) throw new RangeError('maxEntries must be positive');
    this.maxEntries = maxEntries;
    this.ttlMs = ttlMs;
    this.now = now;
    this.onEvict = onEvict;
    this.map = new Map();
    this.hits = 0;
    this.misses = 0;
  }

  get size() {
    return this.map.size;
  }

  _expired(entry) {
    return this.ttlMs > 0 && this.now() - entry.storedAt > this.ttlMs;
  }

  get(key) {
    const entry = this.map.get(key);
    if (!entry || this._expired(entry)) {
      if (entry) this.map.delete(key);
      this.misses += 1;
      return undefined;
    }
    this.map.delete(key);
    this.map.set(key, entry);
    this.hits += 1;
    return entry.value;
  }

  set(key, value) {
    if (this.map.has(key)) this.map.delete(key);
    this.map.set(key, { value, storedAt: this.now() });
    while (this.map.size > this.maxEntries) {
      const [oldestKey, oldest] = this.map.entries().next().value;
      this.map.delete(oldestKey);
      if (this.onEvict) this.onEvict(oldestKey, oldest.value);
    }
    return this;
  }

  delete(key) {
    return this.map.delete(key);
  }

  clear() {
    this.map.clear();
  }

  stats() {
    const total = this.hits + this.misses;
    return { hits: this.hits, misses: this.misses, hitRate: total ? this.hits / total : 0 };
  }
}

function memoize(fn, options) {
  const cache = new LRUCache(options);
  return function memoized(arg) {
    const cached = cache.get(arg);
    if (cached !== undefined) return cached;
    const value = fn.call(this, arg);
    cache.set(arg, value);
    return value;
  };
}

module.exports = { LRUCache, memoize };
