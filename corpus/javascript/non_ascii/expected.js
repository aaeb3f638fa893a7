// Flächenrechner — „Maße“ in Metern.
const größe = { breite: 3, höhe: 4 };

function fläche(maß) {
  // gsd-debug-probe:start golden-run p1
  // prettier-ignore
  try {
    const gsd$p = globalThis.process, gsd$e = gsd$p && gsd$p.env.GSD_DEBUG_PROBE_RUNTIME;
    const gsd$rt = !gsd$e ? globalThis[Symbol.for("GSDDBG1_rt1")] : (gsd$p.getBuiltinModule
      ? gsd$p.getBuiltinModule("module").createRequire("/") : require)(gsd$e + ".cjs");
    if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
      ["breite", maß.breite],
    ]);
  } catch (e) {}
  // gsd-debug-probe:end golden-run p1
  const ergebnis = maß.breite * maß.höhe;
  console.log(`Fläche: ${ergebnis} m² ✓`);
  return ergebnis;
}

const 名前 = 'テスト';
console.log(名前, fläche(größe));
