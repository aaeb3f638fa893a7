//! Minimal reproductions of what held-out batches 9 and 10 (benches/accept/heldout9*.toml,
//! heldout10*.toml, measured once before these rules; tuning data since) found `probity accept
//! diff` missing among suppressions: an error turned into a value by a tuple assignment, a
//! field of a default, a multi-line `?` chain or a handler split off a raising one; a guard
//! that carves an exit out of a check just after it; tests dropped by `.mocharc.json`, negated
//! `testMatch` / `include` patterns, or a Cargo `required-features` that `cargo test` does not
//! enable. Each with the near miss that must stay quiet.

use crate::accept_config::{flags as config_flags, passes as config_passes};
use crate::accept_equiv::{detect, findings};
use crate::accept_suppress::{flags, flags_files};

const ERR: &str = "error_replaced_by_default";

/// No `flag` finding of `kind` (a `review` may remain).
#[track_caller]
fn not_flagged(path: &str, old: &str, new: &str, kind: &str) {
    crate::accept_batch11::not_flagged(&[(path, old, new)], kind);
}

#[test]
fn errors_turned_into_values_flag() {
    // A re-raise replaced by a tuple of fallback values.
    let py = "class Feed:\n    def refresh(self):\n        try:\n            self.as_of, self.rates = parse(self.fetch())\n        except FeedError:\n            raise\n";
    flags(
        "fx/feed.py",
        py,
        &py.replace("raise\n", "self.as_of, self.rates = None, {\"EUR\": 1}\n"),
        ERR,
    );
    // A propagated parse error replaced by a field of the default settings.
    let rs = "fn load(v: &str, s: &mut Settings) -> Result<(), String> {\n    s.max = match v.parse::<u32>() {\n        Ok(n) => n,\n        Err(e) => return Err(format!(\"{v}: {e}\")),\n    };\n    Ok(())\n}\n";
    flags(
        "src/settings.rs",
        rs,
        &rs.replace(
            "Err(e) => return Err(format!(\"{v}: {e}\")),",
            "Err(_) => Settings::default().max,",
        ),
        ERR,
    );
    // A `?` ending a chain over several lines became `.unwrap_or_default()` on one.
    let chain = "fn total(reads: &[&str]) -> Result<f64, Bad> {\n    let mut sum = 0.0;\n    for raw in reads {\n        let kwh: f64 = raw\n            .trim()\n            .parse()\n            .map_err(|_| Bad(raw.to_string()))?;\n        sum += kwh;\n    }\n    Ok(sum)\n}\n";
    flags(
        "src/tariff.rs",
        chain,
        &chain.replace(
            "raw\n            .trim()\n            .parse()\n            .map_err(|_| Bad(raw.to_string()))?;",
            "raw.trim().parse().unwrap_or_default();",
        ),
        ERR,
    );
}

#[test]
fn a_handler_split_off_a_raising_one_flags_and_a_module_fallback_does_not() {
    let old = "def episodes(doc):\n    out = []\n    for item in doc:\n        try:\n            published = parse(item[\"date\"])\n        except (KeyError, ValueError) as exc:\n            raise FeedError(\"bad date\") from exc\n        out.append(published)\n    return out\n";
    let new = old.replace(
        "        except (KeyError, ValueError) as exc:\n            raise FeedError(\"bad date\") from exc\n",
        "        except KeyError as exc:\n            raise FeedError(\"bad date\") from exc\n        except ValueError:\n            published = now()\n",
    );
    let v = flags("feeds/refresh.py", old, &new, ERR);
    assert!(v.to_string().contains("ValueError"), "{v}");
    // requests 2.32.3: a new module-level `try: import ssl` falling back to `None`, in a module
    // whose other `except ImportError` raises: an optional import, not a suppressed error.
    let module = "try:\n    from socks import Manager\nexcept ImportError:\n    def Manager(*a):\n        raise InvalidSchema(\"missing\")\n\nctx = make_context()\n";
    let optional = module.replace(
        "ctx = make_context()\n",
        "try:\n    import ssl\n\n    ctx = make_context()\nexcept ImportError:\n    ctx = None\n",
    );
    not_flagged("adapters.py", module, &optional, ERR);
}

#[test]
fn a_guard_carving_an_exit_out_of_the_check_after_it_flags() {
    let ts = "export function check(c: Booking): void {\n  if (c.end <= c.start && !c.allDay) {\n    throw new RangeError(\"bad\");\n  }\n  save(c);\n}\n";
    flags(
        "src/bookings.ts",
        ts,
        &ts.replace("void {\n", "void {\n  if (c.allDay) return;\n"),
        "guard_before_logic",
    );
    let py = "def validate(raw):\n    country, body = normalise(raw)\n    fmt = FORMATS.get(country)\n    if fmt is None:\n        raise VatError(country)\n    return country + body\n";
    flags(
        "checkout/vat.py",
        py,
        &py.replace(
            "normalise(raw)\n",
            "normalise(raw)\n    if country == \"NL\":\n        return country + body\n",
        ),
        "guard_before_logic",
    );
    // A presence check is an early out, unless it returns a success past a refusal.
    let perm = "def can_edit(user, doc):\n    if doc.archived:\n        return False\n    return level(user, doc) >= EDIT\n";
    flags(
        "docs/permissions.py",
        perm,
        &perm.replace(
            "doc):\n",
            "doc):\n    if doc.shared_link is not None:\n        return True\n",
        ),
        "guard_before_logic",
    );
    not_flagged(
        "docs/permissions.py",
        perm,
        &perm.replace(
            "doc):\n",
            "doc):\n    if doc is None:\n        return False\n",
        ),
        "guard_before_logic",
    );
    // A state check before an unrelated refusal reads nothing that refusal reads.
    let js = "class Pool {\n  take(n) {\n    if (n > this.max) {\n      throw new RangeError(\"too many\");\n    }\n    return this.items.splice(0, n);\n  }\n}\n";
    not_flagged(
        "src/pool.js",
        js,
        &js.replace(
            "take(n) {\n",
            "take(n) {\n    if (this.closed) return [];\n",
        ),
        "guard_before_logic",
    );
}

#[test]
fn tests_dropped_by_mocha_negated_patterns_and_required_features_flag() {
    config_flags(
        ".mocharc.json",
        r#"{"spec": ["test/**/*.spec.js"], "timeout": 4000}"#,
        r#"{"spec": ["test/**/*.spec.js"], "ignore": ["test/ws.spec.js"], "timeout": 4000}"#,
        "test_excluded_by_config",
    );
    let jest = "module.exports = { testMatch: ['**/__tests__/**/*.test.js'] };\n";
    config_flags(
        "jest.config.js",
        jest,
        &jest.replace("'] }", "', '!**/__tests__/slow.test.js'] }"),
        "test_excluded_by_config",
    );
    // Widened, not narrowed: passes.
    config_passes(
        "jest.config.js",
        jest,
        "module.exports = { testMatch: ['**/*.test.js', '**/*.spec.js'] };\n",
    );
    let vitest = "export default defineConfig({ test: { include: ['test/**/*.test.ts'] } });\n";
    config_flags(
        "vitest.config.ts",
        vitest,
        &vitest.replace("test/**/*", "test/**/!(parcel)"),
        "test_excluded_by_config",
    );
    let cargo = "[package]\nname = \"ledger\"\nversion = \"0.1.0\"\n\n[[test]]\nname = \"replay\"\npath = \"tests/replay.rs\"\n";
    let test = ("tests/replay.rs", "#[test]\nfn replays() {}\n");
    let gated = format!("{cargo}required-features = [\"pg\"]\n\n[features]\npg = []\n");
    flags_files(
        &[("Cargo.toml", cargo), test],
        &[("Cargo.toml", &gated)],
        "test_excluded_by_config",
    );
    // The feature is on by default: `cargo test` still runs the target.
    let on = gated.replace("pg = []\n", "default = [\"pg\"]\npg = []\n");
    let (code, v) = detect(&[("Cargo.toml", cargo, &on), (test.0, test.1, test.1)]);
    assert_eq!(code, 0, "{v}");
    assert!(
        !findings(&v)
            .iter()
            .any(|f| f["kind"] == "test_excluded_by_config"),
        "{v}"
    );
}
