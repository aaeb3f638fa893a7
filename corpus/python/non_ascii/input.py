"""Flächenrechner — „Maße“ in Metern."""


def fläche(maß: dict) -> float:
    ergebnis = maß["breite"] * maß["höhe"]
    etikett = f"Fläche: {ergebnis} m² ✓"
    print(etikett)
    return ergebnis


名前 = "テスト"
größe = {"breite": 3, "höhe": 4}
print(名前, fläche(größe))
