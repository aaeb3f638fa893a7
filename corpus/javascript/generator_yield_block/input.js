async function fetchAll(urls, fetchImpl) {
  const results = [];
  for (const url of urls) {
    const res = await fetchImpl(url);
    if (!res.ok) {
      throw new Error(`HTTP ${res.status} for ${url}`);
    }
    results.push(await res.json());
  }
  return results;
}

function* paginate(items, size) {
  let page = [];
  for (const item of items) {
    page.push(item);
    if (page.length === size) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

module.exports = { fetchAll, paginate };
