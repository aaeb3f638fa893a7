//! Rust extraction: `use` trees, the methods a standard `#[derive]` gives a type (the trait's,
//! from `grammars/rust/std-trait-methods.txt`), other derives and attribute macros that may add
//! members, `impl`
//! blocks (their trait, macros generating members), and clap's
//! derive attributes (`#[arg(long)]`) as CLI flags. Pure; called only from `super`.

use tree_sitter::Node;

use super::{Ctx, strip_quotes};
use crate::index::names::{
    CUT, MACRO_RULES, PASTE, RUST_ITEMLESS_MACROS, RUST_STD_DERIVES, RUST_STD_TRAIT_METHODS,
};
use crate::index::{Decl, Kind};

/// `a::b::c` → (`a::b`, `c`); a path without `::` → (``, the path).
fn split_path(full: &str) -> (&str, &str) {
    full.rsplit_once("::").unwrap_or(("", full))
}

/// The last path segment of a type, without generics or references (`&mut a::Foo<T>` → `Foo`).
pub(super) fn base_type(s: &str) -> String {
    let s = s.trim_start_matches(['&', ' ']).trim_start_matches("mut ");
    let s = s.split('<').next().unwrap_or(s);
    s.rsplit("::").next().unwrap_or(s).trim().to_owned()
}

/// The last segment of each comma-separated path of a derive's token tree (`(A, b::C)` → `A`,
/// `C`).
fn derive_list<'t>(tt: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut last = None;
    let mut w = tt.walk();
    for c in tt.children(&mut w) {
        match c.kind() {
            "identifier" => last = Some(c),
            "," => out.extend(last.take()),
            _ => {}
        }
    }
    out.extend(last);
}

/// Whether an attribute may add members to a type: an attribute macro, or a derive beyond the
/// standard library's.
fn macro_attribute(a: &str) -> bool {
    let inner = a.trim_start_matches("#[").trim_end_matches(']').trim();
    const PLAIN: &[&str] = &[
        "doc",
        "cfg",
        "cfg_attr",
        "allow",
        "deny",
        "warn",
        "expect",
        "repr",
        "must_use",
        "non_exhaustive",
        "serde",
        "default",
    ];
    if let Some(list) = inner.strip_prefix("derive(") {
        return list
            .trim_end_matches(')')
            .split(',')
            .map(|x| x.trim().rsplit("::").next().unwrap_or(""))
            .any(|x| !x.is_empty() && !RUST_STD_DERIVES.contains(x));
    }
    let head = inner.split(['(', '=', ' ']).next().unwrap_or("").trim();
    // Built-in attributes and tool attributes (`#[rustfmt::skip]`, `#[clippy::...]`) are no
    // macros.
    const BUILTIN: &[&str] = &["deprecated", "automatically_derived", "must_not_suspend"];
    const TOOLS: &[&str] = &["rustfmt::", "clippy::", "diagnostic::", "rustdoc::"];
    !PLAIN.contains(&head) && !BUILTIN.contains(&head) && !TOOLS.iter().any(|t| head.starts_with(t))
}

/// Macros that paste identifiers together.
const PASTING: &[&str] = &["paste", "concat_idents", "item"];
/// How many distinct words a macro fact keeps (hostile input: a call of a million names).
const MAX_MACRO_WORDS: usize = 4096;

/// Appends to `sig` (space-separated) the distinct identifier words of the token trees
/// `trees`, in order, outside string and character literals and comments: `r#x` as `x`, a
/// word followed by `!` (a macro it calls) as `x!`, and [`PASTE`] once for a `[<` group or a
/// call of a pasting macro. Keywords and metavariables (`$x`) are no words.
fn macro_words(text: &str, trees: &[Node], sig: &mut String) {
    let mut seen = std::collections::HashSet::new();
    let mut add = |w: &str, sig: &mut String| {
        if seen.len() >= MAX_MACRO_WORDS {
            if seen.insert(CUT.to_owned()) {
                sig.push(' ');
                sig.push_str(CUT);
            }
            return;
        }
        if seen.insert(w.to_owned()) {
            sig.push(' ');
            sig.push_str(w);
        }
    };
    let mut stack: Vec<Node> = trees.iter().rev().copied().collect();
    while let Some(n) = stack.pop() {
        match n.kind() {
            "string_literal" | "raw_string_literal" | "char_literal" | "line_comment"
            | "block_comment" => continue,
            "token_tree"
                if n.child(0).is_some_and(|c| c.kind() == "[")
                    && n.child(1).is_some_and(|c| c.kind() == "<") =>
            {
                add(PASTE, sig);
            }
            _ => {}
        }
        if n.child_count() > 0 {
            let mut w = n.walk();
            let kids: Vec<Node> = n.children(&mut w).collect();
            stack.extend(kids.into_iter().rev());
            continue;
        }
        let t = &text[n.byte_range()];
        let t = t.strip_prefix("r#").unwrap_or(t);
        let ident = t
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && t.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !ident || RUST_KEYWORDS.contains(&t) {
            continue;
        }
        if n.next_sibling().is_some_and(|s| s.kind() == "!") {
            add(&format!("{t}!"), sig);
            if PASTING.contains(&t) {
                add(PASTE, sig);
            }
        } else {
            add(t, sig);
        }
    }
}

/// Rust keywords, which no macro declares as a name.
const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while",
];

impl Ctx<'_> {
    /// Rust `pub` as written; trait impl methods, and members of a `pub` trait or enum, follow
    /// their container.
    pub(super) fn rust_exported(&self, def: Node, d: &Decl) -> bool {
        let has_pub = |n: Node| {
            let mut w = n.walk();
            n.children(&mut w)
                .any(|c| c.kind() == "visibility_modifier")
        };
        has_pub(def)
            || d.trait_name.is_some()
            || def.parent().and_then(|p| p.parent()).is_some_and(|g| {
                (g.kind() == "trait_item" || g.kind() == "enum_item") && has_pub(g)
            })
    }

    /// What a Rust declaration adds: the methods a standard derive gives a type, macro-produced
    /// members of a type, clap flags of a field.
    pub(super) fn rust_def(&mut self, def: Node, d: &mut Decl) {
        if matches!(d.kind, Kind::Struct | Kind::Enum) {
            let items = self.attribute_items(def);
            d.macro_members = items.iter().any(|a| macro_attribute(self.t(*a)));
            for a in items {
                for name in self.derived(a) {
                    let tr = self.t(name).to_owned();
                    match RUST_STD_TRAIT_METHODS.get(&tr) {
                        Some(methods) if RUST_STD_DERIVES.contains(&tr) => {
                            self.derived_methods(d, &tr, methods, name);
                        }
                        // A derive of another crate (`serde::Serialize`, also under
                        // `cfg_attr`) may generate any member.
                        _ => d.macro_members = true,
                    }
                }
            }
        }
        if d.kind == Kind::Field {
            self.clap_derive(def, d);
        }
    }

    /// An `impl` block at module level: `impl Trait for Type` as a [`Kind::Impl`] fact (the
    /// trait's default methods are members of the type), and each macro that may add members to
    /// the type (one invoked in the body, `impl_reader!(read_u64);`, or an attribute macro on the
    /// block) as one with `macro_members` at the macro. Inherent blocks without macros add none.
    pub(super) fn rust_impl(&mut self, node: Node) {
        if !matches!(self.container(node), Ok(None)) {
            return;
        }
        let Some(ty) = node.child_by_field_name("type") else {
            return;
        };
        let ty = base_type(self.t(ty));
        let tr = node
            .child_by_field_name("trait")
            .map(|t| base_type(self.t(t)));
        let fact = |this: &Self, at: Node, sig: Option<String>| {
            let mut d = this.new_decl(Kind::Impl, ty.clone(), at);
            d.trait_name = tr.clone();
            d.macro_members = sig.is_some();
            d.signature = sig;
            d
        };
        if tr.is_some() {
            let d = fact(self, node, None);
            self.push(d);
        }
        for a in self.attributes(node) {
            if macro_attribute(&a) {
                let d = fact(self, node, Some(a));
                self.push(d);
            }
        }
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let mut w = body.walk();
        let calls: Vec<Node> = body
            .named_children(&mut w)
            .filter(|c| c.kind() == "macro_invocation")
            .collect();
        for c in calls {
            let Some(m) = c.child_by_field_name("macro") else {
                continue;
            };
            let sig = self.macro_call_signature(&format!("{}!", self.t(m)), c);
            let d = fact(self, c, Some(sig));
            self.push(d);
        }
    }

    /// A macro called at item level (in a file or an inline module, not in a function body, an
    /// impl block or a `#[cfg(test)]` module), which may declare items probity cannot see: one [`Kind::Impl`] fact named
    /// `name!` (no reference names that), with `macro_members`, the inline module it is in as
    /// its container (`tests`, `a::b`), and as its signature the call's
    /// path and the identifier words of its token tree ([`macro_words`]: `bitflags! Flags u32
    /// A`), which are the names it can declare (or, with `[<`, pieces of them).
    /// Standard macros that never declare items (`grammars/rust/itemless-macros.txt`) add none.
    pub(super) fn rust_item_macro(&mut self, node: Node) {
        let module = |p: Node| {
            p.kind() == "source_file"
                || (p.kind() == "declaration_list"
                    && p.parent().is_some_and(|g| g.kind() == "mod_item"))
        };
        // `num!(u8);` at item level parses as an expression statement.
        let item_level = node.parent().is_some_and(|p| {
            module(p) || (p.kind() == "expression_statement" && p.parent().is_some_and(module))
        });
        if !item_level || self.in_test_module(node) {
            return;
        }
        let Some(m) = node.child_by_field_name("macro") else {
            return;
        };
        let path = self.t(m).to_owned();
        let last = path.rsplit("::").next().unwrap_or(&path).trim();
        if RUST_ITEMLESS_MACROS.contains(last) {
            return;
        }
        let name = format!("{path}!");
        let mut d = self.new_decl(Kind::Impl, name.clone(), node);
        d.macro_members = true;
        // In an inline `mod m { ... }`: it declares items of `m` (as an import there binds).
        if let Some(m) = self.inline_module(node) {
            d.qualified = format!("{m}::{name}");
            d.container = Some(m);
        }
        d.signature = Some(self.macro_call_signature(&name, node));
        self.push(d);
    }

    /// `name!` and the identifier words of the token tree of the macro call `node`, and `[<`
    /// when it pastes identifiers (`paste!`, `concat_idents!`).
    fn macro_call_signature(&self, name: &str, node: Node) -> String {
        let mut w = node.walk();
        let trees: Vec<Node> = node
            .children(&mut w)
            .filter(|c| c.kind() == "token_tree")
            .collect();
        let mut sig = name.to_owned();
        macro_words(self.text, &trees, &mut sig);
        let last = name.trim_end_matches('!');
        let last = last.rsplit("::").next().unwrap_or(last);
        if PASTING.contains(&last) && !sig.split(' ').any(|x| x == PASTE) {
            sig.push(' ');
            sig.push_str(PASTE);
        }
        sig
    }

    /// A `macro_rules!` definition: one [`Kind::Impl`] fact named `name!` with the trait
    /// `macro_rules` (no reference names it), its signature `name!` and the words its
    /// transcribers write literally ([`macro_words`]; metavariables `$x` are not words): the
    /// names every call of it may declare whatever its arguments (`fn helper`, `impl Iterator
    /// for $t`), the macros it calls (`other!`) and `[<` when it pastes identifiers.
    pub(super) fn rust_macro_def(&mut self, node: Node) {
        let Some(n) = node.child_by_field_name("name") else {
            return;
        };
        let name = format!("{}!", self.t(n));
        let mut w = node.walk();
        let rights: Vec<Node> = node
            .named_children(&mut w)
            .filter(|r| r.kind() == "macro_rule")
            .filter_map(|r| r.child_by_field_name("right"))
            .collect();
        let mut sig = name.clone();
        macro_words(self.text, &rights, &mut sig);
        let mut d = self.new_decl(Kind::Impl, name, node);
        d.trait_name = Some(MACRO_RULES.to_owned());
        d.signature = Some(sig);
        self.push(d);
    }

    /// The `#[...]` attribute texts right before `node` (comments skipped).
    fn attributes(&self, node: Node) -> Vec<String> {
        let items = self.attribute_items(node);
        items.iter().map(|a| self.t(*a).to_owned()).collect()
    }

    /// The `#[...]` attribute items right before `node` (comments skipped), nearest first.
    fn attribute_items<'t>(&self, node: Node<'t>) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        let mut s = node.prev_sibling();
        while let Some(p) = s {
            match p.kind() {
                "attribute_item" => out.push(p),
                "line_comment" | "block_comment" => {}
                _ => break,
            }
            s = p.prev_sibling();
        }
        out
    }

    /// The last segment of each path an attribute item derives (`Debug` and `Serialize` of
    /// `#[derive(Debug, serde::Serialize)]`), also inside `#[cfg_attr(cond, derive(...))]`
    /// (nested too): the derive may apply, so its members may exist.
    fn derived<'t>(&self, item: Node<'t>) -> Vec<Node<'t>> {
        let mut out = Vec::new();
        let Some(attr) = item.named_child(0).filter(|a| a.kind() == "attribute") else {
            return out;
        };
        let (Some(path), Some(args)) = (attr.named_child(0), attr.child_by_field_name("arguments"))
        else {
            return out;
        };
        match self.t(path) {
            "derive" => derive_list(args, &mut out),
            "cfg_attr" => self.cfg_attr_derives(args, &mut out, 0),
            _ => {}
        }
        out
    }

    /// The derives inside the token tree of a `cfg_attr(...)`: `derive` followed by its list,
    /// and those of a nested `cfg_attr`. `depth` bounds the recursion on hostile input.
    fn cfg_attr_derives<'t>(&self, tt: Node<'t>, out: &mut Vec<Node<'t>>, depth: usize) {
        if depth > 16 {
            return;
        }
        let mut w = tt.walk();
        let kids: Vec<Node<'t>> = tt.children(&mut w).collect();
        for pair in kids.windows(2) {
            if pair[0].kind() != "identifier" || pair[1].kind() != "token_tree" {
                continue;
            }
            match self.t(pair[0]) {
                "derive" => derive_list(pair[1], out),
                "cfg_attr" => self.cfg_attr_derives(pair[1], out, depth + 1),
                _ => {}
            }
        }
    }

    /// The methods (required and provided) of the standard trait `tr` that `#[derive(tr)]` gives
    /// the type `d`: members of `d` implementing `tr`, declared at the derive's name `at`.
    fn derived_methods(
        &mut self,
        d: &Decl,
        tr: &str,
        methods: &std::collections::HashSet<&'static str>,
        at: Node,
    ) {
        let mut names: Vec<&str> = methods.iter().copied().collect();
        names.sort_unstable();
        for m in names {
            let mut f = self.new_decl(Kind::Method, m.to_owned(), at);
            f.qualified = format!("{}::{m}", d.name);
            f.container = Some(d.name.clone());
            f.trait_name = Some(tr.to_owned());
            // A trait's methods are as visible as the type (`rust_exported`).
            f.exported = true;
            self.push(f);
        }
    }

    /// `#[arg(long)]` / `#[arg(long = "x")]` / `#[clap(long)]` on a struct field.
    fn clap_derive(&mut self, field: Node, d: &Decl) {
        for a in self.attributes(field) {
            let inner = a.trim_start_matches("#[").trim_end_matches(']');
            if !(inner.starts_with("arg(")
                || inner.starts_with("clap(")
                || inner.starts_with("structopt("))
            {
                continue;
            }
            let args = &inner[inner.find('(').unwrap_or(0) + 1..];
            for part in args.split(',') {
                let part = part.trim().trim_end_matches(')').trim();
                let long = if part == "long" {
                    Some(d.name.replace('_', "-"))
                } else if let Some(rest) = part.strip_prefix("long") {
                    let rest = rest.trim_start();
                    rest.strip_prefix('=')
                        .map(|v| strip_quotes(v.trim()).to_owned())
                } else {
                    None
                };
                if let Some(l) = long.filter(|l| !l.is_empty()) {
                    let mut f = d.clone();
                    f.kind = Kind::CliFlag;
                    f.name = format!("--{l}");
                    f.qualified = f.name.clone();
                    f.container = None;
                    f.trait_name = None;
                    f.signature = None;
                    f.exported = true;
                    self.push(f);
                }
            }
        }
    }

    pub(super) fn rust_import(&mut self, node: Node) {
        let exported = {
            let mut w = node.walk();
            node.children(&mut w)
                .any(|c| c.kind() == "visibility_modifier")
        };
        let first = self.decls.len();
        if let Some(arg) = node.child_by_field_name("argument") {
            self.rust_use(arg, "", exported);
        }
        // A `use` inside an inline `mod x { ... }` binds in module `x`, not in the file's module:
        // its container is the module path below the file (`tests`, `a::b`), so the file's own
        // names and globs leave it out (`mod tests { use super::*; }` does not make the file a
        // glob of its parent).
        if let Some(path) = self.inline_module(node) {
            for d in &mut self.decls[first..] {
                d.container = Some(path.clone());
                d.qualified = format!("{path}::{}", d.name);
            }
        }
    }

    /// Whether `node` is in an inline module compiled only for tests (`#[cfg(test)] mod t {}`):
    /// what a macro call there declares is no item of the lib.
    fn in_test_module(&self, node: Node) -> bool {
        let mut p = node.parent();
        while let Some(a) = p {
            if a.kind() == "mod_item"
                && self.attributes(a).iter().any(|t| {
                    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
                    t == "#[cfg(test)]"
                })
            {
                return true;
            }
            p = a.parent();
        }
        false
    }

    /// The path below the file of the inline modules `node` is in (`tests`, `a::b`), if any.
    fn inline_module(&self, node: Node) -> Option<String> {
        let mut mods = Vec::new();
        let mut p = node.parent();
        while let Some(a) = p {
            if a.kind() == "mod_item"
                && let Some(n) = a.child_by_field_name("name")
            {
                mods.push(self.t(n).to_owned());
            }
            p = a.parent();
        }
        mods.reverse();
        (!mods.is_empty()).then(|| mods.join("::"))
    }

    fn rust_use(&mut self, n: Node, prefix: &str, exported: bool) {
        let join = |p: &str, s: &str| {
            if p.is_empty() {
                s.to_owned()
            } else {
                format!("{p}::{s}")
            }
        };
        match n.kind() {
            "scoped_identifier" | "identifier" | "crate" | "self" | "super" => {
                let full = join(prefix, self.t(n));
                let (from, name) = split_path(&full);
                if name == "self" {
                    let bind = from.rsplit("::").next().unwrap_or(from);
                    self.import_decl(n, bind, from, None, exported);
                } else {
                    self.import_decl(n, name, from, Some(name), exported);
                }
            }
            "use_as_clause" => {
                let (Some(p), Some(a)) = (
                    n.child_by_field_name("path"),
                    n.child_by_field_name("alias"),
                ) else {
                    return;
                };
                let full = join(prefix, self.t(p));
                let (from, name) = split_path(&full);
                let alias = self.t(a).to_owned();
                self.import_decl(n, &alias, from, Some(name), exported);
            }
            "use_wildcard" => {
                let t = self.t(n).trim_end_matches('*').trim_end_matches("::");
                let from = join(prefix, t);
                self.import_decl(n, "*", &from, Some("*"), exported);
            }
            "scoped_use_list" => {
                let p = n
                    .child_by_field_name("path")
                    .map_or(String::new(), |p| self.t(p).to_owned());
                let np = if p.is_empty() {
                    prefix.to_owned()
                } else {
                    join(prefix, &p)
                };
                if let Some(list) = n.child_by_field_name("list") {
                    self.rust_use(list, &np, exported);
                }
            }
            "use_list" => {
                let mut w = n.walk();
                let kids: Vec<Node> = n.named_children(&mut w).collect();
                for c in kids {
                    self.rust_use(c, prefix, exported);
                }
            }
            _ => {}
        }
    }
}
