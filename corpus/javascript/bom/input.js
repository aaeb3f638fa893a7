function makeCounter(start) {
  let count = start;
  function increment(step) {
    count += step;
    return count;
  }
  function reset() {
    count = start;
  }
  return { increment, reset };
}

module.exports = { makeCounter };
