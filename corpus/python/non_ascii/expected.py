"""Flächenrechner — „Maße“ in Metern."""


def fläche(maß: dict) -> float:
    # gsd-debug-probe:start golden-run p1
    # fmt: off
    try:
        if __import__("os").environ.get("GSD_DEBUG_PROBE_RUNTIME"):
            __import__("sys").modules.get("GSDDBG1_rt1") or __import__("runpy").run_path(
                __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"] + ".py")
            __import__("GSDDBG1_rt1").hit("gsd-debug-probe/golden-run/p1", lambda: (
                ("breite", maß["breite"]),
            ))
    except Exception: pass
    # fmt: on
    # gsd-debug-probe:end golden-run p1
    ergebnis = maß["breite"] * maß["höhe"]
    etikett = f"Fläche: {ergebnis} m² ✓"
    print(etikett)
    return ergebnis


名前 = "テスト"
größe = {"breite": 3, "höhe": 4}
print(名前, fläche(größe))
