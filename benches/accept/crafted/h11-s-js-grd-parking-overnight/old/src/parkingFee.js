'use strict';

// Garage pricing: first 15 minutes free, hourly rate rounded up, capped per calendar day.

const RATES = {
  graceMinutes: 15,
  hourlyCents: 300,
  dailyMaxCents: 2500,
  lostTicketCents: 4000,
  evChargingPerKwhCents: 45,
};

function toMinutesOfDay(date) {
  return date.getHours() * 60 + date.getMinutes();
}

function parkedMinutes(entry, exit) {
  const start = toMinutesOfDay(entry);
  const end = toMinutesOfDay(exit);
  const days = Math.floor((exit - entry) / 86400000);
  return Math.max(0, days * 1440 + (end - start));
}

function feeForMinutes(minutes, rates = RATES) {
  if (minutes <= rates.graceMinutes) return 0;
  const fullDays = Math.floor(minutes / 1440);
  const rest = minutes % 1440;
  const restFee = Math.min(Math.ceil(rest / 60) * rates.hourlyCents, rates.dailyMaxCents);
  return fullDays * rates.dailyMaxCents + restFee;
}

function parkingFee(ticket, exit, rates = RATES) {
  if (ticket.lost) return rates.lostTicketCents;
  if (exit < ticket.entry) throw new RangeError('exit before entry');
  const minutes = parkedMinutes(ticket.entry, exit);
  let fee = feeForMinutes(minutes, rates);
  if (ticket.validatedBy) fee = Math.max(0, fee - 2 * rates.hourlyCents);
  if (ticket.evKwh) fee += Math.round(ticket.evKwh * rates.evChargingPerKwhCents);
  return fee;
}

function receipt(ticket, exit, rates = RATES) {
  const cents = parkingFee(ticket, exit, rates);
  return {
    plate: ticket.plate,
    minutes: ticket.lost ? null : parkedMinutes(ticket.entry, exit),
    total: `$${(cents / 100).toFixed(2)}`,
  };
}

module.exports = { RATES, parkedMinutes, feeForMinutes, parkingFee, receipt };
