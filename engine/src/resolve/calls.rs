//! The signature check of a VERIFIED reference the plan cites as a call (docs/drift.md, "Call
//! shapes"): its declaration is read again from its file (`index::callables_at`), every
//! overload of it in that file with it, and each cited [`CallShape`] is bound (`bind`) to every
//! reading of its parameters: a Python method's `self`/`cls` bound or passed (`Class.m(obj,
//! x)`), a Rust `&self` method called as a method or by path (`Type::m(&v, x)`). A reading that
//! binds is a `match`; `mismatch` only when every reading of every declaration fails; anything
//! the declaration cannot decide is `uncheckable` with the reason.

use super::bind::{Bound, Rules, bind};
use super::ctor::{Chain, MAX_BASES};
use super::shape::{CallCheck, CallShape, CallVerdict};
use super::{CandidateKind, Context, Repo, Resolution, Verdict};
use crate::index::{Callable, Kind, Param, ParamKind};

/// Python decorators that leave a function's call signature as written (`staticmethod` and
/// `classmethod` decide the receiver; `overload` marks a stub).
const PY_NEUTRAL: &str = "\
    staticmethod classmethod overload abstractmethod override final cache lru_cache wraps \
    contextmanager asynccontextmanager deprecated no_type_check total_ordering";

/// Module prefixes of [`PY_NEUTRAL`] decorators (`functools.lru_cache`; `t` for `import typing
/// as t`).
const PY_NEUTRAL_MODULES: &str = "typing typing_extensions t abc functools contextlib warnings";

/// Rust attributes that leave a function's parameters as written.
const RUST_NEUTRAL: &str = "\
    inline must_use doc cfg allow expect warn deny forbid deprecated track_caller cold \
    no_mangle export_name link_name target_feature instrument tracing::instrument async_trait \
    async_trait::async_trait rustfmt::skip clippy test";

/// The name of a decorator or attribute as written, without its arguments (`lru_cache(maxsize=3)`
/// → `lru_cache`, `cfg(test)` → `cfg`, `clippy::too_many_arguments` → `clippy`).
fn decorator_name(d: &str) -> &str {
    let d = d.split(['(', ' ', '=']).next().unwrap_or(d).trim();
    d.strip_prefix("unsafe").map_or(d, str::trim)
}

/// Why `d`, on a declaration of `rules`, may change how it is called; `None` for a neutral one.
fn changes_signature(d: &str, rules: Rules) -> Option<String> {
    let name = decorator_name(d);
    let neutral = match rules {
        Rules::Python => {
            let (module, last) = name.rsplit_once('.').unwrap_or(("", name));
            PY_NEUTRAL.split_ascii_whitespace().any(|w| w == last)
                && (module.is_empty()
                    || PY_NEUTRAL_MODULES
                        .split_ascii_whitespace()
                        .any(|m| m == module))
        }
        Rules::Rust => {
            let head = name.split("::").next().unwrap_or(name);
            RUST_NEUTRAL
                .split_ascii_whitespace()
                .any(|w| w == name || w == head)
                || (name == "cfg_attr" && d.contains("allow") && !d.contains("derive"))
        }
        Rules::TypeScript | Rules::JavaScript => false,
    };
    if neutral {
        return None;
    }
    let shown = match rules {
        Rules::Rust => format!("#[{d}]"),
        Rules::Python | Rules::TypeScript | Rules::JavaScript => format!("@{d}"),
    };
    Some(
        if name.ends_with("property") || name.ends_with(".setter") || name.ends_with(".getter") {
            format!("it is a property (`{shown}`): reading it calls it with no arguments")
        } else {
            format!("it is decorated by `{shown}`, which may change how it is called")
        },
    )
}

/// The readings of `c`'s parameters a call `call` written as `reference` may mean, or why none
/// can be decided.
fn readings(
    c: &Callable,
    rules: Rules,
    reference: &str,
    call: &CallShape,
) -> Result<Vec<Vec<Param>>, String> {
    if let Some(why) = &c.unreadable {
        return Err(why.clone());
    }
    for d in &c.decorators {
        if let Some(why) = changes_signature(d, rules) {
            return Err(why);
        }
    }
    let path_call = reference.contains("::");
    // `Class.m(...)`: a capitalized segment before the member (a class, not a value).
    let class_call = reference.rsplit_once('.').is_some_and(|(h, _)| {
        h.rsplit('.')
            .next()
            .is_some_and(|s| s.starts_with(|ch: char| ch.is_uppercase()))
    });
    // `Class.m(self, x)`, `Reader.read(reader, p)`: the first argument is the instance (`self`,
    // `cls`, or a name holding the class's name); otherwise `Class.m(a)` means a call on one.
    let class_name = reference
        .rsplit_once('.')
        .and_then(|(h, _)| h.rsplit('.').next())
        .unwrap_or("")
        .to_lowercase();
    let instance_first = call.first.as_deref().is_some_and(|a| {
        let a = a.to_lowercase();
        matches!(a.as_str(), "self" | "cls")
            || (!class_name.is_empty() && a.replace('_', "").contains(&class_name))
    });
    let as_positional = |p: &Param| Param {
        kind: ParamKind::Regular,
        ..p.clone()
    };
    match rules {
        Rules::Python => {
            let names: Vec<&str> = c.decorators.iter().map(|d| decorator_name(d)).collect();
            let is = |w: &str| names.iter().any(|n| n.rsplit('.').next() == Some(w));
            let first_bound = c.in_class && !is("staticmethod");
            let first = c.params.first();
            let bindable = first
                .is_some_and(|p| matches!(p.kind, ParamKind::Regular | ParamKind::PositionalOnly));
            if !first_bound || !bindable {
                if first_bound && !bindable {
                    return Err("a method without a `self` or `cls` parameter".to_owned());
                }
                return Ok(vec![c.params.clone()]);
            }
            let mut out = vec![c.params[1..].to_vec()];
            if class_call && instance_first && !is("classmethod") {
                // `Base.m(self, x)`: the instance passed explicitly.
                out.push(c.params.clone());
            }
            Ok(out)
        }
        Rules::Rust => {
            let Some(i) = c.params.iter().position(|p| p.kind == ParamKind::Receiver) else {
                return Ok(vec![c.params.clone()]);
            };
            let method: Vec<Param> = c
                .params
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, p)| p.clone())
                .collect();
            let ufcs: Vec<Param> = c.params.iter().map(as_positional).collect();
            Ok(if path_call || !reference.contains('.') {
                vec![method, ufcs]
            } else {
                vec![method]
            })
        }
        Rules::TypeScript | Rules::JavaScript => {
            if rules == Rules::JavaScript && c.reads_arguments {
                return Err("its body reads `arguments`, so it may take any number".to_owned());
            }
            Ok(vec![c.params.clone()])
        }
    }
}

/// The check of one shape against one declaration: the best of its readings.
fn check_one(c: &Callable, rules: Rules, reference: &str, call: &CallShape) -> Bound {
    let rs = match readings(c, rules, reference, call) {
        Ok(r) => r,
        Err(why) => return Bound::Unsure(why),
    };
    let mut arity_rs = rs.clone();
    if call.arity_only && matches!(rules, Rules::Python | Rules::Rust) {
        // "takes two arguments" may count the receiver.
        let all: Vec<Param> = c
            .params
            .iter()
            .map(|p| Param {
                kind: if p.kind == ParamKind::Receiver {
                    ParamKind::Regular
                } else {
                    p.kind
                },
                ..p.clone()
            })
            .collect();
        if !arity_rs.contains(&all) {
            arity_rs.push(all);
        }
    }
    let results: Vec<Bound> = arity_rs.iter().map(|r| bind(r, call, rules)).collect();
    if let Some(m) = results.iter().find(|b| matches!(b, Bound::Match(_))) {
        return m.clone();
    }
    if let Some(u) = results.iter().find(|b| matches!(b, Bound::Unsure(_))) {
        return u.clone();
    }
    results
        .into_iter()
        .next()
        .unwrap_or_else(|| Bound::Unsure("no reading of its parameters".to_owned()))
}

impl Repo {
    /// The checks of the calls `ctx` cites of the reference resolved as `res`, one per shape;
    /// empty when it cites none or the name is not VERIFIED or AMBIGUOUS. An AMBIGUOUS name's
    /// call is checked against every candidate: `mismatch` when none binds it, `match` when all
    /// do, else `uncheckable` (which one is called is not known).
    pub(super) fn check_calls(&self, res: &Resolution, ctx: &Context) -> Vec<CallCheck> {
        if ctx.calls.is_empty() {
            return Vec::new();
        }
        let targets: Vec<(Option<CandidateKind>, Option<&str>)> = match res.verdict {
            Verdict::Verified => vec![(res.kind, res.location.as_deref())],
            Verdict::Ambiguous => res
                .candidates
                .iter()
                .map(|c| (Some(c.kind), Some(c.location.as_str())))
                .collect(),
            Verdict::Missing | Verdict::Uncheckable => return Vec::new(),
        };
        // The callee as written (`probity resolve` gives the whole call).
        let callee = res.reference.split('(').next().unwrap_or("");
        let read: Vec<_> = targets
            .iter()
            .map(|&(kind, loc)| self.declarations_called(kind, loc))
            .collect();
        ctx.calls
            .iter()
            .map(|s| {
                let mut per: Vec<Checked> =
                    read.iter().map(|r| check_shape(r, callee, s)).collect();
                let (verdict, reason, expected) = if per.len() == 1 {
                    per.remove(0)
                } else {
                    among_candidates(&per, &targets)
                };
                CallCheck {
                    verdict,
                    reason,
                    expected,
                    cited: s.text.clone(),
                    line: s.line,
                    rung: super::RUNG,
                }
            })
            .collect()
    }

    /// The declarations a call of the declaration of `kind` at `loc` may reach (its overloads in its file, the
    /// implementation of TypeScript overloads and Python `@overload` stubs left out) and their
    /// language's rules, or why they cannot be read.
    fn declarations_called(
        &self,
        kind: Option<CandidateKind>,
        loc: Option<&str>,
    ) -> Result<(Vec<Callable>, Rules), String> {
        let kind = match kind {
            Some(CandidateKind::Decl(k)) => k,
            Some(k) => return Err(format!("it is a {k}, not a function")),
            None => return Err("no declaration was found".to_owned()),
        };
        let loc = loc.unwrap_or("");
        let mut it = loc.rsplitn(3, ':');
        let (col, line, path) = (it.next(), it.next(), it.next());
        let (Some(path), Some(line), Some(col)) = (
            path,
            line.and_then(|l| l.parse::<usize>().ok()),
            col.and_then(|c| c.parse::<usize>().ok()),
        ) else {
            return Err("its location is not a position".to_owned());
        };
        let rules = Rules::of_path(path).ok_or_else(|| format!("no call rules for {path}"))?;
        match kind {
            Kind::Function | Kind::Method => {}
            Kind::Class if rules != Rules::Rust => {
                let file = self
                    .files
                    .get(path)
                    .ok_or_else(|| format!("{path} is not among the analyzed files"))?;
                let twice = file
                    .decls
                    .iter()
                    .filter(|d| {
                        d.kind == Kind::Class && d.qualified == res_qualified(file, line, col)
                    })
                    .count();
                if twice > 1 {
                    return Err(format!("the class is defined {twice} times in {path}"));
                }
                let set = match self.constructors(path, (line, col), rules, MAX_BASES)? {
                    Chain::Ctors(set) => set,
                    Chain::AnyArgs(base) => {
                        return Err(format!(
                            "its constructor is `{base}`'s, which takes any arguments"
                        ));
                    }
                };
                return Ok((ctor_overloads(set, rules), rules));
            }
            Kind::Class | Kind::Struct | Kind::Enum | Kind::Variant => {
                return Err(format!(
                    "it is a {}: a call of it goes to its constructor, whose parameters are not checked",
                    kind.as_str()
                ));
            }
            Kind::Import => {
                return Err("it is an import: the declaration it binds is elsewhere".to_owned());
            }
            k => {
                return Err(format!(
                    "it is a {}: its value's parameters are not declared",
                    k.as_str()
                ));
            }
        }
        let file = self
            .files
            .get(path)
            .ok_or_else(|| format!("{path} is not among the analyzed files"))?;
        let me = file
            .decls
            .iter()
            .find(|d| d.line == line && d.column == col)
            .ok_or_else(|| format!("no declaration at {loc}"))?;
        let at: Vec<(usize, usize)> = file
            .decls
            .iter()
            .filter(|d| d.qualified == me.qualified && d.kind == me.kind)
            .map(|d| (d.line, d.column))
            .collect();
        let (found, siblings) = crate::index::callables_at(&self.root, path, &at)?;
        let mut set = Vec::new();
        for (c, (l, _)) in found.into_iter().zip(&at) {
            match c {
                Some(c) => set.push(c),
                None => {
                    return Err(match me.signature.as_deref() {
                        Some(sig) if file.language == "rust" && sig.contains('!') => {
                            format!("it is declared by a macro call (`{sig}`)")
                        }
                        _ => format!(
                            "the declaration at {path}:{l} is no function probity reads parameters of"
                        ),
                    });
                }
            }
        }
        set.extend(siblings);
        let set = ctor_overloads(set, rules);
        if set.is_empty() {
            return Err("no declaration was read".to_owned());
        }
        Ok((set, rules))
    }
}

/// One declaration's check of a call: verdict, reason, the signatures quoted.
pub(super) type Checked = (CallVerdict, Option<String>, Option<String>);

/// The check of the shape `s` of a call of `callee` against one declaration set as read (or
/// why it could not be read), its signatures quoted.
pub(super) fn check_shape(
    read: &Result<(Vec<Callable>, Rules), String>,
    callee: &str,
    s: &CallShape,
) -> Checked {
    let (set, rules) = match read {
        Ok(x) => x,
        Err(why) => return (CallVerdict::Uncheckable, Some(why.clone()), None),
    };
    let heads: Vec<&str> = set.iter().map(|c| c.head.as_str()).collect();
    let (verdict, reason) = if s.new && *rules == Rules::Rust {
        (
            CallVerdict::Uncheckable,
            Some("`new` is no Rust call".to_owned()),
        )
    } else {
        decide(set, *rules, callee, s)
    };
    (verdict, reason, Some(heads.join(" | ")))
}

/// The check of a call of an AMBIGUOUS name from its candidates' (`targets`, in order):
/// `mismatch` only when every candidate refuses it, `match` when every one binds it.
fn among_candidates(per: &[Checked], targets: &[(Option<CandidateKind>, Option<&str>)]) -> Checked {
    let n = per.len();
    let expected = per
        .iter()
        .zip(targets)
        .filter_map(|((_, _, e), (_, loc))| Some(format!("{}: {}", (*loc)?, e.as_deref()?)))
        .collect::<Vec<_>>()
        .join(" | ");
    let expected = (!expected.is_empty()).then_some(expected);
    let count = |v: CallVerdict| per.iter().filter(|p| p.0 == v).count();
    if count(CallVerdict::Mismatch) == n {
        let first = per[0].1.as_deref().unwrap_or("it does not bind");
        let why = format!(
            "the name is AMBIGUOUS and none of its {n} declarations binds the call (the first: {first})"
        );
        return (CallVerdict::Mismatch, Some(why), expected);
    }
    if count(CallVerdict::Match) == n {
        let why = format!("the name is AMBIGUOUS and each of its {n} declarations binds the call");
        return (CallVerdict::Match, Some(why), expected);
    }
    let why = match per.iter().find(|p| p.0 == CallVerdict::Uncheckable) {
        Some((_, Some(w), _)) if count(CallVerdict::Uncheckable) == n => format!(
            "the name is AMBIGUOUS ({n} declarations), and no call of them can be checked (the first: {w})"
        ),
        _ => format!(
            "the name is AMBIGUOUS ({n} declarations): {} bind the call, {} refuse it, {} cannot be checked; which one is called is not known",
            count(CallVerdict::Match),
            count(CallVerdict::Mismatch),
            count(CallVerdict::Uncheckable)
        ),
    };
    (CallVerdict::Uncheckable, Some(why), expected)
}

/// The callable signatures of a declaration set: TypeScript overload signatures and Python
/// `@overload` stubs without the implementation they declare.
fn ctor_overloads(mut set: Vec<Callable>, rules: Rules) -> Vec<Callable> {
    let overloads =
        set.iter().any(|c| c.signature_only) && matches!(rules, Rules::TypeScript | Rules::Python);
    if overloads && set.iter().any(|c| !c.signature_only) {
        set.retain(|c| c.signature_only);
    }
    set
}

/// The qualified name of the declaration at `line:col` of `file`.
fn res_qualified(file: &crate::index::FileIndex, line: usize, col: usize) -> &str {
    file.decls
        .iter()
        .find(|d| d.line == line && d.column == col)
        .map_or("", |d| d.qualified.as_str())
}

/// The verdict over a declaration set: TypeScript and Python overloads take any signature that
/// binds; several definitions of one name (in both branches of an `if`) must agree.
fn decide(
    set: &[Callable],
    rules: Rules,
    reference: &str,
    call: &CallShape,
) -> (CallVerdict, Option<String>) {
    let results: Vec<Bound> = set
        .iter()
        .map(|c| check_one(c, rules, reference, call))
        .collect();
    let overloads = set.len() > 1 && set.iter().all(|c| c.signature_only);
    let any_match = results.iter().find_map(|b| match b {
        Bound::Match(n) => Some(n.clone()),
        _ => None,
    });
    let all_mismatch = results.iter().all(|b| matches!(b, Bound::Mismatch(_)));
    let first_reason = |pick: fn(&Bound) -> Option<&String>| results.iter().find_map(pick).cloned();
    if all_mismatch {
        let why = first_reason(|b| match b {
            Bound::Mismatch(w) => Some(w),
            _ => None,
        });
        let why = match (overloads, why) {
            (true, Some(w)) => Some(format!("no overload binds the call (the first: {w})")),
            (_, w) => w,
        };
        return (CallVerdict::Mismatch, why);
    }
    if let Some(note) = any_match
        && (overloads || results.iter().all(|b| matches!(b, Bound::Match(_))))
    {
        return (CallVerdict::Match, note);
    }
    let why = first_reason(|b| match b {
        Bound::Unsure(w) => Some(w),
        _ => None,
    })
    .unwrap_or_else(|| format!("defined {} times with different parameters", set.len()));
    (CallVerdict::Uncheckable, Some(why))
}
