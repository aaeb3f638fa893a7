//! Rust extraction: `use` trees, the methods a standard `#[derive]` gives a type (the trait's,
//! from `grammars/rust/std-trait-methods.txt`), other derives and attribute macros that may add
//! members, `impl`
//! blocks (their trait, macros generating members), and clap's
//! derive attributes (`#[arg(long)]`) as CLI flags. Pure; called only from `super`.

use tree_sitter::Node;

use super::{Ctx, strip_quotes};
use crate::index::names::{RUST_CRATE_DERIVES, RUST_STD_DERIVES, RUST_STD_TRAIT_METHODS};
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

/// The path before the trait's name in an impl's trait as written (`::std::fmt` of
/// `::std::fmt::Display`, `ops` of `ops::Add<u8>`, empty for `Iterator`).
fn trait_qualifier(s: &str) -> &str {
    let s = s.split('<').next().unwrap_or(s).trim();
    s.rsplit_once("::").map_or("", |(q, _)| q.trim())
}

/// The last segment of each comma-separated path of a derive's token tree (`(A, b::C)` → `A`,
/// `C`).
fn derive_list<'t>(tt: Node<'t>, out: &mut Vec<Derived<'t>>) {
    let mut cur: Option<Derived<'t>> = None;
    let mut w = tt.walk();
    for c in tt.children(&mut w) {
        match c.kind() {
            "identifier" => {
                cur = Some(match cur {
                    Some(d) => Derived { name: c, ..d },
                    None => Derived { head: c, name: c },
                });
            }
            "," => out.extend(cur.take()),
            _ => {}
        }
    }
    out.extend(cur);
}

/// One derived path: its first and its last segment (`serde` and `Serialize` of
/// `serde::Serialize`; the same node for `Debug`).
#[derive(Clone, Copy)]
struct Derived<'t> {
    head: Node<'t>,
    name: Node<'t>,
}

/// Whether an attribute may add members to a type: an attribute macro (a derive is read by
/// `Ctx::derived`).
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
    // A derive's paths are read one by one (`Ctx::derived`).
    if inner.starts_with("derive(") {
        return false;
    }
    let head = inner.split(['(', '=', ' ']).next().unwrap_or("").trim();
    // Built-in attributes and tool attributes (`#[rustfmt::skip]`, `#[clippy::...]`) are no
    // macros.
    const BUILTIN: &[&str] = &["deprecated", "automatically_derived", "must_not_suspend"];
    const TOOLS: &[&str] = &["rustfmt::", "clippy::", "diagnostic::", "rustdoc::"];
    !PLAIN.contains(&head) && !BUILTIN.contains(&head) && !TOOLS.iter().any(|t| head.starts_with(t))
}

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
                for dv in self.derived(a) {
                    let name = dv.name;
                    let tr = self.t(name).to_owned();
                    let std = dv.head.id() == name.id()
                        || matches!(self.t(dv.head), "std" | "core" | "alloc");
                    match RUST_STD_TRAIT_METHODS.get(&tr) {
                        Some(methods) if RUST_STD_DERIVES.contains(&tr) && std => {
                            self.derived_methods(d, &tr, methods, name);
                        }
                        // A derive of a crate listed with its members (`serde::Serialize`,
                        // also under `cfg_attr`) gives exactly those; another may generate any
                        // member.
                        _ => match self
                            .derive_crate(dv)
                            .and_then(|k| RUST_CRATE_DERIVES.get(&format!("{k}::{tr}")))
                        {
                            Some(methods) => self.derived_methods(d, &tr, methods, name),
                            None => d.macro_members = true,
                        },
                    }
                }
            }
        }
        if d.kind == Kind::Field {
            self.clap_derive(def, d);
        }
        if d.kind == Kind::Function && d.container.is_none() {
            self.proc_macro_derive(def);
        }
        if d.kind == Kind::Module {
            self.rust_module(def, d);
        }
        // An item of an inline `mod a { mod b { ... } }` is `a::b::name` (its container stays
        // none: it is no member of a type; the resolver reads the module path from `qualified`).
        if d.container.is_none() {
            let mods = self.inline_modules(def);
            if !mods.is_empty() {
                d.qualified = format!("{mods}::{}", d.name);
            }
        }
    }

    /// `#[proc_macro_derive(Name, attributes(..))]` on the function `def` declares the derive
    /// macro `Name` at the crate root of the proc-macro crate: a [`Kind::Macro`] fact at the
    /// attribute.
    fn proc_macro_derive(&mut self, def: Node) {
        for a in self.attribute_items(def) {
            let text: String = self.t(a).chars().filter(|c| !c.is_whitespace()).collect();
            let Some(args) = text.strip_prefix("#[proc_macro_derive(") else {
                continue;
            };
            let name = args.split([',', ')']).next().unwrap_or("");
            if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                let mut m = self.new_decl(Kind::Macro, name.to_owned(), a);
                m.exported = true;
                self.push(m);
            }
        }
    }

    /// The inline modules `node` is inside, outermost first, joined by `::` (`` for none).
    pub(super) fn inline_modules(&self, node: Node) -> String {
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
        mods.join("::")
    }

    /// A `mod` item: `{ ... }` as its signature when its body is inline; the files its
    /// `#[path = "..."]` attributes name as `from`, one a line, with an empty line when one of
    /// them is under `cfg_attr` (the file the module's name gives may be the one compiled).
    fn rust_module(&self, def: Node, d: &mut Decl) {
        if def.child_by_field_name("body").is_some() {
            d.signature = Some("{ ... }".to_owned());
            return;
        }
        let mut paths = Vec::new();
        let mut conditional = false;
        for item in self.attribute_items(def) {
            let Some(attr) = item.named_child(0).filter(|a| a.kind() == "attribute") else {
                continue;
            };
            let Some(head) = attr.named_child(0) else {
                continue;
            };
            match self.t(head) {
                "path" => {
                    if let Some(v) = attr.child_by_field_name("value") {
                        paths.push(strip_quotes(self.t(v)).to_owned());
                    }
                }
                "cfg_attr" => {
                    if let Some(args) = attr.child_by_field_name("arguments") {
                        let before = paths.len();
                        self.cfg_attr_paths(args, &mut paths, 0);
                        conditional |= paths.len() > before;
                    }
                }
                _ => {}
            }
        }
        if paths.is_empty() {
            return;
        }
        if conditional {
            paths.push(String::new());
        }
        d.from = Some(paths.join("\n"));
    }

    /// The `path = "..."` values inside the token tree of a `cfg_attr(...)`, nested ones too.
    fn cfg_attr_paths(&self, tt: Node, out: &mut Vec<String>, depth: usize) {
        if depth > 16 {
            return;
        }
        let mut w = tt.walk();
        let kids: Vec<Node> = tt.children(&mut w).collect();
        for (i, k) in kids.iter().enumerate() {
            if k.kind() == "token_tree" {
                self.cfg_attr_paths(*k, out, depth + 1);
            } else if k.kind() == "identifier"
                && self.t(*k) == "path"
                && kids.get(i + 1).is_some_and(|e| self.t(*e) == "=")
                && let Some(v) = kids.get(i + 2).filter(|v| v.kind() == "string_literal")
            {
                out.push(strip_quotes(self.t(*v)).to_owned());
            }
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
        let tr_node = node.child_by_field_name("trait");
        let tr = tr_node.map(|t| base_type(self.t(t)));
        let fact = |this: &Self, at: Node, sig: Option<String>| {
            let mut d = this.new_decl(Kind::Impl, ty.clone(), at);
            d.trait_name = tr.clone();
            d.macro_members = sig.is_some();
            d.signature = sig;
            d
        };
        if let Some(t) = tr_node {
            let mut d = fact(self, node, None);
            // The trait's path as written, before its name (`std::fmt` of `std::fmt::Display`,
            // empty for `Display`): whose trait it is (the standard library's, a dependency's).
            d.from = Some(trait_qualifier(self.t(t)).to_owned());
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
            // A macro of this file: its expansion, under the block's header.
            let text = self.text;
            let header = &text[node.start_byte()..body.start_byte()];
            if let Some((decls, complete)) = self.rust_expand(c, Some(header)) {
                self.decls.extend(decls);
                if complete {
                    continue;
                }
            }
            let d = fact(self, c, Some(sig));
            self.push(d);
        }
    }

    /// The `#[...]` attribute texts right before `node` (comments skipped).
    pub(super) fn attributes(&self, node: Node) -> Vec<String> {
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

    /// The crate a derived path names: its first segment (`serde` of `serde::Serialize`), or
    /// for a bare name the crate of the file's `use` of it so far (`use serde::{Serialize}`),
    /// when all such uses agree.
    fn derive_crate(&self, dv: Derived) -> Option<String> {
        if dv.head.id() != dv.name.id() {
            return Some(self.t(dv.head).to_owned());
        }
        let name = self.t(dv.name);
        let mut krates = self
            .decls
            .iter()
            .filter(|x| x.kind == Kind::Import && x.name == name)
            .map(|x| {
                let f = x.from.as_deref().unwrap_or("").trim_start_matches("::");
                f.split("::").next().unwrap_or(f).to_owned()
            });
        let k = krates.next()?;
        krates.all(|o| o == k).then_some(k)
    }

    /// The last segment of each path an attribute item derives (`Debug` and `Serialize` of
    /// `#[derive(Debug, serde::Serialize)]`), also inside `#[cfg_attr(cond, derive(...))]`
    /// (nested too): the derive may apply, so its members may exist.
    fn derived<'t>(&self, item: Node<'t>) -> Vec<Derived<'t>> {
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
    fn cfg_attr_derives<'t>(&self, tt: Node<'t>, out: &mut Vec<Derived<'t>>, depth: usize) {
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
        // A `use` in a block (a function's body, `const _: () = { ... }`) binds only there:
        // no name of the module (rayon's `#[test] fn` with `use crate::prelude::*;` made
        // `crate::delegate` a glob of the prelude).
        let mut up = node.parent();
        while let Some(a) = up {
            if a.kind() == "block" {
                return;
            }
            up = a.parent();
        }
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
        if let Some(path) = Some(self.inline_modules(node)).filter(|m| !m.is_empty()) {
            for d in &mut self.decls[first..] {
                d.container = Some(path.clone());
                d.qualified = format!("{path}::{}", d.name);
            }
        }
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
