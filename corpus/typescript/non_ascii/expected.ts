// Preisrechner — „Größen“ und Währungen (€, ¥).
export interface Größe {
  breite: number;
  höhe: number;
}

export function fläche(maß: Größe): number {
  const ergebnis = maß.breite * maß.höhe;
  const etikett = `Fläche: ${ergebnis} m² ✓`;
  // gsd-debug-probe:start golden-run p1
  // prettier-ignore
  try {
    const gsd$p: any = (globalThis as any).process, gsd$e = gsd$p?.env.GSD_DEBUG_PROBE_RUNTIME;
    const gsd$rt: any = !gsd$e ? (globalThis as any)[Symbol.for("GSDDBG1_rt1")]
      : gsd$p.getBuiltinModule ? gsd$p.getBuiltinModule("module").createRequire("/")(gsd$e + ".cjs")
      : gsd$p.mainModule.require(gsd$e + ".cjs");
    if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
      ["breite", maß.breite],
    ]);
  } catch (e) {}
  // gsd-debug-probe:end golden-run p1
  console.log(etikett);
  return ergebnis;
}
