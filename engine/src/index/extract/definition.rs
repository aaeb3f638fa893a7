//! One match of the definitions query to one declaration: the `@def` node and its `@name`
//! give its container (a Rust `impl`, a class or other type, or none; a definition local to a
//! function body or inside an object literal is no declaration), its kind refined from what it
//! is (a method, a function value, an ALL_CAPS constant), its signature as written (parameters
//! and return type, a field's type, a class's bases), its qualified name, and its exported state
//! as its family's rules give it before the file's final exported pass.

use tree_sitter::Node;

use super::{Ctx, norm_ws, rust};
use crate::index::Kind;
use crate::lang::Family;

/// What an enclosing node is to the declarations inside it ([`Ctx::container`]).
enum Scope {
    /// A Rust `impl` block: members belong to its type (and trait).
    Impl,
    /// A class, struct, trait, enum or interface: members belong to it by name.
    Type,
    /// A JS/TS object literal: its members are not declarations.
    Object,
    /// Anything else (a function body makes what is inside it local).
    Other,
}

const FUNCTION_KINDS: &[&str] = &[
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "method_definition",
    "generator_function",
    "function_definition",
    "function_item",
    "closure_expression",
    "lambda",
];

impl<'a> Ctx<'a> {
    /// The container of `def`, or `Err(())` when it is local to a function body (whatever
    /// encloses that function: the walk stops at the first one).
    /// The parent of `n` (as [`Node::parent`]), from the walk's ancestors when `n` is one of
    /// them or below the current node: `Node::parent` descends from the root each time, which was
    /// 8 % of a cold drift run's instructions.
    pub(super) fn up(&self, n: Node<'a>) -> Option<Node<'a>> {
        if let Some(i) = self.anc.iter().rposition(|a| *a == n) {
            return i.checked_sub(1).map(|i| self.anc[i]);
        }
        let mut p = *self.anc.last()?;
        if p.start_byte() <= n.start_byte() && n.end_byte() <= p.end_byte() {
            // What `ts_node_parent` does from the root, from the current node.
            while let Some(c) = p.child_with_descendant(n) {
                if c == n {
                    return Some(p);
                }
                p = c;
            }
        }
        n.parent()
    }

    pub(super) fn container(&self, def: Node<'a>) -> Result<Option<(String, Option<String>)>, ()> {
        let mut n = self.up(def);
        while let Some(p) = n {
            let k = p.kind();
            match self.scope(k) {
                Scope::Impl => {
                    let ty = p
                        .child_by_field_name("type")
                        .map(|t| rust::base_type(self.t(t)));
                    let tr = p
                        .child_by_field_name("trait")
                        .map(|t| rust::base_type(self.t(t)));
                    return Ok(ty.map(|t| (t, tr)));
                }
                Scope::Type => {
                    let name = p
                        .child_by_field_name("name")
                        .map(|x| self.t(x).to_owned())
                        .or_else(|| {
                            // `const Foo = class { ... }`
                            let v = p.parent().filter(|v| v.kind() == "variable_declarator")?;
                            Some(self.t(v.child_by_field_name("name")?).to_owned())
                        });
                    return Ok(name.map(|n| (n, None)));
                }
                Scope::Object => return Err(()),
                Scope::Other if FUNCTION_KINDS.contains(&k) => return Err(()),
                Scope::Other => {}
            }
            n = self.up(p);
        }
        Ok(None)
    }

    /// What a node of kind `k` is to the declarations inside it.
    fn scope(&self, k: &str) -> Scope {
        match self.family {
            Family::Rust => match k {
                "impl_item" => Scope::Impl,
                "trait_item" | "struct_item" | "union_item" | "enum_item" => Scope::Type,
                _ => Scope::Other,
            },
            Family::Python => match k {
                "class_definition" => Scope::Type,
                _ => Scope::Other,
            },
            Family::JavaScript => match k {
                "class_declaration"
                | "abstract_class_declaration"
                | "class"
                | "interface_declaration"
                | "enum_declaration"
                | "internal_module" => Scope::Type,
                "object" => Scope::Object,
                _ => Scope::Other,
            },
        }
    }

    pub(super) fn signature(&self, def: Node) -> Option<String> {
        let (params, ret) = match def.kind() {
            "variable_declarator" => {
                let v = def.child_by_field_name("value")?;
                if !matches!(
                    v.kind(),
                    "arrow_function" | "function_expression" | "function"
                ) {
                    return def.child_by_field_name("type").map(|t| norm_ws(self.t(t)));
                }
                (
                    v.child_by_field_name("parameters")
                        .or_else(|| v.child_by_field_name("parameter")),
                    v.child_by_field_name("return_type"),
                )
            }
            "field_declaration"
            | "assignment"
            | "public_field_definition"
            | "property_signature" => {
                return def.child_by_field_name("type").map(|t| {
                    let s = norm_ws(self.t(t));
                    s.trim_start_matches(':').trim().to_owned()
                });
            }
            _ => (
                def.child_by_field_name("parameters"),
                def.child_by_field_name("return_type"),
            ),
        };
        let params = params?;
        let end = ret.map_or(params.end_byte(), |r| r.end_byte());
        Some(norm_ws(
            &self.text[params.start_byte()..end.max(params.end_byte())],
        ))
    }

    pub(super) fn def(&mut self, def: Node<'a>, name_node: Node<'a>, mut kind: Kind) {
        let name = self.t(name_node).to_owned();
        if name_node.kind() == "computed_property_name" || name.is_empty() {
            return;
        }
        let python = match self.family {
            Family::Python => true,
            Family::Rust | Family::JavaScript => false,
        };
        // `self.x` (the name is an attribute's): [`Ctx::python_target`] gives only those of
        // `self` this kind.
        let is_self_field = python
            && kind == Kind::Field
            && self.up(name_node).is_some_and(|p| p.kind() == "attribute");
        let container = if is_self_field {
            // `self.x = ...` inside a method: the method's class.
            let mut n = self.up(def);
            let mut found = None;
            while let Some(p) = n {
                if p.kind() == "function_definition" {
                    found = self.container(p).ok().flatten();
                    break;
                }
                n = self.up(p);
            }
            match found {
                Some(c) => Some(c),
                None => return,
            }
        } else {
            match self.container(def) {
                Ok(c) => c,
                Err(()) => return,
            }
        };
        if kind == Kind::Function && container.is_some() {
            kind = Kind::Method;
        }
        if python && kind == Kind::Variable && container.is_some() {
            // A name bound in a class body: a class attribute.
            kind = Kind::Field;
        }
        if kind == Kind::Variable {
            if let Some(v) = def.child_by_field_name("value")
                && matches!(
                    v.kind(),
                    "arrow_function" | "function_expression" | "function"
                )
            {
                kind = Kind::Function;
            } else if name.len() > 1
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                && (python || def.parent().is_some_and(|p| self.t(p).starts_with("const")))
            {
                kind = Kind::Constant;
            }
        }
        let mut d = self.new_decl(kind, name.clone(), name_node);
        d.signature = match kind {
            Kind::Function | Kind::Method | Kind::Field => self.signature(def),
            // Classes: their bases as written (`(Base, Mixin)`, `extends Base`).
            Kind::Class => def
                .child_by_field_name("superclasses")
                .or_else(|| {
                    let mut w = def.walk();
                    def.named_children(&mut w)
                        .find(|c| c.kind() == "class_heritage")
                })
                .map(|b| norm_ws(self.t(b))),
            _ => None,
        };
        if let Some((c, tr)) = container {
            let sep = match self.family {
                Family::Rust => "::",
                Family::Python | Family::JavaScript => ".",
            };
            d.qualified = format!("{c}{sep}{name}");
            d.container = Some(c);
            d.trait_name = tr;
        }
        d.exported = match self.family {
            Family::Rust => self.rust_exported(def, &d),
            Family::JavaScript => self.js_exported(def, &d),
            Family::Python => true,
        };
        match self.family {
            Family::Rust => self.rust_def(def, &mut d),
            Family::JavaScript => self.js_object_decl(def, &d),
            Family::Python => {}
        }
        self.push(d);
    }
}
