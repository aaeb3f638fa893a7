import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManifestUploader, type ManifestRecord, type PortApi } from '../src/manifestUploader.ts';

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Behaves like the authority's sandbox: ~25 ms per request, stores records by id.
function fakePortApi(opts: { failFirst?: number } = {}) {
  const stored = new Map<string, ManifestRecord>();
  let calls = 0;
  const api: PortApi = {
    async submit(_sailing, records) {
      calls += 1;
      await delay(25);
      if (calls <= (opts.failFirst ?? 0)) throw new Error('503 Service Unavailable');
      let fresh = 0;
      for (const r of records) {
        if (!stored.has(r.id)) fresh += 1;
        stored.set(r.id, r);
      }
      return { accepted: fresh };
    },
  };
  return { api, stored };
}

const manifest = (n: number): ManifestRecord[] =>
  Array.from({ length: n }, (_, i) =>
    i % 4 === 3
      ? { id: `V${i}`, kind: 'vehicle', name: `REG${1000 + i}`, deck: 'C' }
      : { id: `P${i}`, kind: 'passenger', name: `Passenger ${i}` });

test('uploads the whole manifest before departure', { timeout: 1000 }, async () => {
  const { api, stored } = fakePortApi();
  const result = await new ManifestUploader(api, { batchSize: 50 }).upload('ROS-0715', manifest(180));
  assert.equal(result.status, 'complete');
  assert.equal(result.accepted, 180);
  assert.equal(stored.size, 180);
});

test('retries a batch the authority rejected', { timeout: 1000 }, async () => {
  const { api, stored } = fakePortApi({ failFirst: 1 });
  const result = await new ManifestUploader(api, { batchSize: 25 }).upload('ROS-0715', manifest(20));
  assert.equal(result.status, 'complete');
  assert.equal(stored.size, 20);
});

test('refuses vehicles without a deck', async () => {
  const { api } = fakePortApi();
  const bad: ManifestRecord[] = [{ id: 'V1', kind: 'vehicle', name: 'AB12 CDE' }];
  await assert.rejects(new ManifestUploader(api).upload('ROS-0715', bad), /no deck/);
});
