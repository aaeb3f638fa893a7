//! Rust macro calls and definitions as index facts: a call at item level (or in an impl block)
//! recorded with the identifier words of its tokens, which are the names it may declare, and a
//! `macro_rules!` definition with the words its transcribers write. The resolver reads them in
//! `resolve/rust/macros.rs`. Pure; called only from `super`.

use tree_sitter::Node;

use super::Ctx;
use crate::index::Kind;
use crate::index::names::{CUT, MACRO_RULES, PASTE, RUST_ITEMLESS_MACROS};

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
        if let Some(m) = Some(self.inline_modules(node)).filter(|m| !m.is_empty()) {
            d.qualified = format!("{m}::{name}");
            d.container = Some(m);
        }
        d.signature = Some(self.macro_call_signature(&name, node));
        // A macro of this file: what it expands to; the fact stays unless that is complete.
        if let Some((decls, complete)) = self.rust_expand(node, None) {
            self.decls.extend(decls);
            if complete {
                return;
            }
        }
        self.push(d);
    }

    /// `name!` and the identifier words of the token tree of the macro call `node`, and `[<`
    /// when it pastes identifiers (`paste!`, `concat_idents!`).
    pub(super) fn macro_call_signature(&self, name: &str, node: Node) -> String {
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
}
