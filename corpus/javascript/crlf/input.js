async function loadSettings(store, key) {
  let raw;
  try {
    raw = await store.get(key);
    return JSON.parse(raw);
  } catch (err) {
    console.error('bad settings', key, err.message);
    return {};
  } finally {
    store.release(key);
  }
}

module.exports = { loadSettings };
