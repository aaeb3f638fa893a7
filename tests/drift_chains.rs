//! Drift guard on real code (issue 10, second pass): chains through a value
//! (`Subscription.EMPTY.add`), `X.prototype.m.call`, `path:name` citations of a non-exported
//! declaration, and slash-separated tokens that are not repository paths. Each verdict comes
//! with an invented sibling that stays MISSING.

use serde_json::Value;

use crate::util::{Repo, drift_plan, resolve_all};

#[track_caller]
fn verdict(v: &Value, want: &str) {
    assert_eq!(v["verdict"], want, "{v:#}");
}

#[track_caller]
fn uncheckable(v: &Value, reason_part: &str) {
    assert_eq!(v["verdict"], "UNCHECKABLE", "{v:#}");
    let why = v["reason"].as_str().unwrap_or("");
    assert!(
        why.contains(reason_part),
        "{why:?} lacks {reason_part:?}: {v:#}"
    );
}

fn ts_repo() -> Repo {
    let r = Repo::new();
    r.write(
        "src/Subscription.ts",
        "export class Subscription {\n  public static EMPTY = (() => { const e = new Subscription(); return e; })();\n  add(x: number): void {}\n}\n",
    );
    r.write(
        "src/core/reaction.ts",
        "export class Reaction {\n  runReaction_() {}\n}\nconst MAX_REACTION_ITERATIONS = 100\n",
    );
    r
}

/// A prefix resolving to a field (a value, not a container): the rest is a member of a value
/// of unknown type, never MISSING for not being a container chain; an undeclared middle stays
/// MISSING.
#[test]
fn chain_through_a_value() {
    let r = ts_repo();
    let v = resolve_all(
        &r,
        &[
            "Subscription.EMPTY.add",
            "Subscription.EMPTY.closedNow",
            "Subscription.NOPE.add",
        ],
    );
    // `add` is declared by a class of the repository: the untyped-value rule finds it.
    assert_eq!(v[0]["verdict"], "VERIFIED", "{:#}", v[0]);
    uncheckable(&v[1], "`Subscription.EMPTY` is a value");
    verdict(&v[2], "MISSING");
}

/// `X.prototype.m.call` / `.apply` / `.bind`: a Function built-in of a resolved method.
#[test]
fn prototype_method_call() {
    let r = ts_repo();
    let v = resolve_all(
        &r,
        &[
            "Reaction.prototype.runReaction_.call",
            "Reaction.prototype.runReaction_.bind",
            "Reaction.runReaction_.apply",
            "Reaction.prototype.nope.call",
        ],
    );
    // `call` belongs to every function: the reference holds where the method is declared.
    for x in &v[..3] {
        verdict(x, "VERIFIED");
        assert_eq!(x["location"], "src/core/reaction.ts:2:3", "{x:#}");
    }
    verdict(&v[3], "MISSING");
}

/// `path:name` names the file itself: any top-level declaration of it counts, exported or not.
#[test]
fn path_name_finds_private_top_level() {
    let r = ts_repo();
    let v = resolve_all(
        &r,
        &[
            "src/core/reaction.ts:MAX_REACTION_ITERATIONS",
            "src/core/reaction.ts:MIN_REACTION_ITERATIONS",
        ],
    );
    verdict(&v[0], "VERIFIED");
    assert_eq!(v[0]["location"], "src/core/reaction.ts:4:7", "{:#}", v[0]);
    verdict(&v[1], "MISSING");
}

/// A slash-separated token with no extension whose first segment exists nowhere under the root
/// (`Europe/Paris`) is no path of the repository; a path whose folder exists stays MISSING.
#[test]
fn slash_token_outside_the_tree() {
    let r = ts_repo();
    let v = resolve_all(
        &r,
        &["Europe/Paris", "src/nope.ts", "src/nope", "Europe/Paris.ts"],
    );
    uncheckable(&v[0], "`Europe`");
    verdict(&v[1], "MISSING");
    verdict(&v[2], "MISSING");
    verdict(&v[3], "MISSING");
}

fn result<'a>(v: &'a [Value], r: &str) -> Option<&'a Value> {
    v.iter().find(|x| x["ref"] == r)
}

/// Flags and variables the plan's own fenced code declares are names of its example, not of
/// the repository: UNCHECKABLE with the line, never MISSING; an undeclared flag stays MISSING.
#[test]
fn plan_example_declarations() {
    let r = ts_repo();
    let plan = "# Plan\n\nAdd `--port` and `--verbose`; keep `--nope-flag`.\nThen `state$.pipe` and `other$.pipe`.\n\n```ts\nprogram.option('-p, --port <n>')\n  .option(\"--verbose\")\nconst state$ = new Subject();\n```\n";
    let v = drift_plan(&r, plan);
    for (name, line) in [("--port", 7), ("--verbose", 8), ("state$.pipe", 9)] {
        let x = result(&v, name).unwrap_or_else(|| panic!("{name} not cited: {v:#?}"));
        uncheckable(x, &format!("plan's own example code (line {line})"));
    }
    verdict(result(&v, "--nope-flag").unwrap(), "MISSING");
    verdict(result(&v, "other$.pipe").unwrap(), "MISSING");
}

/// A name the prose calls an HTTP header (`the Accept header`) is no symbol, wherever a code
/// span cites it; a capitalized name the prose does not call a header stays checked.
#[test]
fn headers_named_in_prose() {
    let r = ts_repo();
    let plan = "# Plan\n\nNormalize the `Accept` list and `Reactionx` too.\nThis parses the Accept header.\n";
    let v = drift_plan(&r, plan);
    assert!(result(&v, "Accept").is_none(), "{v:#?}");
    verdict(result(&v, "Reactionx").unwrap(), "MISSING");
}

/// A member of an untyped value is not found through an object literal of another name
/// (`chalk.stderr` is not `supportsColor.stderr`); members of classes still count.
#[test]
fn untyped_value_not_through_another_object() {
    let r = Repo::new();
    for f in ["src/a.js", "src/b.js"] {
        r.write(
            f,
            "const supportsColor = {\n  stdout: 1,\n  stderr: 2,\n};\nexport default supportsColor;\n",
        );
    }
    r.write(
        "src/chalk.js",
        "export class Stream {\n  write() {}\n}\nconst chalk = make();\nexport default chalk;\n",
    );
    let v = resolve_all(&r, &["chalk.stderr", "chalk.write", "supportsColor.stderr"]);
    uncheckable(&v[0], "`supportsColor`");
    assert_eq!(v[1]["verdict"], "VERIFIED", "{:#}", v[1]);
    verdict(&v[2], "AMBIGUOUS");
}
