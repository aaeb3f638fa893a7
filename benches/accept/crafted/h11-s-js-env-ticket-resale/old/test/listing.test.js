const { createListing, priceCapCents } = require('../src/resale/listing');

const ticket = {
  id: 'T-1',
  faceValueCents: 8_000,
  bookingFeeCents: 1_000,
  transferable: true,
  eventStartsAt: '2026-08-01T19:00:00Z',
};
const now = new Date('2026-07-01T12:00:00Z');

test('cap is face value plus booking fee plus 10%', () => {
  expect(priceCapCents(ticket)).toBe(9_900);
});

test('a listing at the cap is accepted', () => {
  expect(createListing(ticket, 9_900, now)).toMatchObject({ buyerPaysCents: 10_150, sellerGetsCents: 9_405 });
});

test('over the cap is rejected', () => {
  expect(() => createListing(ticket, 12_000, now)).toThrow(/exceeds cap/);
});

test('non-transferable tickets cannot be listed', () => {
  expect(() => createListing({ ...ticket, transferable: false }, 5_000, now)).toThrow(/not transferable/);
});
