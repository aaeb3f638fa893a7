//! One vocabulary for the session half (issue 23, point 1): the gate's `reason` is a
//! [`Blocker`], a run's phase a [`Phase`], the fix-acceptance record's signals, results and
//! verdict [`Signal`], [`SignalResult`] and [`Verdict`], each serialized to exactly the string it
//! was before; a value of a ledger this version does not know is kept verbatim; the ledger's
//! types keep their `probity::ledger::` paths after `ledger/schema.rs` was split.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use probity::events::{ExpectedProbe, RunIdentity, ValuesKey, analyze};
use probity::ledger::{
    ActiveRun, Artifact, ArtifactKind, ArtifactRoot, ArtifactStatus, Cleanup, CleanupItem,
    CleanupKind, Goal, Identity, Inconclusive, Ledger, MAX_REMOVED_ARTIFACTS_KEPT,
    MAX_REPRODUCTION_REF_BYTES, MAX_RUNS_KEPT, Mode, Observation, Phase, Policy, ProbeEntry,
    ProbeKind, ProbeStatus, RunRecord, RunStatus, SavedPolicy, State,
};
use probity::reason::Reason;
use probity::scan::Kind;
use probity::session::verification::{
    self, SIGNALS, Signal, SignalRecord, SignalResult, Verdict, Verification,
};
use probity::session::{Blocker, GateItem};

/// `v` as the JSON text probity prints.
fn text<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

#[test]
fn every_blocker_serializes_to_the_string_the_gate_printed_before() {
    let states = [
        (State::NotUsed, "not_used"),
        (State::Planned, "planned"),
        (State::Active, "active"),
        (State::CleanupPending, "cleanup_pending"),
        (State::Clean, "clean"),
        (State::CleanupFailed, "cleanup_failed"),
    ];
    let mut want: Vec<(Blocker, String)> = states
        .iter()
        .map(|(s, n)| (Blocker::State(*s), (*n).to_owned()))
        .collect();
    want.extend([
        (Blocker::ActiveRun, "active_run".to_owned()),
        (Blocker::ProbeRemaining, "probe_remaining".to_owned()),
        (Blocker::ArtifactRemaining, "artifact_remaining".to_owned()),
        (Blocker::ReconfirmPending, "reconfirm_pending".to_owned()),
        (Blocker::FileUnchecked, "file_unchecked".to_owned()),
    ]);
    for r in Reason::ALL {
        want.push((Blocker::Refused(*r), r.code().to_owned()));
    }
    for k in Kind::ALL {
        want.push((Blocker::Finding(*k), k.code().to_owned()));
    }
    // The codes a gate printed as literals, spelled out (a rename of a code would pass above).
    let literal = [
        (
            Blocker::Refused(Reason::LedgerUnreadable),
            "ledger_unreadable",
        ),
        (Blocker::Refused(Reason::LedgerInvalid), "ledger_invalid"),
        (
            Blocker::Refused(Reason::JournalUntrusted),
            "journal_untrusted",
        ),
        (
            Blocker::Finding(Kind::LeftoverUnledgered),
            "leftover_unledgered",
        ),
        (Blocker::Finding(Kind::OrphanMarker), "orphan_marker"),
        (Blocker::Finding(Kind::LeftoverOwned), "leftover_owned"),
        (
            Blocker::Finding(Kind::LeftoverModified),
            "leftover_modified",
        ),
    ];
    want.extend(literal.iter().map(|(b, s)| (*b, (*s).to_owned())));
    for (b, s) in &want {
        assert_eq!(text(b), format!("\"{s}\""), "{b:?}");
        assert_eq!(b.to_string(), *s, "{b:?}");
        assert_eq!(b.as_str(), s, "{b:?}");
    }
    // A gate item keeps its field order, `line` only when set.
    let item = GateItem {
        ledger: "l.json".into(),
        reason: Blocker::ActiveRun,
        detail: "run-1 never finished".into(),
        next: "probity cleanup --slug s".into(),
        line: None,
    };
    assert_eq!(
        text(&item),
        r#"{"ledger":"l.json","reason":"active_run","detail":"run-1 never finished","next":"probity cleanup --slug s"}"#
    );
}

/// A git work tree (the gate's root) with a session `s` whose ledger is `ledger`.
fn session_root() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    crate::util::git(dir.path(), &["init", "-q"]);
    let ledger = probity::ledger::ledger_path(dir.path(), "s");
    let target = probity::session::Target {
        ledger: Some(ledger.clone()),
        ..probity::session::Target::new("s")
    };
    probity::session::init(&target, Goal::FindAndFix, Policy::Adaptive).unwrap();
    (dir, ledger)
}

fn edit(path: &Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

/// The gate's items for `path`, as JSON text with the ledger path spelled `L` and the root
/// `R`.
fn gate_text(root: &Path, path: &Path) -> String {
    let items = probity::session::gate_ledgers(&[path.to_path_buf()]);
    text(&items)
        .replace(&path.display().to_string(), "L")
        .replace(&root.display().to_string(), "R")
}

#[test]
fn a_gate_on_each_blocker_of_a_ledger_prints_what_it_printed_before() {
    let (dir, ledger) = session_root();
    assert_eq!(gate_text(dir.path(), &ledger), "[]");
    edit(&ledger, |l| {
        l["state"] = json!("cleanup_failed");
        l["active_run"] = json!({
            "run_id": "run-3", "phase": "post_fix", "reproduction_ref": null,
            "sink_artifact_id": null, "started_at": "2020-01-01T00:00:00Z"
        });
        l["probes"] = json!([{
            "id": "p1", "kind": "source_probe", "slug": "s", "hypothesis_ids": ["h1"],
            "file": "a.py", "location": "a.py:3", "observes": [], "message": "entry",
            "max_events": 100, "max_event_bytes": 1024, "marker_start": null,
            "marker_end": null, "expected_block_sha256": null, "status": "active"
        }]);
        l["artifact_root"] = json!({
            "canonical_path": "/r",
            "identity": {"scheme": "posix_dev_ino", "volume_id": "1", "file_id": "2"}
        });
        l["pending_root"] = json!("/p");
        l["artifacts"] = json!([{
            "id": "sink-run-3", "kind": "sink", "name": "run-3.log", "identity": null,
            "status": "present"
        }]);
    });
    let next = "probity cleanup --slug s --root R";
    let item = |reason: &str, detail: &str| {
        format!(r#"{{"ledger":"L","reason":"{reason}","detail":"{detail}","next":"{next}"}}"#)
    };
    let want = [
        item("cleanup_failed", "session state is cleanup_failed"),
        item("active_run", "run-3 never finished"),
        item("probe_remaining", "p1 in a.py"),
        item("artifact_remaining", "sink-run-3 (run-3.log) in /r"),
        item("artifact_remaining", "capture root /r"),
        item(
            "artifact_remaining",
            "capture root /p (its creation was interrupted)",
        ),
    ];
    assert_eq!(
        gate_text(dir.path(), &ledger),
        format!("[{}]", want.join(","))
    );

    // A journal probity did not write, where journals lived before: `journal_untrusted`, whose
    // advice is to delete it.
    let mut planted = ledger.clone().into_os_string();
    planted.push(".reconfirm");
    std::fs::write(&planted, "{}").unwrap();
    let items = probity::session::gate_ledgers(std::slice::from_ref(&ledger));
    let last = items.last().unwrap();
    assert_eq!(last.reason, Blocker::Refused(Reason::JournalUntrusted));
    assert_eq!(text(&last.reason), "\"journal_untrusted\"");
    assert!(last.next.starts_with("delete the journal file"), "{last:?}");
    std::fs::remove_file(&planted).unwrap();

    // A ledger that does not read: its refusal's code.
    std::fs::write(&ledger, "{not json").unwrap();
    let items = probity::session::gate_ledgers(std::slice::from_ref(&ledger));
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(text(&items[0].reason), "\"ledger_unreadable\"");
    assert!(items[0].next.starts_with("repair or restore"), "{items:?}");
}

#[test]
fn a_marker_in_the_tree_blocks_as_its_finding_kind() {
    let (dir, ledger) = session_root();
    std::fs::write(
        dir.path().join("stray.py"),
        "x = 1\n# gsd-debug-probe:start zz q\ny = 2\n",
    )
    .unwrap();
    let r = probity::session::gate_root(dir.path(), None, false).unwrap();
    let reasons: Vec<String> = r.blocking.iter().map(|i| text(&i.reason)).collect();
    assert_eq!(reasons, ["\"orphan_marker\""], "{r:?}");
    assert_eq!(r.blocking[0].reason, Blocker::Finding(Kind::OrphanMarker));
    assert_eq!(r.blocking[0].line, Some(2));
    assert!(ledger.exists());
}

/// A record holding values of a newer writer: an unknown result, verdict and signal.
fn future_record() -> Value {
    json!({
        "target_test": {"result": "weird_result", "source": "caller", "recorded_at": "t"},
        "mutation_check": {"result": "skipped", "reason": "none", "source": "caller",
                           "recorded_at": "t", "extra": 1},
        "guardrail_verdict": "future_verdict",
        "rejected_signal": "future_signal",
        "unmet": ["future_signal", "adjacent_tests"],
        "accepted_debt": {"signal": "future_signal", "justification": "j", "recorded_at": "t"}
    })
}

#[test]
fn unknown_signals_results_and_verdicts_round_trip_verbatim() {
    let raw = future_record();
    let v: Verification = serde_json::from_value(raw.clone()).unwrap();
    assert_eq!(
        v.target_test.as_ref().unwrap().result,
        SignalResult::Other("weird_result".into())
    );
    assert_eq!(
        v.mutation_check.as_ref().unwrap().result,
        SignalResult::Skipped
    );
    assert_eq!(v.guardrail_verdict, Verdict::Other("future_verdict".into()));
    assert_eq!(
        v.rejected_signal,
        Some(Signal::Other("future_signal".into()))
    );
    assert_eq!(
        v.unmet,
        [Signal::Other("future_signal".into()), Signal::AdjacentTests]
    );
    assert_eq!(serde_json::to_value(&v).unwrap(), raw);
    // Field order as before: the signals, then the verdict, `rejected_signal`, `unmet`, debt.
    let t = text(&v);
    let at = |k: &str| t.find(&format!("\"{k}\"")).unwrap();
    assert!(at("mutation_check") < at("guardrail_verdict"), "{t}");
    assert!(at("guardrail_verdict") < at("rejected_signal"), "{t}");
    assert!(at("unmet") < at("accepted_debt"), "{t}");
    // A record without a verdict reads as the empty name, printed as read.
    let bare: Verification = serde_json::from_value(json!({})).unwrap();
    assert_eq!(bare.guardrail_verdict.as_str(), "");
    assert_eq!(
        text(&bare),
        r#"{"guardrail_verdict":"","rejected_signal":null,"unmet":[]}"#
    );
}

#[test]
fn names_parse_to_the_known_variants() {
    let names: Vec<&str> = SIGNALS.iter().map(Signal::as_str).collect();
    assert_eq!(
        names,
        [
            "target_test",
            "mutation_check",
            "no_op_deletion",
            "adjacent_tests",
            "revert_and_reconfirm"
        ]
    );
    assert_eq!(Signal::NAMES, names.as_slice());
    for s in SIGNALS {
        assert_eq!(Signal::from(s.as_str()), s);
    }
    for (r, n) in [
        (SignalResult::Pass, "pass"),
        (SignalResult::Fail, "fail"),
        (SignalResult::Flagged, "flagged"),
        (SignalResult::Skipped, "skipped"),
        (SignalResult::Inconclusive, "inconclusive"),
    ] {
        assert_eq!(text(&r), format!("\"{n}\""));
        assert_eq!(SignalResult::from(n), r);
    }
    for (v, n) in [
        (Verdict::Accepted, "accepted"),
        (Verdict::Rejected, "rejected"),
        (Verdict::AcceptedDebt, "accepted_debt"),
        (Verdict::Incomplete, "incomplete"),
    ] {
        assert_eq!(text(&v), format!("\"{n}\""));
        assert_eq!(Verdict::from(n), v);
    }
    for (p, n) in [
        (Phase::Baseline, "baseline"),
        (Phase::PostFix, "post_fix"),
        (Phase::UninstrumentedVerify, "uninstrumented_verify"),
    ] {
        assert_eq!(Phase::from(n), p);
    }
    assert_eq!(Phase::from("later"), Phase::Other("later".into()));
}

fn rec(result: SignalResult) -> SignalRecord {
    SignalRecord {
        result,
        reason: Some("why".into()),
        source: "caller".into(),
        recorded_at: String::new(),
        details: serde_json::Map::new(),
    }
}

#[test]
fn the_verdict_is_recomputed_from_the_typed_results() {
    let mut v = Verification::default();
    v.recompute();
    assert_eq!(v.guardrail_verdict, Verdict::Incomplete);
    assert_eq!(v.unmet, SIGNALS);
    for s in &SIGNALS {
        v = with(v, s, SignalResult::Pass);
    }
    v.recompute();
    assert_eq!(
        (&v.guardrail_verdict, &v.rejected_signal),
        (&Verdict::Accepted, &None)
    );
    // Skipped where the guardrail needs it: incomplete; where it may be: still accepted.
    v = with(v, &Signal::MutationCheck, SignalResult::Skipped);
    v.recompute();
    assert_eq!(v.guardrail_verdict, Verdict::Accepted);
    v = with(v, &Signal::NoOpDeletion, SignalResult::Skipped);
    v.recompute();
    assert_eq!(v.guardrail_verdict, Verdict::Incomplete);
    assert_eq!(v.unmet, [Signal::NoOpDeletion]);
    // Inconclusive is never a pass, whatever the signal.
    v = with(v, &Signal::NoOpDeletion, SignalResult::Pass);
    v = with(v, &Signal::TargetTest, SignalResult::Inconclusive);
    v.recompute();
    assert_eq!(v.unmet, [Signal::TargetTest]);
    // Nor is a result this version does not know, even on a signal that may be skipped: an
    // edited ledger cannot turn a missing signal into `accepted`.
    v = with(v, &Signal::TargetTest, SignalResult::Pass);
    v = with(
        v,
        &Signal::MutationCheck,
        SignalResult::Other("passed".into()),
    );
    v.recompute();
    assert_eq!(v.guardrail_verdict, Verdict::Incomplete);
    assert_eq!(v.unmet, [Signal::MutationCheck]);
    v = with(v, &Signal::MutationCheck, SignalResult::Pass);
    v = with(v, &Signal::TargetTest, SignalResult::Inconclusive);
    // The first failing signal rejects, before anything unmet.
    v = with(v, &Signal::AdjacentTests, SignalResult::Flagged);
    v.recompute();
    assert_eq!(v.guardrail_verdict, Verdict::Rejected);
    assert_eq!(v.rejected_signal, Some(Signal::AdjacentTests));
    // Debt set aside: accepted_debt, naming it.
    v = with(v, &Signal::TargetTest, SignalResult::Pass);
    v.accepted_debt = Some(verification::Debt {
        signal: Signal::AdjacentTests,
        justification: "flaky".into(),
        recorded_at: String::new(),
    });
    v.recompute();
    assert_eq!(v.guardrail_verdict, Verdict::AcceptedDebt);
    assert_eq!(v.rejected_signal, Some(Signal::AdjacentTests));
    assert_eq!(text(&v.guardrail_verdict), "\"accepted_debt\"");
}

/// `v` with `signal` recorded as `result`, through its JSON (the record's only setter is the
/// ledger update).
fn with(v: Verification, signal: &Signal, result: SignalResult) -> Verification {
    let mut j = serde_json::to_value(&v).unwrap();
    j[signal.as_str()] = serde_json::to_value(rec(result)).unwrap();
    serde_json::from_value(j).unwrap()
}

#[test]
fn recording_keeps_unknown_values_and_refuses_unknown_names() {
    let (_dir, ledger) = session_root();
    edit(&ledger, |l| l["verification"] = future_record());
    let v =
        verification::record_signal(&ledger, "s", &Signal::NoOpDeletion, rec(SignalResult::Pass))
            .unwrap();
    // Recomputed: the debt's unknown signal set aside, two signals still unrecorded, and the
    // unknown result `weird_result` not met (fail-closed).
    assert_eq!(v.guardrail_verdict, Verdict::Incomplete);
    assert_eq!(
        v.unmet,
        [
            Signal::TargetTest,
            Signal::AdjacentTests,
            Signal::RevertAndReconfirm
        ]
    );
    let on_disk: Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    let r = &on_disk["verification"];
    assert_eq!(r["target_test"]["result"], "weird_result", "{r}");
    assert_eq!(r["mutation_check"]["extra"], 1, "{r}");
    assert_eq!(r["accepted_debt"]["signal"], "future_signal", "{r}");
    assert_eq!(r["rejected_signal"], Value::Null, "{r}");
    assert_eq!(r["guardrail_verdict"], "incomplete", "{r}");
    assert_eq!(
        r["unmet"],
        json!(["target_test", "adjacent_tests", "revert_and_reconfirm"]),
        "{r}"
    );
    assert_eq!(r["no_op_deletion"]["result"], "pass", "{r}");

    let before = std::fs::read(&ledger).unwrap();
    let refused = |e: probity::Error| e.reason;
    let e =
        verification::record_signal(&ledger, "s", &Signal::from("nope"), rec(SignalResult::Pass))
            .unwrap_err();
    assert_eq!(refused(e), Reason::InvalidArgument);
    let e = verification::record_signal(
        &ledger,
        "s",
        &Signal::TargetTest,
        rec(SignalResult::from("meh")),
    )
    .unwrap_err();
    assert_eq!(refused(e), Reason::InvalidArgument);
    let mut silent = rec(SignalResult::Inconclusive);
    silent.reason = Some("  ".into());
    let e = verification::record_signal(&ledger, "s", &Signal::TargetTest, silent).unwrap_err();
    assert_eq!(refused(e), Reason::InvalidArgument);
    let e = verification::accept_debt(&ledger, "s", &Signal::from("nope"), "j").unwrap_err();
    assert_eq!(refused(e), Reason::InvalidArgument);
    assert_eq!(
        std::fs::read(&ledger).unwrap(),
        before,
        "a refusal writes nothing"
    );
}

/// One event line of probe `p` of session `s`, run `run-1`, in `phase`.
fn event(phase: &str) -> String {
    let e = json!({
        "schema_version": 1, "session_id": "s", "run_id": "run-1", "probe_id": "p",
        "hypothesis_ids": ["h1"], "phase": phase, "ordinal": 1, "location": "a.py:1",
        "message": "entry", "data": {"x": 1}, "timestamp": 1.5, "pid": 7
    });
    format!("GSDDBG1 {e}\n")
}

#[test]
fn an_event_counts_only_in_the_phase_of_its_run() {
    let probes = [ExpectedProbe {
        id: "p".into(),
        hypothesis_ids: vec!["h1".into()],
        control: false,
    }];
    let key = ValuesKey::from_bytes([7; 32]);
    let judge = |run_phase: Phase, event_phase: &str| {
        let run = RunIdentity {
            session_id: "s".into(),
            run_id: "run-1".into(),
            phase: run_phase,
        };
        analyze(event(event_phase).as_bytes(), &run, &probes, &key).observations["p"].clone()
    };
    assert!(matches!(
        judge(Phase::Baseline, "baseline"),
        Observation::Observed { event_count: 1, .. }
    ));
    assert!(matches!(
        judge(Phase::PostFix, "post_fix"),
        Observation::Observed { .. }
    ));
    for (run, ev) in [
        (Phase::Baseline, "post_fix"),
        (Phase::PostFix, "baseline"),
        (Phase::Baseline, "Baseline"),
        (Phase::Baseline, "later"),
    ] {
        assert_eq!(
            judge(run.clone(), ev),
            Observation::Inconclusive {
                reason: Inconclusive::IdentityMismatch
            },
            "{run} vs {ev}"
        );
    }
}

#[test]
fn the_split_ledger_schema_keeps_its_paths_and_round_trips() {
    // Every type named through `probity::ledger::`, as before the split.
    let l = Ledger {
        schema_version: 1,
        slug: Some("s".into()),
        goal: Some(Goal::Other("later_goal".into())),
        policy: Some(SavedPolicy::Known(Policy::Off)),
        state: Some(State::Active),
        mode: Some(Mode::SourceProbes),
        active_run: Some(ActiveRun {
            run_id: "run-2".into(),
            phase: Phase::Other("later_phase".into()),
            reproduction_ref: None,
            sink_artifact_id: None,
            started_at: "t".into(),
            pgid: None,
            pgid_start_ticks: None,
        }),
        artifact_root: Some(ArtifactRoot {
            canonical_path: "/r".into(),
            identity: Identity {
                scheme: "posix_dev_ino".into(),
                volume_id: "1".into(),
                file_id: "2".into(),
            },
        }),
        artifacts: vec![Artifact {
            id: "a".into(),
            kind: ArtifactKind::Other("later_kind".into()),
            name: "n".into(),
            identity: None,
            status: ArtifactStatus::Occupied,
        }],
        runs: vec![RunRecord {
            run_id: "run-1".into(),
            phase: Phase::Baseline,
            reproduction_ref: None,
            started_at: "t".into(),
            ended_at: None,
            status: RunStatus::Other("later_status".into()),
            exit_code: None,
            sink_bytes: 0,
            sink_lines: 0,
            observations: Default::default(),
        }],
        probes: vec![ProbeEntry {
            id: "p".into(),
            kind: ProbeKind::Passive,
            slug: "s".into(),
            hypothesis_ids: vec!["h1".into()],
            file: None,
            location: None,
            observes: vec![],
            message: "entry".into(),
            max_events: 1,
            max_event_bytes: 1,
            marker_start: None,
            marker_end: None,
            expected_block_sha256: None,
            expected_block_token_sha256: None,
            status: ProbeStatus::Planned,
            rest: Default::default(),
        }],
        cleanup: Some(Cleanup {
            failure: Some(vec![CleanupItem {
                kind: CleanupKind::Copy,
                id: "p".into(),
                reason: Reason::MarkerRemaining,
                detail: "d".into(),
            }]),
            ..Cleanup::default()
        }),
        ..Ledger::default()
    };
    let once = text(&l);
    let back: Ledger = serde_json::from_str(&once).unwrap();
    assert_eq!(text(&back), once);
    for s in [
        "\"later_goal\"",
        "\"later_phase\"",
        "\"later_kind\"",
        "\"later_status\"",
    ] {
        assert!(once.contains(s), "{s} in {once}");
    }
    assert_eq!(
        Phase::NAMES,
        ["baseline", "post_fix", "uninstrumented_verify"]
    );
    assert_eq!(MAX_REMOVED_ARTIFACTS_KEPT, 3 * MAX_RUNS_KEPT);
    assert_eq!(MAX_REPRODUCTION_REF_BYTES, 512);
}
