'use strict';

class GeocodeError extends Error {
  constructor(status, message) {
    super(message);
    this.name = 'GeocodeError';
    this.status = status;
  }
}

const cache = new Map();
const CACHE_LIMIT = 1000;

function normalizeAddress(address) {
  return address.trim().replace(/\s+/g, ' ').toLowerCase();
}

async function request(http, address) {
  const url = `/v1/geocode?q=${encodeURIComponent(address)}`;
  const response = await http.get(url);
  if (response.status !== 200) {
    throw new GeocodeError(response.status, `geocoder answered ${response.status}`);
  }
  const [best] = response.body.results;
  if (!best) return null;
  return { lat: best.lat, lon: best.lon, precision: best.precision || 'street' };
}

/**
 * Resolve an address to coordinates; null when the provider knows no such
 * address. Results (including misses) are cached by normalized address.
 */
async function geocode(http, address) {
  const key = normalizeAddress(address);
  if (key === '') return null;
  if (cache.has(key)) return cache.get(key);
  const result = await request(http, key);
  if (cache.size >= CACHE_LIMIT) {
    cache.delete(cache.keys().next().value);
  }
  cache.set(key, result);
  return result;
}

async function enrichOrders(http, orders) {
  const out = [];
  for (const order of orders) {
    const location = await geocode(http, order.shippingAddress);
    out.push({ ...order, location, needsReview: location === null });
  }
  return out;
}

module.exports = { geocode, enrichOrders, GeocodeError, normalizeAddress, _cache: cache };
