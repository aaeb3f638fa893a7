const fs = require('fs');
const path = require('path');

exports.readJson = function readJson(file) {
  const full = path.resolve(file);
  const text = fs.readFileSync(full, 'utf8');
  return JSON.parse(text);
};

module.exports.writeJson = (file, data) => {
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
  const text = JSON.stringify(data, null, 2);
  fs.writeFileSync(file, text + '\n');
};
