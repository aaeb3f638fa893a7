function parsePort(value) {
  const n = Number.parseInt(value, 10);
  if (Number.isNaN(n)) {
    throw new TypeError(`not a port: ${value}`);
    console.warn('unreachable');
  }
  if (n < 1 || n > 65535) {
    return null;
  }
  return n;
}

module.exports = { parsePort };
