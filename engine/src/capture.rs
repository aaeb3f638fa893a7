//! Capture expressions: accept only side-effect-free shapes.
//!
//! An expression is parsed with the target grammar (wrapped as the language's `[capture]`
//! prefix/suffix say) and accepted only if it is built from: identifiers and literals,
//! field/attribute access, indexing by a literal, and "length of" (`len(x)`, `x.length`,
//! `x.len()`). Anything else (calls, assignments, operators, interpolation...) is refused with
//! `capture_not_side_effect_free`. See: issue 2 §2.

use tree_sitter::Node;

use crate::error::Error;
use crate::lang::{CaptureSpec, Grammar, Language};
use crate::parse;
use crate::reason::Reason;

fn allowed(spec: &CaptureSpec, text: &str, node: Node) -> bool {
    let kind = node.kind();
    let has = |list: &[String]| list.iter().any(|k| k == kind);
    let named: Vec<Node> = {
        let mut c = node.walk();
        node.named_children(&mut c).collect()
    };
    if has(&spec.leaves) {
        return true;
    }
    if has(&spec.wrappers) {
        return named.len() == 1 && allowed(spec, text, named[0]);
    }
    if has(&spec.access) {
        let Some((object, rest)) = named.split_first() else {
            return false;
        };
        return allowed(spec, text, *object)
            && !rest.is_empty()
            && rest
                .iter()
                .all(|n| spec.field_names.iter().any(|k| k == n.kind()));
    }
    if has(&spec.index) {
        return named.len() == 2
            && allowed(spec, text, named[0])
            && spec.index_literals.iter().any(|k| k == named[1].kind())
            // A literal's own parts (Python's string_start/string_content/string_end, JS
            // string fragments) are fine; only interpolation is not, and that is forbidden.
            && !has_descendant(named[1], &spec.forbidden_descendants);
    }
    if let Some(names) = spec.calls.get(kind) {
        let (Some(func), Some(args)) = (
            node.child_by_field_name("function"),
            node.child_by_field_name("arguments"),
        ) else {
            return false;
        };
        let mut c = args.walk();
        let args: Vec<Node> = args.named_children(&mut c).collect();
        return names.iter().any(|n| *n == text[func.byte_range()])
            && args.len() == 1
            && allowed(spec, text, args[0]);
    }
    if let Some(names) = spec.methods.get(kind) {
        let (Some(func), Some(args)) = (
            node.child_by_field_name("function"),
            node.child_by_field_name("arguments"),
        ) else {
            return false;
        };
        if args.named_child_count() != 0 || !spec.access.iter().any(|k| k == func.kind()) {
            return false;
        }
        let mut c = func.walk();
        let parts: Vec<Node> = func.named_children(&mut c).collect();
        return parts.len() == 2
            && allowed(spec, text, parts[0])
            && names.iter().any(|n| *n == text[parts[1].byte_range()]);
    }
    false
}

fn has_descendant(node: Node, kinds: &[String]) -> bool {
    if kinds.iter().any(|k| k == node.kind()) {
        return true;
    }
    let mut c = node.walk();
    node.children(&mut c).any(|n| has_descendant(n, kinds))
}

/// Literal spellings an old dialect's grammar still parses but the language now rejects: Python
/// 2's backtick repr, `1L` longs and `ur''` strings, and legacy octal `0777` (a syntax error in
/// Python 3 and in strict-mode JavaScript). A capture is copied verbatim into the probe, and the
/// re-parse check uses the same lenient grammar, so such a literal would reach the compiler.
fn legacy_literal(text: &str) -> bool {
    let b = text.as_bytes();
    let head: Vec<u8> = b.iter().take(3).map(u8::to_ascii_lowercase).collect();
    match b.first() {
        Some(b'`') => true,
        Some(d) if d.is_ascii_digit() => {
            matches!(b.last(), Some(b'l' | b'L'))
                || (*d == b'0' && b.get(1).is_some_and(u8::is_ascii_digit))
        }
        _ => head == b"ur\"" || head == b"ur'",
    }
}

fn has_legacy_literal(spec: &CaptureSpec, text: &str, node: Node) -> bool {
    let literal = spec
        .leaves
        .iter()
        .chain(&spec.index_literals)
        .any(|k| k == node.kind());
    if literal && legacy_literal(&text[node.byte_range()]) {
        return true;
    }
    let mut c = node.walk();
    node.children(&mut c)
        .any(|n| has_legacy_literal(spec, text, n))
}

/// Whether `c` is in `class`: single characters and `a-z` ranges, written together (`a-zA-Z_$`).
fn in_class(class: &str, c: char) -> bool {
    let b: Vec<char> = class.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if i + 2 < b.len() && b[i + 1] == '-' {
            if (b[i]..=b[i + 2]).contains(&c) {
                return true;
            }
            i += 3;
        } else {
            if b[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

/// Check one capture name for `lang`: an identifier of the language (`[capture] name_first`
/// then `name_rest`), at most [`MAX_CAPTURE_NAME`] characters.
pub fn validate_name(lang: &Language, name: &str) -> Result<(), Error> {
    let spec = &lang.spec.capture;
    let mut chars = name.chars();
    let ok = name.chars().count() <= MAX_CAPTURE_NAME
        && chars.next().is_some_and(|c| in_class(&spec.name_first, c))
        && chars.all(|c| in_class(&spec.name_rest, c));
    if ok {
        return Ok(());
    }
    Err(Error::new(
        Reason::InvalidCaptureName,
        format!(
            "capture name `{name}` is not a {} identifier: give 1 to {MAX_CAPTURE_NAME} characters, the first of [{}], the others of [{}] (`--capture total_cents=expr`)",
            lang.id(),
            spec.name_first,
            spec.name_rest
        ),
    ))
}

/// The longest capture name, in characters.
pub const MAX_CAPTURE_NAME: usize = 32;

/// Check one capture expression for `lang`.
pub fn validate(lang: &Language, grammar: &Grammar, expr: &str) -> Result<(), Error> {
    let spec = &lang.spec.capture;
    let text = format!("{}{}{}", spec.prefix, expr, spec.suffix);
    let (start, end) = (spec.prefix.len(), spec.prefix.len() + expr.len());
    let tree = parse::parse(grammar, &text)
        .ok_or_else(|| Error::new(Reason::CaptureParseError, "the parser gave up"))?;
    let node = tree.root_node().descendant_for_byte_range(start, end);
    let node = match node {
        Some(n)
            if !tree.root_node().has_error() && n.start_byte() == start && n.end_byte() == end =>
        {
            n
        }
        _ => {
            return Err(Error::new(
                Reason::CaptureParseError,
                format!("`{expr}` is not one {} expression", lang.id()),
            ));
        }
    };
    // A node that spans the expression may have a single-child parent that spans it too;
    // check from the outermost such node so that `(x)` and `x` are judged the same.
    let mut top = node;
    while let Some(p) = top.parent() {
        if p.start_byte() == start && p.end_byte() == end {
            top = p;
        } else {
            break;
        }
    }
    let top = if top.kind() == "expression_statement" {
        node
    } else {
        top
    };
    if has_legacy_literal(spec, &text, top) {
        return Err(Error::new(
            Reason::CaptureParseError,
            format!(
                "`{expr}` uses a literal form {} no longer accepts",
                lang.id()
            ),
        ));
    }
    if has_descendant(top, &spec.forbidden_descendants) || !allowed(spec, &text, top) {
        return Err(Error::new(
            Reason::CaptureNotSideEffectFree,
            format!(
                "`{expr}` is not an identifier, field access, literal index or length of a value"
            ),
        ));
    }
    Ok(())
}

/// The names capture expression `expr` reads: its identifiers, not the field names of an access
/// (`x` and `len` in `len(x.items)`, never `items`). Empty when `expr` does not parse (then
/// [`validate`] refuses it).
pub fn roots(lang: &Language, grammar: &Grammar, expr: &str) -> Vec<String> {
    let spec = &lang.spec.capture;
    let text = format!("{}{}{}", spec.prefix, expr, spec.suffix);
    let (start, end) = (spec.prefix.len(), spec.prefix.len() + expr.len());
    let Some(tree) = parse::parse(grammar, &text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    collect_roots(spec, &text, tree.root_node(), start, end, &mut out);
    out
}

fn collect_roots(
    spec: &CaptureSpec,
    text: &str,
    node: Node,
    start: usize,
    end: usize,
    out: &mut Vec<String>,
) {
    if node.end_byte() <= start || node.start_byte() >= end {
        return;
    }
    if node.kind() == "identifier" {
        let name = text[node.byte_range()].to_owned();
        if !out.contains(&name) {
            out.push(name);
        }
        return;
    }
    let mut c = node.walk();
    let named: Vec<Node> = node.named_children(&mut c).collect();
    // Of an access, only the object is read by name; the rest are field names.
    let named = if spec.access.iter().any(|k| k == node.kind()) {
        &named[..named.len().min(1)]
    } else {
        &named[..]
    };
    for n in named {
        collect_roots(spec, text, *n, start, end, out);
    }
}
