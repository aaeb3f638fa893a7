function validate(user) {
  if (!user)
    return { ok: false, reason: 'missing' };
  if (!user.email) return { ok: false, reason: 'email' };
  for (const role of user.roles)
    checkRole(role);
  return { ok: true };
}

function checkRole(role) {
  if (!ROLES.includes(role)) {
    throw new RangeError(`unknown role ${role}`);
  }
}

const ROLES = ['admin', 'editor', 'viewer'];
const isAdmin = (user) => user.roles.includes('admin');
function id(x) { return x; }

module.exports = { validate, isAdmin, id };
