//! Python extraction: `import` / `from ... import` bindings and `__all__`. Pure; called only from
//! `super`.

use tree_sitter::Node;

use super::{Ctx, strip_quotes};

impl Ctx<'_> {
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
