const { whatsNew } = require('../lib/changelog');

const MD = `# Changelog

## [2.4.0] - 2027-02-01
- Dark mode
## [2.3.1] - 2027-01-10
- Fix export
`;

test('lists releases after the last seen one', async () => {
  const out = await whatsNew('https://docs.example/CHANGELOG.md', '2.3.1', async () => MD);
  expect(out.map((r) => r.version)).toEqual(['2.4.0']);
});

test('preview builds get the preview changelog', async () => {
  const fetcher = async (url) => {
    if (url.includes('/preview/')) throw new Error('GET ' + url + ': 404');
    return MD;
  };
  const out = await whatsNew('https://docs.example/preview/CHANGELOG.md', null, fetcher);
  expect(out).toEqual([]);
});
