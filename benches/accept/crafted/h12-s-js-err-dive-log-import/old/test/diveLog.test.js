import assert from 'node:assert/strict';
import { importDiveLog, parseDuration, summary } from '../src/diveLog.js';

const metricLog = [
  '#units depth=m temp=C',
  'date,site,maxDepth,duration,waterTemp',
  '2026-06-02,Blue Hole,18.4,42:30,24',
  '2026-06-02,Coral Garden,12.0,55:10,25',
];

const imperialLog = [
  '#units depth=ft temp=F',
  'date,site,maxDepth,duration,waterTemp',
  '2026-08-14,Wreck of the Thistle,96,38:00,61',
  '2026-08-14,Kelp Forest,45,51:45,',
  '2026-08-15,Seal Rock,60,47:20,59',
];

describe('parseDuration', () => {
  it('reads mm:ss', () => {
    assert.equal(parseDuration('42:30'), 42.5);
  });

  it('rejects garbage', () => {
    assert.throws(() => parseDuration('soon'), /bad duration/);
  });
});

describe('importDiveLog', () => {
  it('imports a metric log', async () => {
    const dives = await importDiveLog(metricLog);
    assert.deepEqual(dives[0], {
      date: '2026-06-02', site: 'Blue Hole', maxDepthM: 18.4, minutes: 43, waterTempC: 24,
    });
    assert.deepEqual(summary(dives), { dives: 2, bottomTimeMin: 98, deepestM: 18.4 });
  });

  it('imports a log from a computer set to feet', async () => {
    const dives = await importDiveLog(imperialLog);
    assert.deepEqual(dives.map((d) => d.site), ['Wreck of the Thistle', 'Kelp Forest', 'Seal Rock']);
    assert.equal(summary(dives).bottomTimeMin, 137);
    assert.equal(dives[1].waterTempC, null);
  });

  it('reports the line of a malformed row', async () => {
    await assert.rejects(importDiveLog([...metricLog, '2026-06-03,Drop Off,22']), /line 5/);
  });
});
