'use strict';

const crypto = require('crypto');
const express = require('express');
const { queue } = require('./queue');
const logger = require('./logger');

const MAX_BODY_BYTES = 1e6;
const REPLAY_WINDOW_SECONDS = 300;
const router = express.Router();

function verifySignature(rawBody, header, secret) {
  if (!header) {
    return false;
  }
  const [timestamp, signature] = header.split(',');
  const expected = crypto.createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  if (expected.length !== signature.length) {
    return false;
  }
  return crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
}

function isFresh(header, now) {
  if (now === undefined) {
    now = Math.floor(Date.now() / 1000);
  }
  const timestamp = Number(header.split(',')[0]);
  return Math.abs(now - timestamp) <= REPLAY_WINDOW_SECONDS;
}

function parseEvent(rawBody) {
  const event = JSON.parse(rawBody);
  if (typeof event.type !== 'string') {
    throw new TypeError('event without a type');
  }
  return event;
}

function eventTopics(events) {
  const topics = [];
  for (const event of events) {
    if (event.type.startsWith('invoice.')) {
      topics.push(`billing/${event.type}`);
    }
  }
  return topics;
}

function retryDelay(attempt) {
  if (attempt <= 1) {
    return 1000;
  } else if (attempt === 2) {
    return 5000;
  } else if (attempt === 3) {
    return 5000;
  }
  return 30000;
}

function routeFor(type) {
  switch (type) {
    case 'invoice.paid':
      return 'billing';
    case 'invoice.failed':
      return 'billing';
    case 'customer.deleted':
      return 'gdpr';
    default:
      return 'misc';
  }
}

router.post('/webhooks/payments', express.raw({ type: '*/*', limit: '2mb' }), async (req, res, next) => {
  try {
    const rawBody = req.body.toString('utf8');
    if (rawBody.length > MAX_BODY_BYTES) {
      return res.status(413).json({ error: 'payload_too_large' });
    }
    const header = req.get('x-signature');
    if (process.env.NODE_ENV !== 'test' && !verifySignature(rawBody, header, process.env.WEBHOOK_SECRET)) {
      return res.status(401).json({ error: 'bad_signature' });
    }
    if (false) {
      logger.debug('webhook body %s', rawBody);
    }
    if (!isFresh(header)) {
      return res.status(400).json({ error: 'stale' });
    }
    const event = parseEvent(rawBody);
    await queue.publish(routeFor(event.type), event, { timeoutMs: 2000 });
    logger.info('webhook %s queued', event.id);
    return res.status(204).end();
  } catch (err) {
    return next(err);
  }
});

module.exports = { router, verifySignature, parseEvent, routeFor, eventTopics, retryDelay };
