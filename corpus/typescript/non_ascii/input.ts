// Preisrechner — „Größen“ und Währungen (€, ¥).
export interface Größe {
  breite: number;
  höhe: number;
}

export function fläche(maß: Größe): number {
  const ergebnis = maß.breite * maß.höhe;
  const etikett = `Fläche: ${ergebnis} m² ✓`;
  console.log(etikett);
  return ergebnis;
}
