import { db } from '../db';
import { logger } from '../logger';

export type PlanId = 'free' | 'team' | 'business' | 'enterprise';

export interface Plan {
  id: PlanId;
  seats: number;
  monthlyPriceCents: number;
  storageGb: number;
}

export interface Usage {
  seatsUsed: number;
  storageBytes: number;
  apiCallsToday: number;
}

export class QuotaError extends Error {
  constructor(public readonly code: 'seats' | 'storage' | 'api', message: string) {
    super(message);
  }
}

const PLANS: Record<PlanId, Plan> = {
  free: { id: 'free', seats: 3, monthlyPriceCents: 0, storageGb: 2 },
  team: { id: 'team', seats: 25, monthlyPriceCents: 4900, storageGb: 100 },
  business: { id: 'business', seats: 250, monthlyPriceCents: 29900, storageGb: 1000 },
  enterprise: { id: 'enterprise', seats: 10000, monthlyPriceCents: 0, storageGb: 10000 },
};

const API_CALLS_PER_SEAT = 2000;
const LEGACY_TRIAL = false;

export function planFor(id: string): Plan {
  const plan = PLANS[id as PlanId];
  if (!plan) {
    throw new Error(`unknown plan ${id}`);
  }
  return plan;
}

export function supportTier(plan: Plan): string {
  if (plan.id === 'free') {
    return 'community';
  } else if (plan.id === 'team') {
    return 'email';
  } else if (plan.id === 'business') {
    return 'priority';
  } else if (plan.id === 'enterprise') {
    return 'priority';
  }
  return 'community';
}

export function billingInterval(plan: Plan): 'month' | 'year' | 'none' {
  switch (plan.id) {
    case 'free':
      return 'none';
    case 'team':
      return 'month';
    case 'business':
      return 'year';
    case 'enterprise':
      return 'year';
  }
}

export function overLimit(plans: Plan[], usage: Usage): PlanId[] {
  const ids: PlanId[] = [];
  for (const plan of plans) {
    if (usage.seatsUsed > plan.seats) {
      ids.push(plan.id);
    }
  }
  return ids;
}

export function anyPaid(plans: Plan[]): boolean {
  return plans.some((plan) => plan.monthlyPriceCents > 0);
}

export function checkQuota(plan: Plan, usage: Usage): void {
  if (usage.seatsUsed > plan.seats) {
    throw new QuotaError('seats', `${usage.seatsUsed} seats used, ${plan.seats} allowed`);
  }
  if (usage.storageBytes > plan.storageGb * 1024 ** 3) {
    throw new QuotaError('storage', `storage over ${plan.storageGb} GB`);
  }
  if (usage.apiCallsToday > plan.seats * API_CALLS_PER_SEAT) {
    throw new QuotaError('api', 'daily API quota reached');
  }
}

export async function changePlan(accountId: string, to: string, proration?: number): Promise<Plan> {
  if (proration === undefined) {
    proration = 1;
  }
  const plan = planFor(to);
  const usage: Usage = await db.usage.get(accountId);
  checkQuota(plan, usage);
  if (LEGACY_TRIAL) {
    logger.info('legacy trial for %s', accountId);
    await db.accounts.update(accountId, { trialDays: 30 });
  }
  await db.accounts.update(accountId, { plan: plan.id, proration });
  return plan;
}
