const { inviteMembers } = require('../src/invites');

function fakeDb({ members = 0, pending = 0 } = {}) {
  const rows = [];
  return {
    rows,
    async count(table, q) {
      if (table === 'members') return members;
      if (q.status === 'pending') return pending + rows.length;
      return rows.filter((r) => r.inviterId === q.inviterId).length;
    },
    async insert(table, row) { rows.push(row); return row; },
  };
}

test('free team can fill its last seat', async () => {
  const db = fakeDb({ members: 2, pending: 0 });
  const out = await inviteMembers(db, {
    team: { id: 't1', plan: 'free' }, inviterId: 'u1', emails: ['Bo@x.io', 'bo@x.io '],
  });
  expect(out).toHaveLength(1);
});
