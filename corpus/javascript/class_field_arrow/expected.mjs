const api = {
  baseUrl: '/api',
  async get(path) {
    const res = await fetch(this.baseUrl + path);
    return res.json();
  },
  post: async function (path, body) {
    const res = await fetch(this.baseUrl + path, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    return res.json();
  },
};

class Widget {
  count = 0;

  handleClick = (event) => {
    // gsd-debug-probe:start golden-run p1
    // prettier-ignore
    try {
      const gsd$p = globalThis.process, gsd$e = gsd$p && gsd$p.env.GSD_DEBUG_PROBE_RUNTIME;
      const gsd$rt = !gsd$e ? globalThis[Symbol.for("GSDDBG1_rt1")] : (gsd$p.getBuiltinModule
        ? gsd$p.getBuiltinModule("module").createRequire("/") : require)(gsd$e + ".cjs");
      if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
      ]);
    } catch (e) {}
    // gsd-debug-probe:end golden-run p1
    event.preventDefault();
    this.count += 1;
  };

  render() {
    return `<button>${this.count}</button>`;
  }
}

class Badge {
  render() {
    return '<span class="badge"></span>';
  }
}

export { api, Widget, Badge };
