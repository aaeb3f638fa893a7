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
      // gsd-debug-probe:start golden-run p1
      // prettier-ignore
      try {
        const gsd$p = globalThis.process, gsd$e = gsd$p && gsd$p.env.GSD_DEBUG_PROBE_RUNTIME;
        const gsd$rt = !gsd$e ? globalThis[Symbol.for("GSDDBG1_rt1")] : (gsd$p.getBuiltinModule
          ? gsd$p.getBuiltinModule("module").createRequire("/") : require)(gsd$e + ".cjs");
        if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
          ["size", page.length],
        ]);
      } catch (e) {}
      // gsd-debug-probe:end golden-run p1
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

module.exports = { fetchAll, paginate };
