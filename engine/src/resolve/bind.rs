//! Binding a cited call's arguments to one reading of a declaration's parameters, by the rules
//! of its language: Python (positional-only, keyword-only, defaults, `*args`, `**kwargs`), Rust
//! (exact arity, no keywords), TypeScript (optional and rest parameters, exact arity) and
//! JavaScript (any arity is legal: only what the parameters absorb is known). Pure.

use super::shape::{Arg, CallShape};
use crate::index::{Param, ParamKind};

/// The call rules of a declaration's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rules {
    Python,
    Rust,
    TypeScript,
    JavaScript,
}

impl Rules {
    /// The rules of the language of `path`, by extension.
    pub(super) fn of_path(path: &str) -> Option<Rules> {
        Some(match super::langs::lang_of(path)? {
            "python" => Rules::Python,
            "rust" => Rules::Rust,
            "typescript" => Rules::TypeScript,
            "javascript" => Rules::JavaScript,
            _ => return None,
        })
    }
}

/// What binding one reading gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Bound {
    Match(Option<String>),
    Mismatch(String),
    Unsure(String),
}

/// `n` arguments, in words.
pub(super) fn args_word(n: usize) -> String {
    match n {
        1 => "1 argument".to_owned(),
        n => format!("{n} arguments"),
    }
}

/// Bind `call` to `params` (a reading of the declaration: the receiver already dropped or kept
/// as a positional parameter).
pub(super) fn bind(params: &[Param], call: &CallShape, rules: Rules) -> Bound {
    if call.arity_only {
        return arity(params, call.args.len(), rules);
    }
    match rules {
        Rules::Python => python(params, call),
        Rules::Rust | Rules::TypeScript | Rules::JavaScript => positional(params, call, rules),
    }
}

/// Only the number of arguments is cited (prose).
fn arity(params: &[Param], n: usize, rules: Rules) -> Bound {
    let named: Vec<&Param> = params
        .iter()
        .filter(|p| !matches!(p.kind, ParamKind::VarArgs | ParamKind::VarKwargs))
        .collect();
    // Up to the last required parameter: a default before it must still be passed (as
    // `undefined`: `f(a, b = 1, c)` takes three).
    let required = named.iter().rposition(|p| !p.optional).map_or(0, |i| i + 1);
    let variadic = named.len() < params.len();
    let strict_missing = !matches!(rules, Rules::JavaScript);
    if n < required && strict_missing {
        return Bound::Mismatch(format!(
            "requires {} but the plan says {}",
            args_word(required),
            args_word(n)
        ));
    }
    if n > named.len() {
        if variadic {
            return Bound::Unsure(format!(
                "the arguments past the first {} land in a variadic parameter",
                named.len()
            ));
        }
        if rules == Rules::JavaScript {
            return Bound::Unsure(format!(
                "declares {} parameter(s); JavaScript ignores further arguments",
                named.len()
            ));
        }
        return Bound::Mismatch(format!(
            "takes at most {} but the plan says {}",
            args_word(named.len()),
            args_word(n)
        ));
    }
    Bound::Match(None)
}

/// Python: positional arguments fill positional parameters in order, keywords bind by name.
fn python(params: &[Param], call: &CallShape) -> Bound {
    let positional: Vec<&Param> = params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::PositionalOnly | ParamKind::Regular))
        .collect();
    let var_args = params.iter().any(|p| p.kind == ParamKind::VarArgs);
    let var_kwargs = params.iter().any(|p| p.kind == ParamKind::VarKwargs);
    let star = call.args.contains(&Arg::Star);
    let dstar = call.args.contains(&Arg::DoubleStar);
    let n = call
        .args
        .iter()
        .filter(|a| matches!(a, Arg::Positional | Arg::Spread))
        .count();
    let mut absorbed: Vec<String> = Vec::new();
    if n > positional.len() {
        if !var_args {
            return Bound::Mismatch(format!(
                "takes at most {} positional argument{} but {n} given",
                positional.len(),
                if positional.len() == 1 { "" } else { "s" }
            ));
        }
        absorbed.push(format!(
            "{} positional argument(s) land in `*args`",
            n - positional.len()
        ));
    }
    let mut bound: Vec<&str> = positional.iter().take(n).map(|p| p.name.as_str()).collect();
    for a in &call.args {
        let Arg::Keyword(k) = a else { continue };
        match params.iter().find(|p| p.name == *k) {
            Some(p) if matches!(p.kind, ParamKind::Regular | ParamKind::KeywordOnly) => {
                if bound.contains(&k.as_str()) {
                    if star && p.kind == ParamKind::Regular {
                        continue;
                    }
                    return Bound::Mismatch(format!("gets several values for `{k}`"));
                }
                bound.push(k);
            }
            Some(p) if p.kind == ParamKind::PositionalOnly && !var_kwargs => {
                return Bound::Mismatch(format!("`{k}` is positional-only (before `/`)"));
            }
            _ if var_kwargs => absorbed.push(format!("`{k}=` lands in `**kwargs`")),
            _ => {
                let names: Vec<&str> = params
                    .iter()
                    .filter(|p| matches!(p.kind, ParamKind::Regular | ParamKind::KeywordOnly))
                    .map(|p| p.name.as_str())
                    .collect();
                return Bound::Mismatch(if names.is_empty() {
                    format!("no parameter is named `{k}` (it takes no keyword arguments)")
                } else {
                    format!(
                        "no parameter is named `{k}` (keyword parameters: {})",
                        names.join(", ")
                    )
                });
            }
        }
    }
    for p in params {
        let can_fill = match p.kind {
            ParamKind::PositionalOnly => star,
            ParamKind::Regular => star || dstar,
            ParamKind::KeywordOnly => dstar,
            ParamKind::Receiver | ParamKind::VarArgs | ParamKind::VarKwargs => continue,
        };
        if p.optional || bound.contains(&p.name.as_str()) {
            continue;
        }
        if can_fill {
            absorbed.push(format!("`{}` may come from the unpacked arguments", p.name));
            continue;
        }
        return Bound::Mismatch(format!("the required argument `{}` is missing", p.name));
    }
    if star || dstar {
        return Bound::Unsure(
            "the call unpacks arguments (`*`/`**`): their number is not known".into(),
        );
    }
    if absorbed.is_empty() {
        Bound::Match(None)
    } else {
        Bound::Unsure(format!(
            "{}: what they must be is not in the signature",
            absorbed.join("; ")
        ))
    }
}

/// Rust, TypeScript, JavaScript: arguments bind by position only.
fn positional(params: &[Param], call: &CallShape, rules: Rules) -> Bound {
    if call
        .args
        .iter()
        .any(|a| matches!(a, Arg::Spread | Arg::DoubleStar))
        || (rules != Rules::Rust && call.args.contains(&Arg::Star))
    {
        return Bound::Unsure("the call spreads arguments: their number is not known".into());
    }
    let n = call.args.len();
    let named: Vec<&Param> = params
        .iter()
        .filter(|p| p.kind != ParamKind::VarArgs)
        .collect();
    let variadic = named.len() < params.len();
    let required = named.iter().rposition(|p| !p.optional).map_or(0, |i| i + 1);
    // A keyword is not their syntax: the plan's pseudo-code names a parameter.
    let foreign: Vec<&str> = call
        .args
        .iter()
        .filter_map(|a| match a {
            Arg::Keyword(k) => Some(k.as_str()),
            _ => None,
        })
        .filter(|k| !params.iter().any(|p| p.name == *k))
        .collect();
    if n < required && rules != Rules::JavaScript {
        return Bound::Mismatch(format!(
            "requires {} but {} given (`{}` missing)",
            args_word(required),
            n,
            named[n..required]
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join("`, `")
        ));
    }
    if n > named.len() {
        if variadic {
            return Bound::Unsure(format!(
                "{} argument(s) land in the rest parameter: what they must be is not in the signature",
                n - named.len()
            ));
        }
        return match rules {
            Rules::JavaScript => Bound::Unsure(format!(
                "declares {} parameter(s) and {} given: JavaScript ignores the extra ones (unless the function reads them some other way)",
                named.len(),
                n
            )),
            Rules::Rust | Rules::TypeScript | Rules::Python => {
                Bound::Mismatch(format!("takes {} but {} given", args_word(named.len()), n))
            }
        };
    }
    if !foreign.is_empty() {
        return Bound::Unsure(format!(
            "the language has no keyword arguments and no parameter is named `{}`",
            foreign.join("`, `")
        ));
    }
    if n < required {
        return Bound::Match(Some(format!(
            "`{}` left undefined (legal in JavaScript)",
            named[n..required]
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join("`, `")
        )));
    }
    Bound::Match(None)
}
