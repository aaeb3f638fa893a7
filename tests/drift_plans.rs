//! The drift guard on sample plans: `corpus/plans/<name>/plan.md` checked against
//! `corpus/plans/<name>/repo/`, compared with `expected.json` (`drift --json`, `stats` removed)
//! and `expected.md` (the markdown block). `PROBITY_BLESS=1` rewrites the expected files.
//!
//! `case.toml` (optional): `fail_on` (passed as `--fail-on`) and `exit_code` (expected with it).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use crate::util::{data, occurrence_lines, probity, repo_root};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    fail_on: Option<String>,
    exit_code: Option<i32>,
}

fn blessing() -> bool {
    std::env::var("PROBITY_BLESS").is_ok_and(|v| v == "1")
}

fn plan_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(repo_root().join("corpus/plans"))
        .expect("corpus/plans")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn rel(dir: &Path, file: &str) -> String {
    let name = dir.file_name().unwrap().to_string_lossy();
    format!("corpus/plans/{name}/{file}")
}

/// `probity drift` on one case, run from the repository root with relative paths; returns the
/// exit code and stdout.
fn drift(dir: &Path, extra: &[&str]) -> (i32, String) {
    let out = probity()
        .current_dir(repo_root())
        .args(["drift", "--no-cache", "--plan"])
        .arg(rel(dir, "plan.md"))
        .arg("--root")
        .arg(rel(dir, "repo"))
        .args(extra)
        .output()
        .expect("run probity");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.trim().is_empty(),
        "{}: stderr: {stderr}",
        dir.display()
    );
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
    )
}

/// Compare `actual` with `dir/file` (or write it when blessing); a mismatch is pushed to `errs`.
fn golden(dir: &Path, file: &str, actual: &str, errs: &mut Vec<String>) {
    let path = dir.join(file);
    if blessing() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => {
            let line = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
            errs.push(format!(
                "{} differs from the output at line {} (PROBITY_BLESS=1 refreshes it)\nexpected: {:?}\nactual:   {:?}",
                path.display(),
                line + 1,
                expected.lines().nth(line),
                actual.lines().nth(line)
            ));
        }
        Err(e) => errs.push(format!(
            "{}: {e} (PROBITY_BLESS=1 writes it)",
            path.display()
        )),
    }
}

/// The result (or skipped entry) for `r`.
fn find<'a>(v: &'a Value, list: &str, r: &str) -> &'a Value {
    data(v)[list]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["ref"] == r)
        .unwrap_or_else(|| panic!("no {list} entry for {r}"))
}

fn assert_verdict(v: &Value, r: &str, verdict: &str, severity: &str) {
    let x = find(v, "results", r);
    assert_eq!(x["verdict"], verdict, "{r}: {x}");
    assert_eq!(x["severity"], severity, "{r}: {x}");
}

fn assert_skipped(v: &Value, refs: &[&str]) {
    for r in refs {
        let x = find(v, "skipped", r);
        assert!(
            x["reason"]
                .as_str()
                .unwrap()
                .contains("Artifacts this phase produces"),
            "{x}"
        );
        assert!(
            data(v)["results"]
                .as_array()
                .unwrap()
                .iter()
                .all(|y| y["ref"] != *r),
            "{r} is both skipped and checked"
        );
    }
}

fn assert_not_extracted(v: &Value, refs: &[&str]) {
    for r in refs {
        for list in ["results", "skipped"] {
            assert!(
                data(v)[list]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|y| y["ref"] != *r),
                "{r} unexpectedly in {list}"
            );
        }
    }
}

/// Facts each sample plan must show, asserted directly (independent of the golden files).
fn semantic_facts(name: &str, v: &Value) {
    const NA: &str = "needs-acknowledgement";
    match name {
        "python_ingest" => {
            for r in [
                "ingest.pipeline.load_config",
                "PipelineConfig.from_env",
                "ingest.sources.chunk_rows",
                "Pipeline.run_streaming",
                "pipeline.validate_schema",
                "--max-retries",
            ] {
                assert_verdict(v, r, "MISSING", NA);
            }
            assert_verdict(v, "Pipeline.add_stages", "MISSING", NA);
            assert_eq!(
                find(v, "results", "Pipeline.add_stages")["suggestions"][0],
                "add_stage"
            );
            assert_verdict(v, "normalize", "AMBIGUOUS", "medium");
            assert_eq!(
                find(v, "results", "normalize")["candidates"]
                    .as_array()
                    .unwrap()
                    .len(),
                2
            );
            assert_verdict(v, "ingest.plugins.json_plugin", "UNCHECKABLE", "info");
            for r in [
                "@retry",
                "--batch-size",
                "--dry-run",
                "docs/ingest.md",
                "PipelineConfig.batch_size",
                "BaseSource.read_rows",
                "CsvSource.read_rows",
            ] {
                assert_verdict(v, r, "VERIFIED", "none");
            }
            assert_eq!(
                find(v, "results", "PipelineConfig.batch_size")["kind"],
                "field"
            );
            assert_skipped(
                v,
                &[
                    "JsonSource",
                    "JsonSource.read_rows",
                    "JsonSource.open",
                    "stream_batches",
                    "--format",
                    "ingest/json_source.py",
                ],
            );
            // A code span that is one snake_case identifier is a citation; `None` is not.
            assert_verdict(v, "run_pipeline", "VERIFIED", "none");
            assert_not_extracted(v, &["None", "python", "json"]);
            // `path:name` is one reference; `path:LINE` cites the file.
            assert_verdict(v, "ingest/sources.py:normalize", "VERIFIED", "none");
            assert_eq!(
                occurrence_lines(find(v, "results", "ingest/pipeline.py")),
                [5, 41]
            );
            // The artifact is skipped where it is declared and where it is used.
            assert_eq!(
                occurrence_lines(find(v, "skipped", "stream_batches")),
                [32, 39]
            );
            // A new method on an existing class: the method is skipped, the class is not, and
            // neither are the other members cited (`Pipeline.add_stages` is a real finding).
            assert_skipped(v, &["Pipeline.flush"]);
            assert_eq!(
                occurrence_lines(find(v, "skipped", "Pipeline.flush")),
                [34, 41]
            );
            assert_verdict(v, "Pipeline", "VERIFIED", "none");
            assert_eq!(occurrence_lines(find(v, "results", "Pipeline")), [34]);
            assert_eq!(
                find(v, "skipped", "JsonSource.open")["artifact"],
                "JsonSource"
            );
        }
        "typescript_api" => {
            for r in [
                "OrderService.voidOrder",
                "@Transactional",
                "HttpServer.shutdown",
                "--grace-period",
            ] {
                assert_verdict(v, r, "MISSING", NA);
            }
            assert_verdict(v, "formatTotal", "AMBIGUOUS", "medium");
            for r in [
                "./src/routes/index.registerRoutes",
                "OrderService.findAll",
                "Order.status",
                "--port",
                "--log-level",
                "src/server.ts",
            ] {
                assert_verdict(v, r, "VERIFIED", "none");
            }
            assert_eq!(find(v, "results", "Order.status")["kind"], "field");
            assert_skipped(
                v,
                &[
                    "RefundService",
                    "RefundService.issueRefund",
                    "--refund-window",
                    "src/refunds.ts",
                ],
            );
            assert_eq!(
                occurrence_lines(find(v, "skipped", "RefundService.issueRefund")),
                [22, 33, 38],
                "artifact cited in the fenced block and rollout too, in line order"
            );
            assert_verdict(v, "src/routes/health.ts:healthCheck", "VERIFIED", "none");
            // A new camelCase field the plan does not list as an artifact.
            assert_verdict(v, "refundedAt", "MISSING", NA);
            assert_not_extracted(v, &["refund"]);
        }
        "rust_cache" => {
            for r in ["Store::purge_expired", "crate::store::compact", "@cached"] {
                assert_verdict(v, r, "MISSING", NA);
            }
            // serde's derive gives `serialize` only: the field the plan adds is not there yet.
            assert_verdict(v, "Stats::expired", "MISSING", NA);
            for r in [
                "Store::open",
                "Store.capacity",
                "Lru::pick",
                "store::disk::open",
                "crate::store::disk::flush_all",
                "--max-entries",
                "--data-dir",
                "src/store/mod.rs",
            ] {
                assert_verdict(v, r, "VERIFIED", "none");
            }
            assert_eq!(find(v, "results", "--data-dir")["kind"], "cli_flag");
            // `Policy` is named under the artifacts heading (`TtlPolicy` implementing `Policy`)
            // but exists: it and its members stay checked everywhere.
            assert_verdict(v, "Policy", "VERIFIED", "none");
            assert_eq!(occurrence_lines(find(v, "results", "Policy")), [6, 32]);
            assert_verdict(v, "Policy::pick", "VERIFIED", "none");
            assert_verdict(v, "expires_at", "MISSING", NA);
            // `count!` is the `macro_rules! count`; the derive path's crate is outside the
            // repository (UNCHECKABLE, never MISSING).
            assert_verdict(v, "count!", "VERIFIED", "none");
            assert_eq!(find(v, "results", "count!")["kind"], "macro");
            assert_eq!(
                find(v, "results", "count!")["location"],
                "src/eviction.rs:19:14"
            );
            assert_verdict(v, "#[derive(serde::Serialize)]", "UNCHECKABLE", "info");
            assert_eq!(
                find(v, "results", "#[derive(serde::Serialize)]")["reason"],
                "external: `serde` is not part of the repository (the crate of the derive macro `Serialize`)"
            );
            assert_eq!(occurrence_lines(find(v, "skipped", "--ttl-secs")), [27, 35]);
            assert_skipped(
                v,
                &[
                    "TtlPolicy",
                    "TtlPolicy::pick",
                    "Store::sweep",
                    "--ttl-secs",
                    "src/ttl.rs",
                ],
            );
        }
        "python_service" => {
            // Through the module alias `import service.handlers as api`, into the module.
            assert_verdict(v, "api.create_order", "VERIFIED", "none");
            assert_eq!(
                find(v, "results", "api.create_order")["location"],
                "service/handlers.py:4:5"
            );
            assert_verdict(v, "api.OrderHandler.handle", "VERIFIED", "none");
            assert_verdict(v, "api.cancel_order", "MISSING", NA);
            // `from . import handlers`: the module, not the import.
            assert_verdict(v, "service.handlers", "VERIFIED", "none");
            assert_eq!(find(v, "results", "service.handlers")["kind"], "module");
            assert_eq!(
                find(v, "results", "service.handlers")["location"],
                "service/handlers.py"
            );
            // Generated code: what it declares is VERIFIED, absence is not provable.
            assert_verdict(v, "orders_pb2.DESCRIPTOR", "VERIFIED", "none");
            for r in ["orders_pb2.Order", "orders_pb2.Refund", "Order.status"] {
                assert_verdict(v, r, "UNCHECKABLE", "info");
                let why = find(v, "results", r)["reason"].as_str().unwrap();
                assert!(
                    why.contains("generated") && why.contains("service/proto/orders_pb2.py"),
                    "{r}: {why}"
                );
            }
            // A decorator on a local value: the member rule of untyped values.
            assert_verdict(v, "@server.route", "UNCHECKABLE", "info");
            assert_verdict(v, "service.validation.validate_refund", "MISSING", NA);
            assert_skipped(v, &["api.issue_refund", "service/refunds.py"]);
            // A code span of words cites nothing.
            assert_not_extracted(v, &["Artifacts"]);
        }
        "rust_workspace" => {
            // Paths into another crate of the workspace resolve below its root, as `crate::`
            // paths do inside it (`store_core::LruCache` through the root's `pub use`).
            for (r, at) in [
                (
                    "store_core::LruCache::new",
                    "crates/store-core/src/cache/lru.rs:11:12",
                ),
                (
                    "store_core::cache::lru::LruCache",
                    "crates/store-core/src/cache/lru.rs:5:12",
                ),
                ("store_core::version", "crates/store-core/src/lib.rs:8:8"),
                (
                    "store_server::handlers::handle_get",
                    "crates/store-server/src/handlers.rs:3:8",
                ),
                // `use store_core::LruCache as Cache`: the struct's method.
                ("Cache::get", "crates/store-core/src/cache/lru.rs:15:12"),
            ] {
                assert_verdict(v, r, "VERIFIED", "none");
                assert_eq!(find(v, "results", r)["location"], at, "{r}");
            }
            for r in [
                "Cache::sweep",
                "store_core::metrics::hit_rate",
                "store_server::handlers::handle_health",
            ] {
                assert_verdict(v, r, "MISSING", NA);
            }
            assert_verdict(v, "tokio::spawn", "UNCHECKABLE", "info");
            assert_skipped(
                v,
                &[
                    "crates/store-core/src/cache/ttl.rs",
                    "TtlCache::insert",
                    "store_core::cache::ttl::TtlCache",
                ],
            );
        }
        "typescript_monorepo" => {
            // Path aliases of `apps/web/tsconfig.json` (comments, trailing commas, `extends`),
            // re-exports through them, the workspace package `@shop/ui` (its `dist/` entry is
            // not in the repository: its source is), classes imported under other names.
            for (r, at) in [
                (
                    "@/lib/format.formatPrice",
                    "apps/web/src/lib/format.ts:1:17",
                ),
                ("@/lib.formatPrice", "apps/web/src/lib/format.ts:1:17"),
                ("@/lib.Cart.addItem", "apps/web/src/lib/cart.ts:9:3"),
                ("@/lib", "apps/web/src/lib/index.ts"),
                ("@shop/ui", "packages/ui/src/index.ts"),
                ("@shop/ui.Button.render", "packages/ui/src/button.ts:4:3"),
                ("@shop/ui.Dialog.open", "packages/ui/src/modal.ts:2:3"),
                ("ShoppingCart.total", "apps/web/src/lib/cart.ts:13:3"),
                ("Dialog.close", "packages/ui/src/modal.ts:4:3"),
            ] {
                assert_verdict(v, r, "VERIFIED", "none");
                assert_eq!(find(v, "results", r)["location"], at, "{r}");
            }
            for r in [
                "@/lib/validate.isValidCode",
                "@shop/ui.Tooltip",
                "Dialog.dismiss",
                "ShoppingCart.removeItem",
            ] {
                assert_verdict(v, r, "MISSING", NA);
            }
            assert_verdict(v, "@shop/analytics.track", "UNCHECKABLE", "info");
            assert_verdict(v, "react.useState", "UNCHECKABLE", "info");
            assert_skipped(
                v,
                &[
                    "apps/web/src/lib/discount.ts",
                    "applyDiscount",
                    "Cart.applyCoupon",
                ],
            );
        }
        other => {
            panic!("corpus/plans/{other}: no semantic facts (add them to tests/drift_plans.rs)")
        }
    }
    // Common to every case.
    let s = &data(v)["summary"];
    let n = |k: &str| s[k].as_u64().unwrap();
    assert_eq!(
        n("checked"),
        data(v)["results"].as_array().unwrap().len() as u64
    );
    assert_eq!(
        n("verified") + n("missing") + n("ambiguous") + n("uncheckable"),
        n("checked")
    );
    assert_eq!(
        n("skipped"),
        data(v)["skipped"].as_array().unwrap().len() as u64
    );
    assert!(n("missing") > 0 && n("skipped") > 0);
    // Every list in order of first citation, every occurrence list in line order.
    for list in ["results", "skipped"] {
        let first: Vec<u64> = data(v)[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| occurrence_lines(x)[0])
            .collect();
        assert!(
            first.is_sorted(),
            "{name}: {list} not in plan order: {first:?}"
        );
        for x in data(v)[list].as_array().unwrap() {
            assert!(occurrence_lines(x).is_sorted(), "{name}: {x}");
            assert!(
                occurrence_lines(x).windows(2).all(|w| w[0] < w[1]),
                "{name}: one per line: {x}"
            );
        }
    }
    assert_eq!(s["hard_block"], false);
}

#[test]
fn drift_sample_plans() {
    let dirs = plan_dirs();
    assert!(dirs.len() >= 3, "corpus/plans holds at least 3 plans");
    let mut errs = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let case: Case = match std::fs::read_to_string(dir.join("case.toml")) {
            Ok(t) => toml::from_str(&t).unwrap_or_else(|e| panic!("{name}/case.toml: {e}")),
            Err(_) => Case::default(),
        };

        // JSON, without --fail-on: rung 2 never blocks.
        let (code, stdout) = drift(dir, &["--json"]);
        assert_eq!(code, 0, "{name}: drift --json exit code");
        let mut v: Value = crate::util::parse_output(&stdout);
        assert_eq!(data(&v)["plan"], rel(dir, "plan.md"));
        assert_eq!(data(&v)["root"], rel(dir, "repo"));
        assert_eq!(v["status"], "ok");
        let stats = v["data"]
            .as_object_mut()
            .unwrap()
            .remove("stats")
            .expect("stats");
        assert!(
            stats["files_parsed"].as_u64().unwrap() > 0,
            "{name}: {stats}"
        );
        assert_eq!(stats["cache_hits"], 0, "{name}: --no-cache: {stats}");
        assert_eq!(stats["cache_writes"], 0, "{name}: --no-cache: {stats}");
        semantic_facts(&name, &v);
        let coverage = data(&v)["coverage_markdown"].as_str().unwrap().to_owned();
        let json = serde_json::to_string_pretty(&v).unwrap() + "\n";
        golden(dir, "expected.json", &json, &mut errs);

        // Markdown: the same block as `coverage_markdown`.
        let (code, md) = drift(dir, &[]);
        assert_eq!(code, 0, "{name}: drift exit code");
        assert!(
            md.starts_with("### Verification coverage\n"),
            "{name}: {md}"
        );
        assert_eq!(
            md.trim_end(),
            coverage.trim_end(),
            "{name}: markdown vs coverage_markdown"
        );
        golden(dir, "expected.md", &md, &mut errs);

        // --fail-on.
        if let Some(sev) = &case.fail_on {
            let want = case.exit_code.expect("exit_code with fail_on");
            let (code, stdout) = drift(dir, &["--json", "--fail-on", sev]);
            assert_eq!(code, want, "{name}: --fail-on {sev}");
            let w: Value = crate::util::parse_output(&stdout);
            assert_eq!(
                w["status"],
                if want == 0 { "ok" } else { "not_clean" },
                "{name}: status with --fail-on {sev}"
            );
        }
    }
    assert!(errs.is_empty(), "{}", errs.join("\n\n"));
}
