//! The parameters of a callable declaration, read from its parse tree on demand (the drift
//! guard's signature check, docs/drift.md "Call shapes"): positional and keyword parameters,
//! defaults, `*args` / `**kwargs`, rest parameters, Rust `self` receivers, the decorators or
//! attributes written on it, whether it is a bodiless signature (a TypeScript overload, a Python
//! `@overload` stub), and whether a JavaScript body reads `arguments`.
//!
//! Nothing here is cached: the file of a declaration is parsed again only when a plan cites a
//! call of it, so the index and its on-disk formats are unchanged. The declaration is found by
//! the position of its name ([`super::Decl::line`] / `column`).

use std::path::Path;

use tree_sitter::Node;

use crate::lang::Family;

/// How an argument binds to a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A Rust `self`, `&self`, `&mut self`, `self: Box<Self>` receiver.
    Receiver,
    /// Python, before `/`: by position only.
    PositionalOnly,
    /// By position or by name (Python); by position (Rust, JavaScript).
    Regular,
    /// Python, after `*` or `*args`: by name only.
    KeywordOnly,
    /// `*args`, `...rest`, a Rust C-variadic `...`: any number of further positional arguments.
    VarArgs,
    /// `**kwargs`: any further keyword arguments.
    VarKwargs,
}

/// One parameter as declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// Its name (a pattern as written for a destructured one).
    pub name: String,
    /// How it binds.
    pub kind: ParamKind,
    /// It has a default (`x=1`, `x = 1`) or is marked optional (`x?: T`).
    pub optional: bool,
}

/// A callable declaration's parameters and what bears on reading them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Callable {
    /// Every parameter, in order (a TypeScript `this` parameter left out).
    pub params: Vec<Param>,
    /// Declared in a class body, an `impl` or a `trait` (a method).
    pub in_class: bool,
    /// Decorators (Python, TypeScript) or outer attributes (Rust) as written, without `@` /
    /// `#[` `]`.
    pub decorators: Vec<String>,
    /// A signature without a body: a TypeScript overload or interface member, a `.d.ts`
    /// declaration, a Python `@overload` stub, a Rust trait method without a default.
    pub signature_only: bool,
    /// A JavaScript/TypeScript body that reads `arguments` (it may take any number of them).
    pub reads_arguments: bool,
    /// The declaration as written up to its body (`def parse(text, *, strict=False) -> Doc`).
    pub head: String,
    /// Why its parameters cannot be read as written (a parameter under `#[cfg]`, a macro
    /// metavariable, a syntax error inside them).
    pub unreadable: Option<String>,
}

/// Most bytes of [`Callable::head`].
const MAX_HEAD: usize = 300;

/// The callables of `rel` under `root` declared with their names at `at` (1-based line, 1-based
/// byte column), in `at` order: `None` where no callable declaration is there; and, for a
/// TypeScript class or interface member, the members of the same name beside it that `at` does
/// not name (its overload signatures and implementation: the index keeps one member per name).
/// `Err` says why the file could not be read or parsed.
pub fn callables_at(
    root: &Path,
    rel: &str,
    at: &[(usize, usize)],
) -> Result<(Vec<Option<Callable>>, Vec<Callable>), String> {
    let file = Parsed::read(root, rel)?;
    let r = file.reader();
    let ts = r.ts;
    let names: Vec<Option<Node>> = at.iter().map(|&p| file.node_at(p)).collect();
    let found = names.iter().map(|n| r.callable((*n)?)).collect();
    // The index keeps one member per name; a TypeScript class's or interface's overload
    // signatures are its siblings of that name.
    let mut extra = Vec::new();
    if ts {
        let given: Vec<usize> = names.iter().flatten().map(|n| n.start_byte()).collect();
        for name in names.iter().flatten() {
            let Some(member) = name.parent().filter(|m| is_member(m.kind())) else {
                continue;
            };
            let Some(body) = member.parent() else {
                continue;
            };
            let mut cur = body.walk();
            for sib in body.named_children(&mut cur) {
                let Some(sname) = sib.child_by_field_name("name") else {
                    continue;
                };
                if sib.id() != member.id()
                    && is_member(sib.kind())
                    && r.t(sname) == r.t(*name)
                    && !given.contains(&sname.start_byte())
                    && let Some(c) = r.callable(sname)
                {
                    extra.push(c);
                }
            }
        }
    }
    Ok((found, extra))
}

/// A TypeScript class or interface member that has parameters.
fn is_member(k: &str) -> bool {
    matches!(
        k,
        "method_definition" | "method_signature" | "abstract_method_signature"
    )
}

/// A file of the repository read and parsed again, for [`Reader`].
pub(super) struct Parsed {
    text: String,
    tree: tree_sitter::Tree,
    family: Family,
    ts: bool,
}

impl Parsed {
    /// `rel` under `root`, parsed with its language's grammar; `Err` says why it could not be.
    pub(super) fn read(root: &Path, rel: &str) -> Result<Parsed, String> {
        let (lang, grammar) =
            crate::lang::for_path(Path::new(rel)).ok_or_else(|| format!("{rel} has no grammar"))?;
        let bytes =
            crate::fsio::read_repo_file(root.join(rel)).map_err(|e| format!("{rel}: {e}"))?;
        let text = String::from_utf8(bytes).map_err(|_| format!("{rel} is not UTF-8"))?;
        let tree =
            crate::parse::parse(grammar, &text).ok_or_else(|| format!("{rel} did not parse"))?;
        Ok(Parsed {
            text,
            tree,
            family: lang.family(),
            ts: lang.id() == "typescript",
        })
    }

    /// `text` parsed as a file named `name` (its extension picks the grammar).
    pub(super) fn from_text(name: &str, text: String) -> Result<Parsed, String> {
        let (lang, grammar) = crate::lang::for_path(Path::new(name))
            .ok_or_else(|| format!("{name} has no grammar"))?;
        let tree =
            crate::parse::parse(grammar, &text).ok_or_else(|| format!("{name} did not parse"))?;
        Ok(Parsed {
            text,
            tree,
            family: lang.family(),
            ts: lang.id() == "typescript",
        })
    }

    /// The root of its tree.
    pub(super) fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    pub(super) fn reader(&self) -> Reader<'_> {
        Reader {
            text: &self.text,
            family: self.family,
            ts: self.ts,
        }
    }

    /// The smallest node at a 1-based line and 1-based byte column.
    pub(super) fn node_at(&self, (line, col): (usize, usize)) -> Option<Node<'_>> {
        let p = tree_sitter::Point::new(line.checked_sub(1)?, col.checked_sub(1)?);
        self.tree.root_node().descendant_for_point_range(p, p)
    }
}

/// Reads callables out of one parsed file.
pub(super) struct Reader<'a> {
    text: &'a str,
    pub(super) family: Family,
    pub(super) ts: bool,
}

/// Kinds of nodes that are a function with parameters.
fn is_function(k: &str) -> bool {
    matches!(
        k,
        "function_definition"
            | "function_item"
            | "function_signature_item"
            | "function_declaration"
            | "generator_function_declaration"
            | "function_expression"
            | "function"
            | "generator_function"
            | "arrow_function"
            | "method_definition"
            | "method_signature"
            | "abstract_method_signature"
            | "function_signature"
    )
}

impl<'a> Reader<'a> {
    pub(super) fn t(&self, n: Node) -> &'a str {
        &self.text[n.byte_range()]
    }

    /// The callable whose name is `name`: the function node itself, or the function a
    /// declarator, assignment, pair or class field binds to it.
    pub(super) fn callable(&self, name: Node) -> Option<Callable> {
        let mut n = name;
        for _ in 0..4 {
            n = n.parent()?;
            if is_function(n.kind()) {
                let params = n
                    .child_by_field_name("parameters")
                    .or_else(|| n.child_by_field_name("parameter"))?;
                if name.start_byte() >= params.start_byte() {
                    return None;
                }
                return Some(self.read(n, n, params));
            }
            let value = ["value", "right"]
                .iter()
                .find_map(|f| n.child_by_field_name(f));
            if let Some(v) = value
                && is_function(v.kind())
                && name.end_byte() <= v.start_byte()
            {
                let params = v
                    .child_by_field_name("parameters")
                    .or_else(|| v.child_by_field_name("parameter"))?;
                return Some(self.read(n, v, params));
            }
        }
        None
    }

    /// `decl` is the node written at the declaration (a declarator, a function), `f` the
    /// function, `params` its parameters.
    fn read(&self, decl: Node, f: Node, params: Node) -> Callable {
        let mut c = Callable {
            params: Vec::new(),
            in_class: false,
            decorators: Vec::new(),
            signature_only: f.child_by_field_name("body").is_none(),
            reads_arguments: false,
            head: self.head(decl, f),
            unreadable: params
                .has_error()
                .then(|| "its parameters have syntax errors".to_owned()),
        };
        match self.family {
            Family::Python => self.python(&mut c, f, params),
            Family::Rust => self.rust(&mut c, f, params),
            Family::JavaScript => self.javascript(&mut c, decl, f, params),
        }
        c
    }

    /// The declaration up to its body, white space collapsed.
    fn head(&self, decl: Node, f: Node) -> String {
        let end = f
            .child_by_field_name("body")
            .map_or(f.end_byte(), |b| b.start_byte());
        self.text_between(decl.start_byte(), end.max(decl.start_byte()))
    }

    /// The text of a byte range, white space collapsed, the opening of a body (`=>`, `{`,
    /// `:`...) trimmed off its end, at most [`MAX_HEAD`] bytes.
    pub(super) fn text_between(&self, start: usize, end: usize) -> String {
        let mut s = self.text[start..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for tail in ["=>", "{", ":", ";", "where"] {
            s = s.trim_end().trim_end_matches(tail).trim_end().to_owned();
        }
        if s.len() > MAX_HEAD {
            let mut cut = MAX_HEAD;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
            s.push('…');
        }
        s
    }

    fn python(&self, c: &mut Callable, f: Node, params: Node) {
        let outer = f
            .parent()
            .filter(|p| p.kind() == "decorated_definition")
            .unwrap_or(f);
        if outer.kind() == "decorated_definition" {
            let mut w = outer.walk();
            for d in outer.named_children(&mut w) {
                if d.kind() == "decorator" {
                    c.decorators
                        .push(self.t(d).trim_start_matches('@').trim().to_owned());
                }
            }
        }
        c.in_class = outer
            .parent()
            .and_then(|b| b.parent())
            .is_some_and(|k| k.kind() == "class_definition");
        // `@overload`, `@typing.overload`, `@t.overload` (`import typing as t`).
        c.signature_only = c
            .decorators
            .iter()
            .any(|d| d.rsplit('.').next() == Some("overload"));
        let mut after_star = false;
        let mut w = params.walk();
        for p in params.named_children(&mut w) {
            let (kind, name, optional) = match p.kind() {
                "identifier" | "tuple_pattern" => (ParamKind::Regular, self.t(p), false),
                "default_parameter" | "typed_default_parameter" => {
                    let n = p.child_by_field_name("name").unwrap_or(p);
                    (ParamKind::Regular, self.t(n), true)
                }
                "typed_parameter" => {
                    let inner = p.named_child(0).unwrap_or(p);
                    match inner.kind() {
                        "list_splat_pattern" => (ParamKind::VarArgs, self.t(inner), false),
                        "dictionary_splat_pattern" => (ParamKind::VarKwargs, self.t(inner), false),
                        _ => (ParamKind::Regular, self.t(inner), false),
                    }
                }
                "list_splat_pattern" => (ParamKind::VarArgs, self.t(p), false),
                "dictionary_splat_pattern" => (ParamKind::VarKwargs, self.t(p), false),
                "keyword_separator" => {
                    after_star = true;
                    continue;
                }
                "positional_separator" => {
                    for q in &mut c.params {
                        if q.kind == ParamKind::Regular {
                            q.kind = ParamKind::PositionalOnly;
                        }
                    }
                    continue;
                }
                "comment" => continue,
                other => {
                    c.unreadable = Some(format!("a parameter probity cannot read (`{other}`)"));
                    continue;
                }
            };
            let kind = if kind == ParamKind::Regular && after_star {
                ParamKind::KeywordOnly
            } else {
                kind
            };
            if kind == ParamKind::VarArgs {
                after_star = true;
            }
            c.params.push(Param {
                name: name.trim_start_matches('*').to_owned(),
                kind,
                optional,
            });
        }
    }

    fn rust(&self, c: &mut Callable, f: Node, params: Node) {
        let mut prev = f.prev_named_sibling();
        while let Some(a) = prev {
            match a.kind() {
                "attribute_item" => {
                    let t = self.t(a);
                    let inner = t.trim_start_matches("#[").trim_end_matches(']').trim();
                    c.decorators.insert(0, inner.to_owned());
                }
                "line_comment" | "block_comment" => {}
                _ => break,
            }
            prev = a.prev_named_sibling();
        }
        c.in_class = f
            .parent()
            .and_then(|b| b.parent())
            .is_some_and(|k| matches!(k.kind(), "impl_item" | "trait_item"));
        c.signature_only = f.kind() == "function_signature_item";
        let mut w = params.walk();
        for p in params.named_children(&mut w) {
            let (kind, name) = match p.kind() {
                "self_parameter" => (ParamKind::Receiver, self.t(p)),
                "parameter" => {
                    let pat = p.child_by_field_name("pattern");
                    match pat {
                        Some(s) if s.kind() == "self" => (ParamKind::Receiver, self.t(p)),
                        Some(s) => (ParamKind::Regular, self.t(s)),
                        None => (ParamKind::Regular, self.t(p)),
                    }
                }
                "variadic_parameter" => (ParamKind::VarArgs, "..."),
                "attribute_item" => {
                    if self.t(p).contains("cfg") {
                        c.unreadable = Some(format!(
                            "a parameter is under `{}`, which may remove it",
                            self.t(p)
                        ));
                    }
                    continue;
                }
                "line_comment" | "block_comment" => continue,
                "metavariable" => {
                    c.unreadable = Some("a parameter is a macro metavariable".to_owned());
                    continue;
                }
                _ => (ParamKind::Regular, self.t(p)),
            };
            c.params.push(Param {
                name: name.to_owned(),
                kind,
                optional: false,
            });
        }
    }

    fn javascript(&self, c: &mut Callable, decl: Node, f: Node, params: Node) {
        let mut decorators = Vec::new();
        let mut w = f.walk();
        for d in f.children_by_field_name("decorator", &mut w) {
            decorators.push(self.t(d).trim_start_matches('@').trim().to_owned());
        }
        let mut prev = decl.prev_named_sibling();
        while let Some(d) = prev.filter(|d| d.kind() == "decorator") {
            decorators.insert(0, self.t(d).trim_start_matches('@').trim().to_owned());
            prev = d.prev_named_sibling();
        }
        c.decorators = decorators;
        c.in_class = f
            .parent()
            .is_some_and(|b| matches!(b.kind(), "class_body" | "interface_body" | "object_type"));
        // A JavaScript function always has a body; a TypeScript declaration may not.
        c.signature_only = self.ts && c.signature_only;
        c.reads_arguments = f
            .child_by_field_name("body")
            .is_some_and(|b| self.reads_arguments(b));
        if params.kind() == "identifier" {
            // `x => ...`
            c.params.push(Param {
                name: self.t(params).to_owned(),
                kind: ParamKind::Regular,
                optional: false,
            });
            return;
        }
        let mut w = params.walk();
        for p in params.named_children(&mut w) {
            let (kind, name, optional) = match p.kind() {
                "required_parameter" | "optional_parameter" => {
                    let pat = p.child_by_field_name("pattern").unwrap_or(p);
                    if pat.kind() == "this" {
                        continue;
                    }
                    let optional = p.kind() == "optional_parameter"
                        || p.child_by_field_name("value").is_some();
                    if pat.kind() == "rest_pattern" {
                        (ParamKind::VarArgs, self.t(pat), false)
                    } else {
                        (ParamKind::Regular, self.t(pat), optional)
                    }
                }
                "assignment_pattern" => {
                    let l = p.child_by_field_name("left").unwrap_or(p);
                    (ParamKind::Regular, self.t(l), true)
                }
                "rest_pattern" => (ParamKind::VarArgs, self.t(p), false),
                "comment" | "decorator" => continue,
                _ => (ParamKind::Regular, self.t(p), false),
            };
            c.params.push(Param {
                name: name.trim_start_matches("...").to_owned(),
                kind,
                optional,
            });
        }
    }

    /// Whether `body` reads `arguments` (an identifier anywhere in it; nested functions
    /// included, so an arrow function's inherited `arguments` counts).
    fn reads_arguments(&self, body: Node) -> bool {
        if !self.t(body).contains("arguments") {
            return false;
        }
        let mut cur = body.walk();
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.kind() == "identifier" && self.t(n) == "arguments" {
                return true;
            }
            stack.extend(n.named_children(&mut cur));
        }
        false
    }
}
