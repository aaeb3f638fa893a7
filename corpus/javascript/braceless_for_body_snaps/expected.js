function validate(user) {
  if (!user)
    return { ok: false, reason: 'missing' };
  if (!user.email) return { ok: false, reason: 'email' };
  // gsd-debug-probe:start golden-run p1
  // prettier-ignore
  try {
    const gsd$p = globalThis.process, gsd$e = gsd$p && gsd$p.env.GSD_DEBUG_PROBE_RUNTIME;
    const gsd$rt = !gsd$e ? globalThis[Symbol.for("GSDDBG1_rt1")] : (gsd$p.getBuiltinModule
      ? gsd$p.getBuiltinModule("module").createRequire("/") : require)(gsd$e + ".cjs");
    if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
    ]);
  } catch (e) {}
  // gsd-debug-probe:end golden-run p1
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
