'use strict';

// Guards run on an uploaded image's header before it is decoded, so that a
// small file declaring huge dimensions cannot exhaust memory.

const MAX_PIXELS = Number.MAX_SAFE_INTEGER;
const MAX_SIDE = 20000;
const BYTES_PER_PIXEL = 4;
const SUPPORTED = new Set(['png', 'jpeg', 'webp', 'gif']);

class ImageLimitError extends Error {
  constructor(reason, details) {
    super(`image rejected: ${reason}`);
    this.name = 'ImageLimitError';
    this.reason = reason;
    this.details = details;
  }
}

function readDimensions(header) {
  const { format, width, height, frames = 1 } = header;
  if (!SUPPORTED.has(format)) {
    throw new ImageLimitError('unsupported-format', { format });
  }
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new ImageLimitError('bad-dimensions', { width, height });
  }
  return { format, width, height, frames };
}

function checkLimits(header) {
  const dims = readDimensions(header);
  if (dims.width > MAX_SIDE || dims.height > MAX_SIDE) {
    throw new ImageLimitError('side-too-long', dims);
  }
  const decoded = dims.width * dims.height * BYTES_PER_PIXEL;
  if (decoded > MAX_PIXELS) {
    throw new ImageLimitError('too-many-pixels', { ...dims, decoded });
  }
  if (dims.format === 'gif' && dims.frames * dims.width * dims.height > MAX_PIXELS * 4) {
    throw new ImageLimitError('animation-too-large', dims);
  }
  return { ...dims, bufferBytes: decoded };
}

function thumbnailSize(width, height, box = 320) {
  const scale = Math.min(1, box / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

module.exports = { checkLimits, thumbnailSize, ImageLimitError, MAX_PIXELS };
