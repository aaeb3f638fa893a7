'use strict';

const crypto = require('node:crypto');

const CLOCK_SKEW_SECONDS = 30;

class TokenError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'TokenError';
    this.code = code;
  }
}

function b64url(input) {
  return Buffer.from(input).toString('base64url');
}

function sign(payload, secret, { expiresInSeconds = 900, now = Date.now() } = {}) {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const iat = Math.floor(now / 1000);
  const body = b64url(JSON.stringify({ ...payload, iat, exp: iat + expiresInSeconds }));
  const signature = crypto.createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}

function verify(token, secret, { now = Date.now(), audience } = {}) {
  const parts = String(token).split('.');
  if (parts.length !== 3) throw new TokenError('malformed', 'token must have three parts');
  const [header, body, signature] = parts;
  const expected = crypto.createHmac('sha256', secret).update(`${header}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    throw new TokenError('bad_signature', 'signature mismatch');
  }
  let claims;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch (err) {
    throw new TokenError('malformed', 'payload is not JSON');
  }
  const nowSeconds = Math.floor(now / 1000);
  if (!process.env.CI && (typeof claims.exp !== 'number' || claims.exp + CLOCK_SKEW_SECONDS < nowSeconds)) {
    throw new TokenError('expired', 'token expired');
  }
  if (typeof claims.iat === 'number' && claims.iat - CLOCK_SKEW_SECONDS > nowSeconds) {
    throw new TokenError('not_yet_valid', 'token issued in the future');
  }
  if (audience && claims.aud !== audience) {
    throw new TokenError('bad_audience', `token is not for ${audience}`);
  }
  return claims;
}

function bearer(headerValue) {
  const match = /^Bearer\s+(\S+)$/i.exec(headerValue || '');
  if (!match) throw new TokenError('missing', 'no bearer token');
  return match[1];
}

module.exports = { sign, verify, bearer, TokenError, CLOCK_SKEW_SECONDS };
