function validate(user) {
  if (!user)
    return { ok: false, reason: 'missing' };
  if (!user.email) return { ok: false, reason: 'email' };
  // gsd-debug-probe:start golden-run p1
  // prettier-ignore
  try {
    let gsd$p = globalThis, gsd$m = gsd$p.__GSDDBG1_rt1, gsd$f;
    if (!gsd$m) gsd$p = Object.defineProperty(gsd$p, "__GSDDBG1_rt1", { configurable: true, value:
      gsd$m = new gsd$p.Map() }).process, (gsd$f = gsd$p.env.GSD_DEBUG_PROBE_RUNTIME) && (gsd$p
      .getBuiltinModule || require)("module").createRequire("/")(gsd$f + ".cjs").into(gsd$m);
    if (gsd$m.size && (gsd$f = gsd$m.get("gsd-debug-probe/golden-run/p1"))) gsd$f(() => [
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
