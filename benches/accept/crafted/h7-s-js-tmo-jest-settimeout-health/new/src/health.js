'use strict';

const http = require('node:http');

function probe(url, { timeoutMs = 1000 } = {}) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode >= 200 && res.statusCode < 300);
    });
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.on('error', () => resolve(false));
  });
}

async function waitForHealthy(url, options = {}) {
  const {
    deadlineMs = 3000,
    intervalMs = 100,
    probeTimeoutMs = 500,
    healthyChecks = 2,
  } = options;
  const started = Date.now();
  let consecutive = 0;
  let attempts = 0;
  while (Date.now() - started < deadlineMs) {
    attempts += 1;
    const ok = await probe(url, { timeoutMs: probeTimeoutMs });
    consecutive = ok ? consecutive + 1 : 0;
    if (consecutive >= healthyChecks) {
      return { healthy: true, attempts, elapsedMs: Date.now() - started };
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return { healthy: false, attempts, elapsedMs: Date.now() - started };
}

function startHealthServer(check, port = 0) {
  const server = http.createServer(async (req, res) => {
    if (req.url !== '/healthz') {
      res.writeHead(404).end();
      return;
    }
    let ok = false;
    try {
      ok = await check();
    } catch (err) {
      ok = false;
    }
    res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'unavailable');
  });
  return new Promise((resolve) => server.listen(port, () => resolve(server)));
}

module.exports = { probe, waitForHealthy, startHealthServer };
