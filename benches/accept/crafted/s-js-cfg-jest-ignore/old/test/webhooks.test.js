'use strict';

const crypto = require('crypto');
const request = require('supertest');
const express = require('express');
const { router, parseEvent, routeFor } = require('../src/webhooks');

jest.mock('../src/queue', () => ({ queue: { publish: jest.fn().mockResolvedValue(undefined) } }));

const SECRET = 'whsec_test';
process.env.WEBHOOK_SECRET = SECRET;

function signed(body, timestamp = Math.floor(Date.now() / 1000)) {
  const sig = crypto.createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex');
  return `${timestamp},${sig}`;
}

const app = express().use(router);

describe('POST /webhooks/payments', () => {
  it('accepts a signed event', async () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'invoice.paid' });
    await request(app).post('/webhooks/payments').set('x-signature', signed(body)).send(body).expect(204);
  });

  it('rejects a forged signature', async () => {
    const body = JSON.stringify({ id: 'evt_2', type: 'invoice.paid' });
    await request(app).post('/webhooks/payments').set('x-signature', '1,deadbeef').send(body).expect(401);
  });

  it('rejects a replayed event', async () => {
    const body = JSON.stringify({ id: 'evt_3', type: 'invoice.paid' });
    await request(app).post('/webhooks/payments').set('x-signature', signed(body, 1000)).send(body).expect(400);
  });
});

describe('parseEvent', () => {
  it('needs a type', () => {
    expect(() => parseEvent('{"id":"x"}')).toThrow(TypeError);
    expect(routeFor('customer.deleted')).toBe('gdpr');
  });
});
