// Flächenrechner — „Maße“ in Metern.
const größe = { breite: 3, höhe: 4 };

function fläche(maß) {
  const ergebnis = maß.breite * maß.höhe;
  console.log(`Fläche: ${ergebnis} m² ✓`);
  return ergebnis;
}

const 名前 = 'テスト';
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
console.log(名前, fläche(größe));
