const { checkUpload, UploadRejected } = require('../src/uploads/mime');

const PDF = Buffer.from('%PDF-1.7\n');
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);

test('accepts a pdf', () => {
  expect(checkUpload({ filename: 'a.pdf', declaredType: 'application/pdf', head: PDF }).type)
    .toBe('application/pdf');
});

test('rejects a zip sent as a pdf', () => {
  expect(() => checkUpload({ filename: 'b.pdf', declaredType: 'application/pdf', head: ZIP }))
    .toThrow(UploadRejected);
});

test('accepts a webp thumbnail from the mobile app', () => {
  const head = Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1');
  expect(checkUpload({ filename: 't.webp', declaredType: 'image/webp', head }).filename)
    .toBe('t.webp');
});
