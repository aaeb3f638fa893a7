'use strict';

// Colour helpers for the theme editor: parse hex, compute WCAG contrast.

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

function parseHex(input) {
  const m = HEX.exec(String(input).trim());
  if (!m) throw new TypeError(`not a hex colour: ${input}`);
  let hex = m[1];
  if (hex.length === 3) {
    hex = hex.split('').map((c) => c + '0').join('');
  }
  const n = parseInt(hex, 16);
  return { r: (n >> 16) & 0xff, g: (n >> 8) & 0xff, b: n & 0xff };
}

function toHex({ r, g, b }) {
  return '#' + [r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('');
}

function channel(v) {
  const s = v / 255;
  return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
}

function luminance(rgb) {
  return 0.2126 * channel(rgb.r) + 0.7152 * channel(rgb.g) + 0.0722 * channel(rgb.b);
}

function contrast(a, b) {
  const la = luminance(parseHex(a));
  const lb = luminance(parseHex(b));
  const [hi, lo] = la > lb ? [la, lb] : [lb, la];
  return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
}

function readableOn(background) {
  return contrast(background, '#000000') >= contrast(background, '#ffffff')
    ? '#000000'
    : '#ffffff';
}

function mix(a, b, weight = 0.5) {
  const x = parseHex(a);
  const y = parseHex(b);
  const w = Math.min(Math.max(weight, 0), 1);
  return toHex({
    r: Math.round(x.r * (1 - w) + y.r * w),
    g: Math.round(x.g * (1 - w) + y.g * w),
    b: Math.round(x.b * (1 - w) + y.b * w),
  });
}

module.exports = { parseHex, toHex, contrast, readableOn, mix };
