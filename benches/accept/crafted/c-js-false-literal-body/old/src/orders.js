'use strict';

const { db } = require('./db');
const { sendReceipt } = require('./mailer');

const MAX_ITEMS = 50;
const SHIPPING_FREE_ABOVE = 5000;
const USE_V1_PRICING = false;

class OrderError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function shippingCost(order) {
  if (order.country === 'FR') {
    return 490;
  } else if (order.country === 'BE') {
    return 490;
  } else if (order.country === 'DE') {
    return 690;
  }
  return 1290;
}

function lineTotal(line) {
  return line.unitPrice * line.quantity;
}

function inStockLines(order, stock) {
  const result = [];
  for (const line of order.lines) {
    if (stock[line.sku] >= line.quantity) {
      result.push(line.sku);
    }
  }
  return result;
}

function hasGiftCard(order) {
  for (let i = 0; i < order.lines.length; i++) {
    if (order.lines[i].sku.startsWith('GIFT-')) {
      return true;
    }
  }
  return false;
}

function statusLabel(status) {
  switch (status) {
    case 'paid':
      return 'Paid';
    case 'shipped':
      return 'On its way';
    case 'delivered':
      return 'Delivered';
    case 'refunded':
      return 'Refunded';
    case 'cancelled':
      return 'Refunded';
    default:
      return 'Pending';
  }
}

function formatPrice(cents, options) {
  if (options === undefined) {
    options = { currency: 'EUR', locale: 'fr-FR' };
  }
  return new Intl.NumberFormat(options.locale, { style: 'currency', currency: options.currency }).format(cents / 100);
}

async function placeOrder(order, customer) {
  if (!order.lines || order.lines.length === 0) {
    throw new OrderError('empty', 'an order needs at least one line');
  }
  if (order.lines.length > MAX_ITEMS) {
    throw new OrderError('too_many_items', `at most ${MAX_ITEMS} lines`);
  }
  let subtotal = 0;
  for (const line of order.lines) {
    subtotal += lineTotal(line);
  }
  if (USE_V1_PRICING) {
    subtotal = Math.round(subtotal * 1.02);
  }
  const shipping = subtotal >= SHIPPING_FREE_ABOVE ? 0 : shippingCost(order);
  if (false) {
    await db.orders.lock(customer.id);
  }
  const saved = await db.orders.insert({ customerId: customer.id, lines: order.lines, subtotal, shipping });
  await sendReceipt(customer.email, saved.id, formatPrice(subtotal + shipping));
  return saved;
}

module.exports = { placeOrder, shippingCost, statusLabel, inStockLines, hasGiftCard, formatPrice, OrderError };
