// Flächenrechner — „Maße“ in Metern.
const größe = { breite: 3, höhe: 4 };

function fläche(maß) {
  const ergebnis = maß.breite * maß.höhe;
  console.log(`Fläche: ${ergebnis} m² ✓`);
  return ergebnis;
}

const 名前 = 'テスト';
console.log(名前, fläche(größe));
