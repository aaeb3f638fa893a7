import { BuoyFeed, ChecksumError, checksum, parseSentence, type Transport } from '../src/buoyFeed';

const batch = [
  '$BUOY,44013,20260914T0600Z,WVHT=1.8,DPD=9,WTMP=17.2*77',
  '$BUOY,44013,20260914T0700Z,WVHT=2.1,DPD=8,WTMP=17.1*7E',
  '',
  '$BUOY,44013,20260914T0800Z,WVHT=2.6,DPD=8,WTMP=17.0*77',
];

const transport = (lines: string[]): Transport => ({ fetchLines: async () => lines });

describe('sentences', () => {
  it('checksums the body between $ and *', () => {
    expect(checksum('BUOY,44013,20260914T0600Z,WVHT=1.8,DPD=9,WTMP=17.2')).toBe('77');
  });

  it('rejects a sentence whose checksum does not match', () => {
    expect(() => parseSentence('$BUOY,44013,20260914T0600Z,WVHT=1.8*00')).toThrow(ChecksumError);
  });

  it('rejects a garbled line', () => {
    expect(() => parseSentence('BUOY 44013 ???')).toThrow(SyntaxError);
  });
});

describe('BuoyFeed', () => {
  it('a clean batch keeps the buoy online', async () => {
    const feed = new BuoyFeed('44013', transport(batch), 3 * 3_600_000, () => 1_000_000);
    const result = await feed.poll();
    expect(result).toMatchObject({ station: '44013', status: 'online', polledAt: 1_000_000 });
  });

  it('goes stale when the modem stays silent', async () => {
    const feed = new BuoyFeed('44013', transport([]));
    await expect(feed.poll()).resolves.toMatchObject({ status: 'stale', readings: [] });
  });

  it('reports the highest waves', () => {
    const r = (WVHT: number) => ({ station: '44013', at: '', values: { WVHT } });
    expect(BuoyFeed.maxWaveHeight([r(1.8), r(2.6), r(2.1)])).toBe(2.6);
    expect(BuoyFeed.maxWaveHeight([])).toBeNull();
  });
});
