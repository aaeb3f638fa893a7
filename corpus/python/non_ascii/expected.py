"""Flächenrechner — „Maße“ in Metern."""


def fläche(maß: dict) -> float:
    # gsd-debug-probe:start golden-run p1
    # fmt: off
    try:
        try: __GSDDBG1_rt1__
        except NameError: (lambda p: __import__("runpy").run_path(p + ".py", {"g": globals()}))(
            __import__("os").environ["GSD_DEBUG_PROBE_RUNTIME"])
        if "gsd-debug-probe/golden-run/p1" in __GSDDBG1_rt1__: __GSDDBG1_rt1__[""](lambda: (
            ("breite", maß["breite"]),
        ), "gsd-debug-probe/golden-run/p1")
    except Exception: globals().setdefault("__GSDDBG1_rt1__", {})
    # fmt: on
    # gsd-debug-probe:end golden-run p1
    ergebnis = maß["breite"] * maß["höhe"]
    etikett = f"Fläche: {ergebnis} m² ✓"
    print(etikett)
    return ergebnis


名前 = "テスト"
größe = {"breite": 3, "höhe": 4}
print(名前, fläche(größe))
