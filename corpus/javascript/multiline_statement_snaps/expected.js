const http = require('http');
const { loadConfig } = require('./config');

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
const config = loadConfig({
  path: process.env.APP_CONFIG,
  defaults: { port: 8080, host: '127.0.0.1' },
});

const server = http.createServer((req, res) => {
  const started = Date.now();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ path: req.url, ms: Date.now() - started }));
});

server.listen(config.port, config.host, () => {
  console.log(`listening on ${config.host}:${config.port}`);
});
module.exports = server;
