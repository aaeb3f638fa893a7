const EARTH_RADIUS_KM = 6371;

const toRad = deg => (deg * Math.PI) / 180;

function haversineKm(a, b) {
  const dLat = toRad(b.lat - a.lat);
  const dLon = toRad(b.lon - a.lon);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

function withTimeout(promise, ms, what) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

async function locateStops(stops, geocoder, timeout) {
  return Promise.all(
    stops.map(async stop => {
      if (stop.lat != null && stop.lon != null) return stop;
      const pos = await withTimeout(geocoder.lookup(stop.address), timeout, `geocoding ${stop.id}`);
      if (!pos) throw new Error(`no position for stop ${stop.id}`);
      return { ...stop, lat: pos.lat, lon: pos.lon };
    })
  );
}

// Greedy nearest-neighbour: good enough for a van with a dozen drops.
function orderStops(depot, stops) {
  const left = stops.slice();
  const ordered = [];
  let here = depot;
  let km = 0;
  while (left.length) {
    let best = 0;
    for (let i = 1; i < left.length; i++) {
      if (haversineKm(here, left[i]) < haversineKm(here, left[best])) best = i;
    }
    const [next] = left.splice(best, 1);
    km += haversineKm(here, next);
    ordered.push(next);
    here = next;
  }
  km += haversineKm(here, depot);
  return { ordered, km };
}

async function planRoute(depot, stops, { geocoder, maxStops = 18, maxKm = 240, timeout = 2500 } = {}) {
  if (stops.length > maxStops) {
    throw new RangeError(`${stops.length} stops, a van takes at most ${maxStops}`);
  }
  const located = await locateStops(stops, geocoder, timeout);
  const { ordered, km } = orderStops(depot, located);
  if (km > maxKm) {
    throw new RangeError(`route is ${km.toFixed(1)} km, over the ${maxKm} km limit`);
  }
  return {
    stops: ordered.map(s => s.id),
    km: Math.round(km * 10) / 10,
  };
}

module.exports = { haversineKm, orderStops, planRoute };
