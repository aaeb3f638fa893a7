async function fetchAll(urls, fetchImpl) {
	const results = [];
	for (const url of urls) {
		const res = await fetchImpl(url);
		if (!res.ok) {
			throw new Error(`HTTP ${res.status} for ${url}`);
		}
		// gsd-debug-probe:start golden-run p1
		// prettier-ignore
		try {
			let gsd$p = globalThis, gsd$m = gsd$p.__GSDDBG1_rt1, gsd$f;
			if (!gsd$m) gsd$p = Object.defineProperty(gsd$p, "__GSDDBG1_rt1", { configurable: true, value:
				gsd$m = new gsd$p.Map() }).process, (gsd$f = gsd$p.env.GSD_DEBUG_PROBE_RUNTIME) && (gsd$p
				.getBuiltinModule || require)("module").createRequire("/")(gsd$f + ".cjs").into(gsd$m);
			if (gsd$m.size && (gsd$f = gsd$m.get("gsd-debug-probe/golden-run/p1"))) gsd$f(() => [
			]);
		} catch (e) {}
		// gsd-debug-probe:end golden-run p1
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
