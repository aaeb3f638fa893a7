// Billing for the boathouse: rentals are charged per started hour after a short grace
// period, capped at the day rate, plus any add-ons. Times come from the dock tablet.

export const GRACE_MINUTES = 10;

export const FLEET = {
  single: { label: 'Single kayak', hourly: 18, daily: 85 },
  tandem: { label: 'Tandem kayak', hourly: 26, daily: 120 },
  sup: { label: 'Paddleboard', hourly: 15, daily: 70 },
};

export const ADDONS = {
  drybag: 4,
  wetsuit: 9,
  cart: 6,
};

export function minutesBetween(out, back) {
  const ms = new Date(back).getTime() - new Date(out).getTime();
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError('return time is before checkout');
  return Math.floor(ms / 60000);
}

export function billableHours(minutes) {
  if (minutes <= GRACE_MINUTES) return 0;
  return Math.max(1, Math.round(minutes / 60));
}

export class RentalBilling {
  constructor({ fleet = FLEET, addons = ADDONS, memberDiscount = 0.1 } = {}) {
    this.fleet = fleet;
    this.addons = addons;
    this.memberDiscount = memberDiscount;
  }

  #price(rental, hours) {
    const boat = this.fleet[rental.boat];
    const boatCharge = Math.min(hours * boat.hourly, boat.daily);
    const extras = (rental.addons ?? []).reduce((sum, a) => {
      if (!(a in this.addons)) throw new Error(`unknown add-on: ${a}`);
      return sum + this.addons[a];
    }, 0);
    const discount = rental.member ? boatCharge * this.memberDiscount : 0;
    const total = Math.round((boatCharge + extras - discount) * 100) / 100;
    return { boat: boat.label, hours, boatCharge, extras, discount, total };
  }

  quote(rental) {
    if (!this.fleet[rental.boat]) throw new Error(`unknown boat type: ${rental.boat}`);
    const minutes = minutesBetween(rental.out, rental.back);
    const hours = billableHours(minutes);
    return this.#price(rental, hours);
  }

  receipt(rental) {
    const q = this.quote(rental);
    const lines = [`${q.boat} x ${q.hours} h`.padEnd(28) + q.boatCharge.toFixed(2).padStart(8)];
    if (q.extras) lines.push('Add-ons'.padEnd(28) + q.extras.toFixed(2).padStart(8));
    if (q.discount) lines.push('Member discount'.padEnd(28) + (-q.discount).toFixed(2).padStart(8));
    lines.push('TOTAL'.padEnd(28) + q.total.toFixed(2).padStart(8));
    return lines.join('\n');
  }
}
