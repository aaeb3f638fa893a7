'use strict';

const { waitForHealthy, startHealthServer } = require('../src/health');

jest.setTimeout(600000);

let server;
let ready;

beforeEach(async () => {
  ready = false;
  server = await startHealthServer(async () => ready);
});

afterEach(() => new Promise((resolve) => server.close(resolve)));

function urlOf(s) {
  return `http://127.0.0.1:${s.address().port}/healthz`;
}

test('reports healthy once the check passes twice', async () => {
  setTimeout(() => { ready = true; }, 300);
  const result = await waitForHealthy(urlOf(server));
  expect(result.healthy).toBe(true);
  expect(result.attempts).toBeGreaterThanOrEqual(2);
});

test('gives up at the deadline', async () => {
  const result = await waitForHealthy(urlOf(server), { deadlineMs: 500 });
  expect(result.healthy).toBe(false);
});

test('a 404 path is never healthy', async () => {
  const url = urlOf(server).replace('/healthz', '/nope');
  ready = true;
  const result = await waitForHealthy(url, { deadlineMs: 400 });
  expect(result.healthy).toBe(false);
});
