//! A loop and the comprehension or iterator chain that replaced it (issue 27, point 1): the same
//! unit of behaviour written two ways. A removed loop is described by what it does ([`Shape`]:
//! the collection it walks, the conditions it tests, what it keeps, and how it ends: collect,
//! any, all, find, sum), and so is each comprehension, generator under `any()`/`all()`/`sum()`,
//! array method chain (`.filter().map()`, `.some()`, `.every()`, `.find()`) and Rust iterator
//! chain (`.iter().filter().map().collect()`, `.any()`) of the new side. The loop was rewritten,
//! not removed, only when the two shapes are equal: same collection, same conditions, same kept
//! value, same ending, with the loop variable (or `xs[i]` of an indexed loop) and each closure's
//! parameter compared as one placeholder. Pure: nodes and text in, answer out.

use tree_sitter::Node;

use super::syntax::{compact, is_comment, text};
use crate::lang::Family;

/// How a loop or chain ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Term {
    /// Keeps each value (`result.append(e)`, `.map(e)`, a comprehension).
    Collect,
    /// `return true` when a condition holds (`any()`, `.some()`, `.any()`).
    Any,
    /// `return false` when a condition fails (`all()`, `.every()`, `.all()`).
    All,
    /// `return item` when a condition holds (`.find()`, `next(...)`).
    Find,
    /// Adds each value (`total += e`, `sum()`).
    Sum,
}

/// What a loop (or the chain that replaced it) does.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shape {
    coll: String,
    term: Term,
    /// The conditions, sorted (each with the item as the placeholder).
    conds: Vec<String>,
    /// The value kept or added (`None` for any, all, find).
    elem: Option<String>,
}

/// The placeholder the loop variable and closure parameters become.
const ITEM: &str = "\u{1}";

/// `s` with every occurrence of the identifier `name` (not part of a longer identifier, not a
/// field after `.`) replaced by [`ITEM`].
fn subst(s: &str, name: &str) -> String {
    if name.is_empty() {
        return s.to_owned();
    }
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i..].starts_with(name) {
            let before = s[..i].chars().next_back();
            let after = s[i + name.len()..].chars().next();
            if !before.is_some_and(|c| ident(c) || c == '.') && !after.is_some_and(ident) {
                out.push_str(ITEM);
                i += name.len();
                continue;
            }
        }
        let c = s[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// A node without the parentheses around it.
fn unparen(mut n: Node<'_>) -> Node<'_> {
    while matches!(n.kind(), "parenthesized_expression" | "condition") && n.named_child_count() == 1
    {
        match n.named_child(0) {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

/// The compact text of `n` with `var` as the placeholder (`var` itself compact: `xs[i]`).
fn norm(n: Node<'_>, src: &str, var: &str) -> String {
    let t = compact(text(unparen(n), src));
    if var.contains('[') {
        t.replace(var, ITEM)
    } else {
        subst(&t, var)
    }
}

/// The named children of a block, comments left out (a statement that is not a block is its
/// own one statement).
fn statements(b: Node<'_>) -> Vec<Node<'_>> {
    if !matches!(b.kind(), "block" | "statement_block") {
        return vec![b];
    }
    let mut c = b.walk();
    b.named_children(&mut c)
        .filter(|n| !is_comment(n.kind()))
        .collect()
}

/// The one element of `v`, if it has exactly one.
pub(super) fn one<T: Copy>(v: Vec<T>) -> Option<T> {
    match v.as_slice() {
        [x] => Some(*x),
        _ => None,
    }
}

/// `x` without an `expression_statement` around it.
fn bare(x: Node<'_>) -> Node<'_> {
    if x.kind() == "expression_statement" && x.named_child_count() == 1 {
        x.named_child(0).unwrap_or(x)
    } else {
        x
    }
}

/// The collection, the loop variable (compact) and the body of a loop node.
fn loop_parts<'t>(x: Node<'t>, src: &str) -> Option<(String, String, Node<'t>)> {
    let field = |k: &str| x.child_by_field_name(k);
    match x.kind() {
        "for_statement" if field("left").is_some() => {
            // Python; a `for ... else` is not a plain walk.
            if field("alternative").is_some() {
                return None;
            }
            let var = field("left").filter(|v| v.kind() == "identifier")?;
            Some((
                compact(text(field("right")?, src)),
                text(var, src).to_owned(),
                field("body")?,
            ))
        }
        "for_statement" => {
            // JS `for (let i = 0; i < xs.length; i++)`: the item is `xs[i]`.
            let init = compact(text(field("initializer")?, src));
            let i = init
                .trim_end_matches(';')
                .trim_start_matches("let")
                .trim_start_matches("var")
                .strip_suffix("=0")?
                .to_owned();
            let cond = compact(text(field("condition")?, src));
            let coll = cond
                .trim_end_matches(';')
                .strip_prefix(&format!("{i}<"))?
                .strip_suffix(".length")?
                .to_owned();
            let inc = compact(text(field("increment")?, src));
            if ![format!("{i}++"), format!("++{i}"), format!("{i}+=1")].contains(&inc) {
                return None;
            }
            let var = format!("{coll}[{i}]");
            Some((coll, var, field("body")?))
        }
        "for_in_statement" => {
            if field("operator").is_none_or(|o| text(o, src) != "of") {
                return None;
            }
            let var = field("left").filter(|v| v.kind() == "identifier")?;
            Some((
                compact(text(field("right")?, src)),
                text(var, src).to_owned(),
                field("body")?,
            ))
        }
        "for_expression" => {
            let var = field("pattern").filter(|v| v.kind() == "identifier")?;
            let coll = compact(text(field("value")?, src));
            Some((rust_base(&coll), text(var, src).to_owned(), field("body")?))
        }
        _ => None,
    }
}

/// A Rust collection as a loop or a chain names it: `&xs`, `xs.iter()` and `xs` are one.
fn rust_base(s: &str) -> String {
    let s = s.trim_start_matches("&mut").trim_start_matches('&');
    let s = s
        .strip_suffix(".iter()")
        .or_else(|| s.strip_suffix(".into_iter()"))
        .unwrap_or(s);
    s.to_owned()
}

/// The shape of a removed loop, and the `if` inside it (covered with it).
fn loop_shape<'t>(x: Node<'t>, src: &str) -> Option<(Shape, Option<Node<'t>>)> {
    let (coll, var, body) = loop_parts(x, src)?;
    let var = compact(&var);
    let stmt = bare(one(statements(body))?);
    let (conds, effect, inner) = if matches!(stmt.kind(), "if_statement" | "if_expression") {
        if stmt.child_by_field_name("alternative").is_some() {
            return None;
        }
        let cond = stmt.child_by_field_name("condition")?;
        let e = one(statements(stmt.child_by_field_name("consequence")?))?;
        (vec![cond], e, Some(stmt))
    } else {
        (Vec::new(), stmt, None)
    };
    let effect = bare(effect);
    let mut conds: Vec<String> = conds.into_iter().map(|c| norm(c, src, &var)).collect();
    let value = |e: Node<'t>| {
        e.named_child(0)
            .map(|v| compact(text(bare(v), src)))
            .unwrap_or_default()
    };
    let (term, elem) = match effect.kind() {
        "call" | "call_expression" => {
            let callee = effect.child_by_field_name("function")?;
            let t = compact(text(callee, src));
            let method = t.rsplit('.').next().unwrap_or("");
            if !t.contains('.') || !matches!(method, "append" | "push" | "add" | "insert") {
                return None;
            }
            let args = effect.child_by_field_name("arguments")?;
            let arg = one(statements_of(args))?;
            (Term::Collect, Some(norm(arg, src, &var)))
        }
        "augmented_assignment" | "augmented_assignment_expression" | "compound_assignment_expr" => {
            let op = effect.child_by_field_name("operator")?;
            if text(op, src) != "+=" {
                return None;
            }
            (
                Term::Sum,
                Some(norm(effect.child_by_field_name("right")?, src, &var)),
            )
        }
        "return_statement" | "return_expression" => {
            let v = value(effect);
            let v = v.trim_end_matches(';');
            if matches!(v, "True" | "true") && !conds.is_empty() {
                (Term::Any, None)
            } else if matches!(v, "False" | "false") && conds.len() == 1 {
                let c = conds.pop().unwrap_or_default();
                let inner = c
                    .strip_prefix("not")
                    .or_else(|| c.strip_prefix('!'))?
                    .trim_start_matches('(')
                    .trim_end_matches(')');
                conds.push(inner.to_owned());
                (Term::All, None)
            } else if subst(v, &var) == ITEM || (var.contains('[') && v == var) {
                (Term::Find, None)
            } else {
                return None;
            }
        }
        _ => return None,
    };
    conds.sort();
    Some((
        Shape {
            coll,
            term,
            conds,
            elem,
        },
        inner,
    ))
}

/// The argument nodes of an argument list.
fn statements_of(args: Node<'_>) -> Vec<Node<'_>> {
    let mut c = args.walk();
    args.named_children(&mut c)
        .filter(|n| !is_comment(n.kind()))
        .collect()
}

/// A one-parameter closure or arrow function: its parameter and its body expression.
fn lambda<'t>(f: Family, x: Node<'t>, src: &str) -> Option<(String, Node<'t>)> {
    let x = unparen(x);
    let param = match (f, x.kind()) {
        (Family::JavaScript, "arrow_function") => match x.child_by_field_name("parameter") {
            Some(p) => text(p, src).to_owned(),
            None => {
                let ps = x.child_by_field_name("parameters")?;
                let p = one(statements_of(ps))?;
                let p = p.child_by_field_name("pattern").unwrap_or(p);
                (p.kind() == "identifier").then(|| text(p, src).to_owned())?
            }
        },
        (Family::Rust, "closure_expression") => {
            let ps = x.child_by_field_name("parameters")?;
            let p = one(statements_of(ps))?;
            text(p, src).trim_start_matches('&').trim().to_owned()
        }
        _ => return None,
    };
    let mut body = x.child_by_field_name("body")?;
    if matches!(body.kind(), "statement_block" | "block") {
        let s = bare(one(statements(body))?);
        body = if s.kind() == "return_statement" {
            s.named_child(0)?
        } else if body.kind() == "block" {
            s
        } else {
            return None;
        };
    }
    Some((compact(&param), body))
}

/// The shape of a chain ending at the call `x` (JS array methods, Rust iterators).
fn chain_shape(f: Family, x: Node<'_>, src: &str) -> Option<Shape> {
    let mut steps: Vec<(String, Option<(String, Node<'_>)>)> = Vec::new();
    let mut cur = x;
    let base = loop {
        if cur.kind() != "call_expression" {
            break cur;
        }
        let callee = cur.child_by_field_name("function")?;
        let (obj, prop) = match callee.kind() {
            "member_expression" => (
                callee.child_by_field_name("object")?,
                callee.child_by_field_name("property")?,
            ),
            "field_expression" => (
                callee.child_by_field_name("value")?,
                callee.child_by_field_name("field")?,
            ),
            _ => break cur,
        };
        let name = text(prop, src).to_owned();
        let args = statements_of(cur.child_by_field_name("arguments")?);
        let step = match args.as_slice() {
            [] => None,
            [a] => Some(lambda(f, *a, src)?),
            _ => return None,
        };
        steps.push((name, step));
        cur = obj;
    };
    steps.reverse();
    let mut coll = compact(text(base, src));
    let mut conds = Vec::new();
    let mut elem: Option<String> = None;
    let mut term = None;
    for (name, step) in steps {
        let with = |s: &Option<(String, Node<'_>)>| {
            s.as_ref().map(|(p, body)| {
                let t = compact(text(unparen(*body), src));
                subst(&t, p)
            })
        };
        match (name.as_str(), &step) {
            ("iter" | "into_iter" | "copied" | "cloned", None)
                if f == Family::Rust && term.is_none() && elem.is_none() && conds.is_empty() =>
            {
                coll = rust_base(&format!("{coll}.{name}()"));
            }
            ("filter", Some(_)) if elem.is_none() && term.is_none() => {
                conds.extend(with(&step));
            }
            ("map", Some(_)) if elem.is_none() && term.is_none() => elem = with(&step),
            ("collect", None) if f == Family::Rust && term.is_none() => {
                term = Some(Term::Collect);
            }
            ("sum", None) if f == Family::Rust && term.is_none() && elem.is_some() => {
                term = Some(Term::Sum);
            }
            ("some" | "any" | "every" | "all" | "find", Some(_))
                if elem.is_none() && term.is_none() =>
            {
                conds.extend(with(&step));
                term = Some(match name.as_str() {
                    "some" | "any" => Term::Any,
                    "every" | "all" => Term::All,
                    _ => Term::Find,
                });
            }
            _ => return None,
        }
    }
    let term = match term {
        Some(t) => t,
        // A JS chain of `.filter()`/`.map()` is a new array.
        None if f == Family::JavaScript && (elem.is_some() || !conds.is_empty()) => Term::Collect,
        None => return None,
    };
    if term == Term::Collect && elem.is_none() {
        elem = Some(ITEM.to_owned());
    }
    conds.sort();
    Some(Shape {
        coll,
        term,
        conds,
        elem,
    })
}

/// The shape of a Python comprehension or generator (and the call it is the argument of).
fn comprehension_shape(x: Node<'_>, src: &str) -> Option<Shape> {
    if !matches!(
        x.kind(),
        "list_comprehension" | "set_comprehension" | "generator_expression"
    ) {
        return None;
    }
    let kids = statements_of(x);
    let fors: Vec<&Node<'_>> = kids
        .iter()
        .filter(|k| k.kind() == "for_in_clause")
        .collect();
    let [clause] = fors.as_slice() else {
        return None;
    };
    let var = clause
        .child_by_field_name("left")
        .filter(|v| v.kind() == "identifier")?;
    let var = text(var, src).to_owned();
    let coll = compact(text(clause.child_by_field_name("right")?, src));
    let mut conds: Vec<String> = kids
        .iter()
        .filter(|k| k.kind() == "if_clause")
        .filter_map(|k| k.named_child(0))
        .map(|c| norm(c, src, &var))
        .collect();
    let body = norm(x.child_by_field_name("body")?, src, &var);
    let call = x
        .parent()
        .and_then(|p| {
            if p.kind() == "argument_list" {
                p.parent()
            } else {
                Some(p)
            }
        })
        .filter(|p| p.kind() == "call");
    let callee = call
        .and_then(|c| c.child_by_field_name("function"))
        .map(|c| text(c, src))
        .unwrap_or("");
    let (term, elem) = match (x.kind(), callee) {
        ("generator_expression", "any") => {
            conds.push(body);
            (Term::Any, None)
        }
        ("generator_expression", "all") => {
            conds.push(body);
            (Term::All, None)
        }
        ("generator_expression", "sum") => (Term::Sum, Some(body)),
        ("generator_expression", "next") if body == ITEM => (Term::Find, None),
        ("generator_expression", "list" | "set" | "tuple") | ("list_comprehension", _) => {
            (Term::Collect, Some(body))
        }
        ("set_comprehension", _) => (Term::Collect, Some(body)),
        _ => return None,
    };
    conds.sort();
    Some(Shape {
        coll,
        term,
        conds,
        elem,
    })
}

/// When the removed loop `x` (old text `o`) does what one of `added` (the new side's nodes of
/// its hunk, text `n`) does: the loop and the `if` inside it (their node ids), rewritten.
pub fn loop_rewritten(
    f: Family,
    x: Node<'_>,
    o: &str,
    added: &[Node<'_>],
    n: &str,
) -> Option<Vec<usize>> {
    let (shape, inner) = loop_shape(x, o)?;
    let found = added.iter().any(|&y| {
        let s = match f {
            Family::Python => comprehension_shape(y, n),
            _ if y.kind() == "call_expression" => chain_shape(f, y, n),
            _ => None,
        };
        s.is_some_and(|s| s == shape)
    });
    found.then(|| {
        let mut ids = vec![x.id()];
        ids.extend(inner.map(|i| i.id()));
        ids
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subst_replaces_whole_identifiers_only() {
        assert_eq!(
            subst("line.sku+lines+x.line", "line"),
            "\u{1}.sku+lines+x.line"
        );
        assert_eq!(subst("f(url)", "url"), "f(\u{1})");
    }

    #[test]
    fn rust_bases_are_one_collection() {
        assert_eq!(rust_base("&config.upstreams"), "config.upstreams");
        assert_eq!(rust_base("config.upstreams.iter()"), "config.upstreams");
    }
}
