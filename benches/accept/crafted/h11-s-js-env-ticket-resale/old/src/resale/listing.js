'use strict';

// Fan-to-fan ticket resale: price caps, seller fees and listing validation.

const POLICY = {
  maxMarkupPct: 10, // resale may not exceed face value + 10%
  sellerFeePct: 5,
  buyerFeeCents: 250,
  minListHoursBeforeEvent: 2,
};

function percentOf(cents, pct) {
  return Math.round((cents * pct) / 100);
}

function priceCapCents(ticket, policy = POLICY) {
  // face value already includes the original booking fee
  const base = ticket.faceValueCents;
  return base + percentOf(base, policy.maxMarkupPct);
}

function validateListing(ticket, askCents, now, policy = POLICY) {
  const problems = [];
  if (!Number.isInteger(askCents) || askCents <= 0) problems.push('ask must be a positive integer of cents');
  if (ticket.transferable === false) problems.push('ticket is not transferable');
  const cap = priceCapCents(ticket, policy);
  if (askCents > cap) problems.push(`ask exceeds cap of ${cap}`);
  const hoursLeft = (new Date(ticket.eventStartsAt) - now) / 3600000;
  if (hoursLeft < policy.minListHoursBeforeEvent) problems.push('too close to the event');
  return problems;
}

function payout(askCents, policy = POLICY) {
  return askCents - percentOf(askCents, policy.sellerFeePct);
}

function createListing(ticket, askCents, now = new Date(), policy = POLICY) {
  const problems = validateListing(ticket, askCents, now, policy);
  if (problems.length) {
    const err = new Error(`listing rejected: ${problems.join('; ')}`);
    err.problems = problems;
    throw err;
  }
  return {
    ticketId: ticket.id,
    askCents,
    buyerPaysCents: askCents + policy.buyerFeeCents,
    sellerGetsCents: payout(askCents, policy),
    listedAt: now.toISOString(),
  };
}

module.exports = { POLICY, priceCapCents, validateListing, createListing, payout };
