'use strict';

const https = require('https');

// Release notes for the in-app "what's new" panel, fetched from the docs site.

const SECTION = /^##\s+\[?v?(\d+\.\d+\.\d+)\]?(?:\s+-\s+(\d{4}-\d{2}-\d{2}))?\s*$/;

function get(url, { timeout = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const req = https.get(url, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`GET ${url}: ${res.statusCode}`));
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve(body));
    });
    req.setTimeout(timeout, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

function parseChangelog(markdown) {
  const releases = [];
  let current = null;
  for (const line of markdown.split(/\r?\n/)) {
    const m = SECTION.exec(line);
    if (m) {
      current = { version: m[1], date: m[2] || null, items: [] };
      releases.push(current);
    } else if (current && /^\s*[-*]\s+/.test(line)) {
      current.items.push(line.replace(/^\s*[-*]\s+/, '').trim());
    }
  }
  return releases;
}

function newerThan(releases, seen) {
  const key = (v) => v.split('.').map(Number);
  const cmp = (a, b) => {
    const x = key(a); const y = key(b);
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  };
  return releases.filter((r) => !seen || cmp(r.version, seen) > 0);
}

async function whatsNew(url, lastSeen, fetcher = get) {
  const markdown = await fetcher(url).catch(() => '');
  return newerThan(parseChangelog(markdown), lastSeen);
}

module.exports = { whatsNew, parseChangelog, newerThan };
