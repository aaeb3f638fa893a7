// Monthly credit accounting for coworking members. Every plan includes a credit allowance;
// bookings burn credits per hour depending on the space, and overage is invoiced at the
// plan's overage price.

export type SpaceKind = 'hotDesk' | 'fixedDesk' | 'meetingRoom' | 'phoneBooth';

export interface Booking {
  id: string;
  memberId: string;
  space: SpaceKind;
  start: string; // ISO, UTC
  end: string;
  /** as delivered by the booking API: "confirmed", "cancelled" or "no-show" */
  status: string;
}

export interface Plan {
  name: string;
  monthlyCredits: number;
  overagePrice: number;
}

export interface Usage {
  memberId: string;
  month: string;
  used: number;
  allowance: number;
  overage: number;
  overageCost: number;
}

const CREDITS_PER_HOUR: Record<SpaceKind, number> = {
  hotDesk: 1,
  fixedDesk: 1.5,
  meetingRoom: 4,
  phoneBooth: 0.5,
};

const HOUR_MS = 3_600_000;

export function creditsFor(b: Booking): number {
  const ms = Date.parse(b.end) - Date.parse(b.start);
  if (!(ms > 0)) throw new RangeError(`booking ${b.id} has no duration`);
  const hours = Math.ceil((ms / HOUR_MS) * 4) / 4; // billed in quarter hours
  return hours * CREDITS_PER_HOUR[b.space];
}

export class CreditLedger {
  constructor(private readonly plans: Map<string, Plan>, private readonly bookings: Booking[]) {}

  /** bookings that count against the allowance in `month` ("2026-03") */
  chargeable(memberId: string, month: string): Booking[] {
    return this.bookings.filter(
      (b) => b.memberId === memberId && b.start.startsWith(month) && b.status !== 'canceled',
    );
  }

  usage(memberId: string, month: string): Usage {
    const plan = this.plans.get(memberId);
    if (!plan) throw new Error(`no plan for member ${memberId}`);
    const inMonth = this.bookings.filter((b) => b.memberId === memberId && b.start.startsWith(month));
    if (inMonth.length > 0 && inMonth.every((b) => b.status === 'cancelled')) {
      return { memberId, month, used: 0, allowance: plan.monthlyCredits, overage: 0, overageCost: 0 };
    }
    const used = this.chargeable(memberId, month).reduce((sum, b) => sum + creditsFor(b), 0);
    const overage = Math.max(0, used - plan.monthlyCredits);
    return {
      memberId,
      month,
      used,
      allowance: plan.monthlyCredits,
      overage,
      overageCost: Math.round(overage * plan.overagePrice * 100) / 100,
    };
  }

  statement(month: string): string {
    const lines = [...this.plans.keys()].sort().map((id) => {
      const u = this.usage(id, month);
      const cost = u.overageCost ? `  +${u.overageCost.toFixed(2)}` : '';
      return `${id.padEnd(10)} ${String(u.used).padStart(6)} / ${u.allowance}${cost}`;
    });
    return [`Credits ${month}`, ...lines].join('\n');
  }
}
