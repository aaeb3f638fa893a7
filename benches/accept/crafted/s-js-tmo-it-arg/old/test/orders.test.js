'use strict';

jest.mock('../src/db');
jest.mock('../src/mailer');

const { db } = require('../src/db');
const { placeOrder, shippingCost, statusLabel, formatPrice, OrderError } = require('../src/orders');

const customer = { id: 'c-42', email: 'ada@example.com' };

beforeEach(() => {
  db.orders.insert.mockImplementation(async (row) => ({ id: 'o-1', ...row }));
});

describe('placeOrder', () => {
  it('charges shipping below the free threshold', async () => {
    const saved = await placeOrder({ country: 'FR', lines: [{ sku: 'A', unitPrice: 1200, quantity: 2 }] }, customer);
    expect(saved.shipping).toBe(490);
    expect(saved.subtotal).toBe(2400);
  });

  it('ships for free above the threshold', async () => {
    const saved = await placeOrder({ country: 'DE', lines: [{ sku: 'A', unitPrice: 6000, quantity: 1 }] }, customer);
    expect(saved.shipping).toBe(0);
  });

  it('refuses an empty order', async () => {
    await expect(placeOrder({ lines: [] }, customer)).rejects.toThrow(OrderError);
  });

  it('handles a large basket', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => ({ sku: `S${i}`, unitPrice: 100, quantity: 1 }));
    const saved = await placeOrder({ country: 'FR', lines }, customer);
    expect(saved.subtotal).toBe(5000);
  }, 5000);
});

describe('labels', () => {
  it('formats prices in euros', () => {
    expect(formatPrice(123456)).toBe('1\u202f234,56\u00a0€');
  });

  it('maps statuses', () => {
    expect(statusLabel('shipped')).toBe('On its way');
    expect(shippingCost({ country: 'US' })).toBe(1290);
  });
});
