//! What a call of a class reaches (docs/drift.md, "Call shapes", constructors): the class read
//! again from its file's parse tree, its own constructor declarations (`__init__`, a
//! JavaScript/TypeScript `constructor` with its overload signatures), its bases as written, and
//! whatever makes the constructor impossible to read from the class (a class decorator that may
//! write it, `__new__`, a metaclass). Following a base into the repository is the resolver's
//! part (`resolve::calls`); nothing here is cached.

use std::path::Path;

use tree_sitter::Node;

use super::Callable;
use super::params::{Parsed, Reader};
use crate::lang::Family;

/// A class as a call of it sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassShape {
    /// The class as written up to its body, white space collapsed (`class Reader(Base)`).
    pub head: String,
    /// Its own constructor declarations (several: a TypeScript class's overload signatures and
    /// implementation, Python `@overload` stubs); empty when its body has none.
    pub ctors: Vec<Callable>,
    /// Its bases as written, without type arguments (`Base`, `models.Model`); bases that give
    /// no constructor (`object`, `Generic[T]`, `ABC`) left out. A JavaScript class has at most
    /// one (`extends`).
    pub bases: Vec<String>,
    /// Why a call's parameters cannot be read from the class at all.
    pub unsure: Option<String>,
}

/// Python bases that neither take arguments nor change how the class is called.
const PY_NEUTRAL_BASES: &[&str] = &["object", "Generic", "typing.Generic", "ABC", "abc.ABC"];

/// The class of `rel` under `root` whose name is at `at` (1-based line, 1-based byte column).
pub fn class_at(root: &Path, rel: &str, at: (usize, usize)) -> Result<ClassShape, String> {
    let file = Parsed::read(root, rel)?;
    let r = file.reader();
    let name = file
        .node_at(at)
        .ok_or_else(|| format!("no declaration at {rel}:{}:{}", at.0, at.1))?;
    let class = class_node(name).ok_or_else(|| format!("no class at {rel}:{}:{}", at.0, at.1))?;
    let body = class
        .child_by_field_name("body")
        .ok_or_else(|| format!("the class at {rel}:{} has no body", at.0))?;
    let mut shape = ClassShape {
        head: head(&r, class, body),
        ctors: Vec::new(),
        bases: Vec::new(),
        unsure: None,
    };
    match r.family {
        Family::Python => python(&r, class, body, &mut shape),
        Family::JavaScript => javascript(&r, class, body, &mut shape),
        Family::Rust => return Err(format!("{rel} is Rust: a struct has no constructor")),
    }
    Ok(shape)
}

/// The class node a declaration's name belongs to: the class itself, or the class expression
/// a variable is bound to (`const Reader = class { ... }`).
fn class_node(name: Node) -> Option<Node> {
    let p = name.parent()?;
    match p.kind() {
        "class_definition" | "class_declaration" | "abstract_class_declaration" | "class" => {
            Some(p)
        }
        "variable_declarator" | "assignment_expression" => p
            .child_by_field_name("value")
            .or_else(|| p.child_by_field_name("right"))
            .filter(|v| v.kind() == "class"),
        _ => None,
    }
}

fn head(r: &Reader, class: Node, body: Node) -> String {
    r.text_between(
        class.start_byte(),
        body.start_byte().max(class.start_byte()),
    )
}

fn python(r: &Reader, class: Node, body: Node, shape: &mut ClassShape) {
    if let Some(d) = class
        .parent()
        .filter(|p| p.kind() == "decorated_definition")
        .and_then(|p| p.named_child(0))
        .filter(|d| d.kind() == "decorator")
    {
        shape.unsure = Some(format!(
            "the class is decorated by `{}`, which may write its constructor",
            r.t(d).trim()
        ));
        return;
    }
    if let Some(args) = class.child_by_field_name("superclasses") {
        let mut w = args.walk();
        for a in args.named_children(&mut w) {
            match a.kind() {
                "comment" => {}
                "identifier" | "attribute" | "subscript" => {
                    let whole = r.t(a);
                    let base = whole.split('[').next().unwrap_or(whole).trim();
                    if !PY_NEUTRAL_BASES.contains(&base) {
                        shape.bases.push(base.to_owned());
                    }
                }
                _ => {
                    shape.unsure = Some(format!(
                        "`{}` among its bases may change how it is called",
                        r.t(a)
                    ));
                    return;
                }
            }
        }
    }
    let mut w = body.walk();
    for item in body.named_children(&mut w) {
        let f = if item.kind() == "decorated_definition" {
            item.child_by_field_name("definition")
        } else {
            Some(item)
        };
        let named = f
            .filter(|f| f.kind() == "function_definition")
            .and_then(|f| f.child_by_field_name("name"));
        let text = r.t(item);
        match named.map(|n| (n, r.t(n))) {
            Some((n, "__init__")) => match r.callable(n) {
                Some(c) => shape.ctors.push(c),
                None => {
                    shape.unsure = Some("its `__init__` could not be read".to_owned());
                    return;
                }
            },
            Some((_, "__new__")) => {
                shape.unsure =
                    Some("it defines `__new__`, which takes the call's arguments too".to_owned());
                return;
            }
            Some(_) => {}
            // `__init__ = other`, `if ...: def __init__`, `__metaclass__ = M`.
            None if ["__init__", "__new__", "__metaclass__", "__call__"]
                .iter()
                .any(|w| text.contains(w)) =>
            {
                shape.unsure = Some(format!(
                    "its body binds its constructor in a way probity does not read (`{}`)",
                    first_line(text)
                ));
                return;
            }
            None => {}
        }
    }
}

fn javascript(r: &Reader, class: Node, body: Node, shape: &mut ClassShape) {
    let mut w = class.walk();
    let mut decorators = class
        .children_by_field_name("decorator", &mut w)
        .collect::<Vec<_>>();
    let mut prev = class.prev_named_sibling();
    while let Some(d) = prev.filter(|d| d.kind() == "decorator") {
        decorators.push(d);
        prev = d.prev_named_sibling();
    }
    if let Some(p) = class.parent().filter(|p| p.kind() == "export_statement") {
        let mut w = p.walk();
        decorators.extend(p.children_by_field_name("decorator", &mut w));
    }
    if let Some(d) = decorators.first() {
        shape.unsure = Some(format!(
            "the class is decorated by `{}`, which may replace it",
            r.t(*d).trim()
        ));
        return;
    }
    let mut w = class.walk();
    for h in class.named_children(&mut w) {
        if h.kind() != "class_heritage" {
            continue;
        }
        // TypeScript: `extends_clause` beside `implements_clause`; JavaScript: the expression.
        let mut hw = h.walk();
        let kids: Vec<Node> = h.named_children(&mut hw).collect();
        let base = match kids.iter().find(|k| k.kind() == "extends_clause") {
            Some(e) => e.child_by_field_name("value").or_else(|| e.named_child(0)),
            None if kids.iter().all(|k| k.kind() == "implements_clause") => None,
            None => kids.first().copied(),
        };
        if let Some(b) = base {
            shape.bases.push(r.t(b).trim().to_owned());
        }
    }
    let mut w = body.walk();
    for m in body.named_children(&mut w) {
        if !matches!(m.kind(), "method_definition" | "method_signature") {
            continue;
        }
        let Some(n) = m.child_by_field_name("name") else {
            continue;
        };
        if r.t(n) == "constructor" {
            match r.callable(n) {
                Some(c) => shape.ctors.push(c),
                None => {
                    shape.unsure = Some("its `constructor` could not be read".to_owned());
                    return;
                }
            }
        }
    }
}

fn first_line(s: &str) -> &str {
    let l = s.lines().next().unwrap_or("").trim();
    match l.char_indices().nth(80) {
        Some((i, _)) => &l[..i],
        None => l,
    }
}
