const http = require('http');
const { loadConfig } = require('./config');

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
module.exports = server;