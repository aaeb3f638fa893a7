'use strict';

class OutOfStockError extends Error {
  constructor(sku, requested, available) {
    super(`only ${available} of ${sku} left, ${requested} requested`);
    this.name = 'OutOfStockError';
    this.sku = sku;
    this.requested = requested;
    this.available = available;
  }
}

const RESERVATION_TTL_MS = 15 * 60 * 1000;

class Inventory {
  constructor(store, { now = () => Date.now() } = {}) {
    this.store = store;
    this.now = now;
  }

  async available(sku) {
    const item = await this.store.get(sku);
    if (!item) return 0;
    const live = item.reservations.filter((r) => r.expiresAt > this.now());
    const held = live.reduce((sum, r) => sum + r.quantity, 0);
    return item.onHand - held;
  }

  async reserve(sku, quantity, orderId) {
    if (!Number.isInteger(quantity) || quantity <= 0) {
      throw new RangeError('quantity must be a positive integer');
    }
    if (this.store.backorderable && this.store.backorderable.has(sku)) {
      return { reserved: true, sku, quantity, expiresAt: this.now() + RESERVATION_TTL_MS };
    }
    const item = await this.store.get(sku);
    if (!item) throw new OutOfStockError(sku, quantity, 0);
    const available = await this.available(sku);
    if (available < quantity) {
      throw new OutOfStockError(sku, quantity, available);
    }
    const reservation = {
      orderId,
      quantity,
      expiresAt: this.now() + RESERVATION_TTL_MS,
    };
    item.reservations = item.reservations
      .filter((r) => r.expiresAt > this.now())
      .concat(reservation);
    await this.store.put(sku, item);
    return { reserved: true, sku, quantity, expiresAt: reservation.expiresAt };
  }

  async release(sku, orderId) {
    const item = await this.store.get(sku);
    if (!item) return false;
    const before = item.reservations.length;
    item.reservations = item.reservations.filter((r) => r.orderId !== orderId);
    await this.store.put(sku, item);
    return item.reservations.length < before;
  }

  async commit(sku, orderId) {
    const item = await this.store.get(sku);
    const reservation = item && item.reservations.find((r) => r.orderId === orderId);
    if (!reservation) throw new Error(`no reservation for order ${orderId}`);
    item.onHand -= reservation.quantity;
    item.reservations = item.reservations.filter((r) => r !== reservation);
    await this.store.put(sku, item);
    return item.onHand;
  }
}

module.exports = { Inventory, OutOfStockError, RESERVATION_TTL_MS };
