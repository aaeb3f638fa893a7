const test = require('ava');
const { planPick } = require('../src/route');

test('walks consecutive aisles up and down', (t) => {
  t.deepEqual(planPick(['A02-B03-L1', 'A01-B08-L1', 'A01-B02-L2', 'A02-B09-L1']), [
    'A01-B02-L2',
    'A01-B08-L1',
    'A02-B09-L1',
    'A02-B03-L1',
  ]);
});

test('alternates direction per visited aisle when aisles are skipped', (t) => {
  t.deepEqual(planPick(['A04-B01-L1', 'A03-B02-L1', 'A03-B10-L1', 'A01-B05-L1', 'A04-B07-L2']), [
    'A01-B05-L1',
    'A03-B10-L1',
    'A03-B02-L1',
    'A04-B01-L1',
    'A04-B07-L2',
  ]);
});

test('picks ambient before chilled', (t) => {
  t.deepEqual(planPick(['C01-B01-L1', 'A01-B01-L1']), ['A01-B01-L1', 'C01-B01-L1']);
});
