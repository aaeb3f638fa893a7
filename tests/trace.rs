//! `probity trace inspect` (issue 16, docs/trace.md): fixture traces written from Codex's
//! published `codex exec --json` event format (codex-rs/exec/src/exec_events.rs), checked for
//! counts, checks, reason codes and exit codes. Hostile inputs are generated at test time.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{data, probity, repo_root};

fn fixture(name: &str) -> PathBuf {
    repo_root().join("tests/fixtures/trace").join(name)
}

/// `probity trace inspect <trace> --json <args>`: (exit code, JSON document).
fn inspect(trace: &Path, args: &[&str]) -> (i32, Value) {
    let out = probity()
        .args(["trace", "inspect"])
        .arg(trace)
        .arg("--json")
        .args(args)
        .output()
        .unwrap();
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    (out.status.code().unwrap(), v)
}

/// The check named `name` of a report.
fn check<'a>(v: &'a Value, name: &str) -> &'a Value {
    data(v)["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == name)
        .unwrap_or_else(|| panic!("no check {name}: {v}"))
}

/// The reason codes of the failed checks, in order.
fn failed(v: &Value) -> Vec<String> {
    data(v)["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["ok"] == false)
        .map(|c| c["reason"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn complete_trace_counts_actions_commands_files_and_usage() {
    let (code, v) = inspect(&fixture("complete.jsonl"), &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["schema_version"], 2);
    assert_eq!(v["command"], "trace inspect");
    assert_eq!(data(&v)["probity_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(data(&v)["status"], "pass");
    assert_eq!(data(&v)["lines"], 18);
    assert_eq!(data(&v)["turns"]["started"], 2);
    assert_eq!(data(&v)["turns"]["completed"], 2);
    assert_eq!(data(&v)["turns"]["failed"], 0);
    // command_execution x2, file_change, mcp_tool_call, web_search; not reasoning, todo_list or
    // the agent messages.
    assert_eq!(data(&v)["actions"], 5);
    assert_eq!(data(&v)["items"]["total"], 9);
    let by_type = &data(&v)["items"]["by_type"];
    assert_eq!(by_type["command_execution"], 2);
    assert_eq!(by_type["agent_message"], 2);
    assert_eq!(by_type["todo_list"], 1);
    assert_eq!(by_type["reasoning"], 1);
    assert_eq!(by_type["web_search"], 1);
    assert_eq!(data(&v)["items"]["unknown_types"], serde_json::json!({}));
    let cmds = data(&v)["commands"].as_array().unwrap();
    assert_eq!(cmds.len(), 2);
    assert_eq!(cmds[0]["command"], "bash -lc ls");
    assert_eq!(cmds[0]["exit_code"], 0);
    assert_eq!(cmds[1]["exit_code"], 1);
    assert_eq!(cmds[1]["status"], "failed");
    let files: Vec<&str> = data(&v)["files_changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["/repo/src/lib.rs", "/repo/NOTES.md"]);
    assert_eq!(data(&v)["files_changed"][1]["kind"], "add");
    // Summed over both turns.
    assert_eq!(data(&v)["usage"]["input_tokens"], 25763);
    assert_eq!(data(&v)["usage"]["cached_input_tokens"], 25248);
    assert_eq!(data(&v)["usage"]["output_tokens"], 142);
    assert_eq!(data(&v)["final_message"], "Done.\nROUTE: accepted");
    assert_eq!(data(&v)["malformed"], serde_json::json!([]));
    assert!(failed(&v).is_empty());
}

#[test]
fn semantic_review_notice_and_caller_facts_in_both_outputs() {
    let (_, v) = inspect(
        &fixture("complete.jsonl"),
        &[
            "--model",
            "gpt-5-codex",
            "--tool-version",
            "codex-cli 0.46.0",
            "--prompt",
            "route the cart bug",
            "--target",
            "demo@abc123",
        ],
    );
    assert_eq!(data(&v)["semantic_review_required"], true);
    assert!(
        data(&v)["notice"]
            .as_str()
            .unwrap()
            .contains("semantic review")
    );
    assert_eq!(data(&v)["caller"]["model"], "gpt-5-codex");
    assert_eq!(data(&v)["caller"]["tool_version"], "codex-cli 0.46.0");
    assert_eq!(data(&v)["caller"]["prompt"], "route the cart bug");
    assert_eq!(data(&v)["caller"]["target"], "demo@abc123");
    // Not given: recorded as null, never guessed from the trace.
    let (_, v) = inspect(&fixture("complete.jsonl"), &[]);
    assert_eq!(data(&v)["caller"]["model"], Value::Null);

    let out = probity()
        .args(["trace", "inspect"])
        .arg(fixture("complete.jsonl"))
        .args(["--model", "gpt-5-codex"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("semantic review is still required"), "{text}");
    assert!(text.contains("gpt-5-codex"), "{text}");
    // A failing trace says it too.
    let out = probity()
        .args(["trace", "inspect"])
        .arg(fixture("failed_turn.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("semantic review is still required"), "{text}");
    assert!(text.contains("trace_turn_failed"), "{text}");
}

#[test]
fn failed_turn_fails_closed() {
    let (code, v) = inspect(&fixture("failed_turn.jsonl"), &[]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(data(&v)["status"], "fail");
    assert_eq!(data(&v)["turns"]["failed"], 1);
    assert_eq!(data(&v)["turns"]["completed"], 0);
    assert_eq!(check(&v, "turn_completed")["reason"], "trace_turn_failed");
    assert_eq!(
        check(&v, "agent_message")["reason"],
        "trace_no_agent_message"
    );
    assert_eq!(data(&v)["final_message"], Value::Null);
    // The command that never completed is still an action.
    assert_eq!(data(&v)["actions"], 1);
    assert_eq!(data(&v)["commands"][0]["exit_code"], Value::Null);
    let errors = data(&v)["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2);
    assert_eq!(errors[0]["line"], 4);
    assert_eq!(errors[1]["line"], 5);
    assert_eq!(
        errors[1]["message"],
        "stream disconnected before completion"
    );
    assert_eq!(data(&v)["semantic_review_required"], true);
}

#[test]
fn trace_without_a_turn_or_message_fails_closed() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let (code, v) = inspect(&empty, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        failed(&v),
        ["trace_turn_incomplete", "trace_no_agent_message"]
    );
    // A turn completed, but the only agent message never did.
    let p = dir.path().join("started_only.jsonl");
    std::fs::write(
        &p,
        concat!(
            "{\"type\":\"turn.started\"}\n",
            "{\"type\":\"item.started\",\"item\":{\"id\":\"m\",\"type\":\"agent_message\",\"text\":\"hi\"}}\n",
            "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":1,\"cached_input_tokens\":0,\"output_tokens\":1}}\n",
        ),
    )
    .unwrap();
    let (code, v) = inspect(&p, &[]);
    assert_eq!(code, 1);
    assert_eq!(failed(&v), ["trace_no_agent_message"]);
}

#[test]
fn unknown_item_types_are_counted_as_actions_and_listed() {
    let (code, v) = inspect(&fixture("unknown_types.jsonl"), &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["actions"], 3);
    assert_eq!(
        data(&v)["items"]["unknown_types"],
        serde_json::json!({"browser_action": 1, "image_generation": 2})
    );
    assert_eq!(data(&v)["items"]["by_type"]["image_generation"], 2);
    assert_eq!(
        data(&v)["other_events"],
        serde_json::json!({"item.plan.delta": 1, "request_user_input": 1})
    );
    assert_eq!(data(&v)["malformed"], serde_json::json!([]));
    assert_eq!(data(&v)["usage"]["input_tokens"], 500);
}

#[test]
fn duplicate_item_ids_count_once() {
    let (code, v) = inspect(&fixture("duplicate_ids.jsonl"), &[]);
    assert_eq!(code, 0, "{v}");
    // item_0 (started, updated, completed twice), item_1, item_2 (started only).
    assert_eq!(data(&v)["actions"], 3);
    assert_eq!(data(&v)["items"]["by_type"]["command_execution"], 2);
    let cmds = data(&v)["commands"].as_array().unwrap();
    assert_eq!(cmds.len(), 2);
    assert_eq!(cmds[0]["id"], "item_0");
    assert_eq!(cmds[0]["exit_code"], 0);
    assert_eq!(cmds[0]["status"], "completed");
    assert_eq!(cmds[1]["status"], "in_progress");
    assert_eq!(data(&v)["items"]["by_type"]["mcp_tool_call"], 1);
    let (code, v) = inspect(&fixture("duplicate_ids.jsonl"), &["--max-actions", "2"]);
    assert_eq!(code, 1);
    assert_eq!(failed(&v), ["trace_ceiling_exceeded"]);
}

#[test]
fn truncated_last_line_is_reported_with_its_number() {
    let (code, v) = inspect(&fixture("truncated.jsonl"), &[]);
    assert_eq!(code, 1, "{v}");
    let bad = data(&v)["malformed"].as_array().unwrap();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0]["line"], 5);
    assert_eq!(data(&v)["malformed_total"], 1);
    assert_eq!(check(&v, "well_formed")["reason"], "trace_malformed_line");
    // The cut line was the turn's end: the turn is not completed either.
    assert_eq!(
        check(&v, "turn_completed")["reason"],
        "trace_turn_incomplete"
    );
    // What came before the cut is still counted.
    assert_eq!(data(&v)["actions"], 1);
    assert_eq!(data(&v)["final_message"], "ROUTE: accepted");
}

#[test]
fn every_malformed_line_is_reported_with_its_number() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.jsonl");
    let mut bytes = std::fs::read(fixture("complete.jsonl")).unwrap();
    bytes.extend_from_slice(b"not json\n");
    bytes.extend_from_slice(b"[1,2]\n");
    bytes.extend_from_slice(b"{\"kind\":\"turn.started\"}\n");
    bytes.extend_from_slice(b"{\"type\":\"item.completed\",\"item\":{\"type\":\"reasoning\"}}\n");
    bytes.extend_from_slice(b"{\"type\":\"item.completed\",\"item\":{\"id\":\"c\",\"type\":\"command_execution\",\"command\":\"ls\",\"exit_code\":\"zero\"}}\n");
    bytes.extend_from_slice(b"{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":-5}}\n");
    bytes.extend_from_slice(b"{\"type\":\"turn.started\",\"x\":\"\xff\"}\n");
    bytes.extend_from_slice(b"\n");
    std::fs::write(&p, bytes).unwrap();
    let (code, v) = inspect(&p, &[]);
    assert_eq!(code, 1, "{v}");
    let lines: Vec<u64> = data(&v)["malformed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [19, 20, 21, 22, 23, 24, 25]);
    assert_eq!(failed(&v), ["trace_malformed_line"]);
    // The malformed usage line added nothing.
    assert_eq!(data(&v)["usage"]["input_tokens"], 25763);
}

#[test]
fn hostile_100_mb_line_is_refused_with_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("hostile.jsonl");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
        f.write_all(b"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n")
            .unwrap();
        f.write_all(b"{\"type\":\"item.completed\",\"item\":{\"id\":\"m\",\"type\":\"agent_message\",\"text\":\"")
            .unwrap();
        let chunk = vec![b'A'; 1 << 20];
        for _ in 0..100 {
            f.write_all(&chunk).unwrap();
        }
        f.write_all(b"\"}}\n").unwrap();
        f.flush().unwrap();
    }
    assert!(std::fs::metadata(&p).unwrap().len() > 100 << 20);
    // The data segment is capped well below the line: reading it whole would abort.
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("probity"));
    cmd.args(["trace", "inspect"]).arg(&p).arg("--json");
    // SAFETY: only setrlimit, async-signal-safe, between fork and exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 48 << 20,
                rlim_max: 48 << 20,
            };
            if libc::setrlimit(libc::RLIMIT_DATA, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let v: Value = crate::util::parse_output(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(v["status"], "refused");
    assert_eq!(v["reason"], "trace_line_too_long");
    assert!(v["detail"].as_str().unwrap().starts_with("line 2:"), "{v}");
}

#[test]
fn too_many_lines_and_too_many_bytes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("lines.jsonl");
    std::fs::write(&p, "\n".repeat(probity::trace::MAX_TRACE_LINES + 1)).unwrap();
    let (code, v) = inspect(&p, &[]);
    assert_eq!(code, 2);
    assert_eq!(v["reason"], "trace_too_large");
    // A sparse file over the byte bound: refused before a byte of it is read.
    let p = dir.path().join("big.jsonl");
    let f = std::fs::File::create(&p).unwrap();
    f.set_len(probity::trace::MAX_TRACE_BYTES + 1).unwrap();
    let (code, v) = inspect(&p, &[]);
    assert_eq!(code, 2);
    assert_eq!(v["reason"], "trace_too_large");
}

#[test]
fn unreadable_inputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (code, v) = inspect(&dir.path().join("absent.jsonl"), &[]);
    assert_eq!(code, 2);
    assert_eq!(v["reason"], "file_not_found");
    let (code, v) = inspect(dir.path(), &[]);
    assert_eq!(code, 2);
    assert_eq!(v["reason"], "not_regular_file");
}

#[test]
fn require_and_forbid_are_exact_and_read_only_the_final_message() {
    let t = fixture("complete.jsonl");
    let (code, v) = inspect(&t, &["--require", "ROUTE: accepted"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(check(&v, "require")["ok"], true);
    // Case-sensitive.
    let (code, v) = inspect(&t, &["--require", "route: accepted"]);
    assert_eq!(code, 1);
    assert_eq!(failed(&v), ["trace_required_text_missing"]);
    // Only in an earlier message: not in the final one.
    let (code, v) = inspect(&t, &["--require", "Looking at the tree"]);
    assert_eq!(code, 1);
    assert_eq!(failed(&v), ["trace_required_text_missing"]);
    let (code, _) = inspect(&t, &["--forbid", "ROUTE: rejected"]);
    assert_eq!(code, 0);
    let (code, v) = inspect(&t, &["--forbid", "ROUTE"]);
    assert_eq!(code, 1);
    assert_eq!(failed(&v), ["trace_forbidden_text_present"]);
    // Repeatable; each literal is its own check.
    let (code, v) = inspect(
        &t,
        &[
            "--require",
            "Done.",
            "--require",
            "ROUTE: accepted",
            "--forbid",
            "no",
        ],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["checks"].as_array().unwrap().len(), 6);
    // With no final message, neither can hold.
    let (code, v) = inspect(&fixture("failed_turn.jsonl"), &["--forbid", "x"]);
    assert_eq!(code, 1);
    assert_eq!(check(&v, "forbid")["reason"], "trace_no_agent_message");
}

#[test]
fn ceilings_pass_at_the_bound_and_fail_above_it() {
    let t = fixture("complete.jsonl");
    for (flag, at, below) in [
        ("--max-actions", "5", "4"),
        ("--max-input-tokens", "25763", "25762"),
        ("--max-output-tokens", "142", "141"),
    ] {
        let (code, v) = inspect(&t, &[flag, at]);
        assert_eq!(code, 0, "{flag} {at}: {v}");
        let (code, v) = inspect(&t, &[flag, below]);
        assert_eq!(code, 1, "{flag} {below}: {v}");
        assert_eq!(failed(&v), ["trace_ceiling_exceeded"], "{flag}");
    }
    let (_, v) = inspect(&t, &["--max-input-tokens", "25762"]);
    let c = check(&v, "max_input_tokens");
    assert_eq!(c["limit"], 25762);
    assert_eq!(c["value"], 25763);
}

#[test]
fn token_ceilings_without_usage_fail_closed() {
    let t = fixture("no_usage.jsonl");
    let (code, v) = inspect(&t, &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(data(&v)["usage"]["input_tokens"], Value::Null);
    assert_eq!(data(&v)["usage"]["turns_without_usage"], 1);
    // The action ceiling needs no usage.
    let (code, _) = inspect(&t, &["--max-actions", "1"]);
    assert_eq!(code, 0);
    for flag in ["--max-input-tokens", "--max-output-tokens"] {
        let (code, v) = inspect(&t, &[flag, "1000000"]);
        assert_eq!(code, 1, "{flag}");
        assert_eq!(failed(&v), ["trace_usage_missing"], "{flag}");
    }
    // A failed turn has no usage either: the ceiling fails closed, it does not pass at zero.
    let (code, v) = inspect(&fixture("failed_turn.jsonl"), &["--max-input-tokens", "1"]);
    assert_eq!(code, 1);
    assert_eq!(
        check(&v, "max_input_tokens")["reason"],
        "trace_usage_missing"
    );
    // One turn with usage and one without: the sum is not known, so it fails closed too.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("mixed.jsonl");
    let mut bytes = std::fs::read(fixture("complete.jsonl")).unwrap();
    bytes.extend_from_slice(&std::fs::read(&t).unwrap());
    std::fs::write(&p, bytes).unwrap();
    let (code, v) = inspect(&p, &["--max-output-tokens", "1000000"]);
    assert_eq!(code, 1);
    assert_eq!(failed(&v), ["trace_usage_missing"]);
}

#[test]
fn bad_ceiling_values_are_usage_errors() {
    let out = probity()
        .args(["trace", "inspect"])
        .arg(fixture("complete.jsonl"))
        .args(["--max-actions", "-1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn human_output_escapes_control_characters_from_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("esc.jsonl");
    std::fs::write(
        &p,
        "{\"type\":\"item.completed\",\"item\":{\"id\":\"a\",\"type\":\"command_execution\",\"command\":\"echo \\u001b[2Jgone\",\"exit_code\":0}}\n",
    )
    .unwrap();
    let out = probity()
        .args(["trace", "inspect"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stdout.contains(&0x1b), "raw escape printed");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("echo \\u{1b}[2Jgone"), "{text}");
}
