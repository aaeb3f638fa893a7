//! Python extraction: `import` / `from ... import` bindings, `__all__`, and the names an
//! assignment, an assignment expression, a `for` or a `with ... as` binds. Pure; called only from `super`.

use tree_sitter::Node;

use super::{Ctx, strip_quotes};
use crate::index::Kind;

/// Target kinds whose named children are targets in turn: `a, b`, `(a, b)`, `[a, b]`, `*a`,
/// `(a)`, and a `with` item's `as` target.
const TARGET_LISTS: &[&str] = &[
    "pattern_list",
    "tuple_pattern",
    "list_pattern",
    "list_splat_pattern",
    "parenthesized_expression",
    "as_pattern_target",
    "tuple",
    "list",
    "list_splat",
];

impl<'a> Ctx<'a> {
    pub(super) fn dunder_all(&mut self, v: Node) {
        let mut set = self.all.take().unwrap_or_default();
        let mut w = v.walk();
        for c in v.named_children(&mut w) {
            if c.kind() == "string" {
                set.insert(strip_quotes(self.t(c)).to_owned());
            }
        }
        self.all = Some(set);
    }

    /// A binding target (an assignment's left side, a `for` target, a `with ... as` target, the
    /// name of an assignment expression `(x := ...)`): each
    /// name it binds is a variable (a field in a class body), each `self.x` in it an instance
    /// attribute. Where it sits decides the rest ([`Ctx::def`]): names bound inside a function
    /// are locals and dropped, `self.x` belongs to the class of the enclosing method.
    pub(super) fn python_target(&mut self, target: Node<'a>) {
        let Some(def) = self.up(target) else {
            return;
        };
        let mut names = Vec::new();
        collect_targets(target, self.text, &mut names, 0);
        for (n, kind) in names {
            self.def(def, n, kind);
        }
    }

    pub(super) fn python_import(&mut self, node: Node) {
        match node.kind() {
            "import_statement" => {
                let mut w = node.walk();
                for c in node.children_by_field_name("name", &mut w) {
                    if c.kind() == "aliased_import" {
                        let (Some(n), Some(a)) = (
                            c.child_by_field_name("name"),
                            c.child_by_field_name("alias"),
                        ) else {
                            continue;
                        };
                        let (n, a) = (self.t(n).to_owned(), self.t(a).to_owned());
                        self.import_decl(c, &a, &n, None, false);
                    } else {
                        let full = self.t(c).to_owned();
                        let first = full.split('.').next().unwrap_or(&full).to_owned();
                        self.import_decl(c, &first, &first, None, false);
                    }
                }
            }
            "import_from_statement" => {
                let Some(m) = node.child_by_field_name("module_name") else {
                    return;
                };
                let module = self.t(m).to_owned();
                let mut w = node.walk();
                let mut any = false;
                for c in node.children_by_field_name("name", &mut w) {
                    any = true;
                    if c.kind() == "aliased_import" {
                        let (Some(n), Some(a)) = (
                            c.child_by_field_name("name"),
                            c.child_by_field_name("alias"),
                        ) else {
                            continue;
                        };
                        let (n, a) = (self.t(n).to_owned(), self.t(a).to_owned());
                        self.import_decl(c, &a, &module, Some(&n), false);
                    } else {
                        let n = self.t(c).to_owned();
                        self.import_decl(c, &n, &module, Some(&n), false);
                    }
                }
                if !any {
                    // `from x import *`
                    self.import_decl(node, "*", &module, Some("*"), false);
                }
            }
            _ => {}
        }
    }
}

/// The names `n` binds, with their kind before placement: a plain name is a variable, the
/// attribute of `self.x` a field. Subscripts and other attributes bind no name. `depth` bounds
/// the recursion on hostile input.
fn collect_targets<'t>(n: Node<'t>, text: &str, out: &mut Vec<(Node<'t>, Kind)>, depth: usize) {
    if depth > 64 {
        return;
    }
    match n.kind() {
        "identifier" => out.push((n, Kind::Variable)),
        "attribute" => {
            if let (Some(o), Some(a)) = (
                n.child_by_field_name("object"),
                n.child_by_field_name("attribute"),
            ) && o.kind() == "identifier"
                && &text[o.byte_range()] == "self"
            {
                out.push((a, Kind::Field));
            }
        }
        k if TARGET_LISTS.contains(&k) => {
            let mut w = n.walk();
            let kids: Vec<Node<'t>> = n.named_children(&mut w).collect();
            for c in kids {
                collect_targets(c, text, out, depth + 1);
            }
        }
        _ => {}
    }
}
