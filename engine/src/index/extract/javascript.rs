//! JavaScript / TypeScript extraction: ES `import` / `export` clauses, `require(...)` bindings
//! and CommonJS `module.exports` / `exports.x` assignments (other assignments to members are
//! `jsmembers`'), and the declared types of module-level values (`const x: A & B`, recorded as
//! members and member imports of `x`, as `jsmembers` records mixins). Pure; called only from
//! `super`.

use tree_sitter::Node;

use super::{Ctx, norm_ws, strip_quotes};
use crate::index::{Decl, Kind};

impl Ctx<'_> {
    /// JS/TS: a member is exported unless `#private` or not `public`; a top-level declaration
    /// when inside an `export` statement (or named by an export clause, see `super`).
    pub(super) fn js_exported(&self, def: Node, d: &Decl) -> bool {
        let mut private = d.name.starts_with('#');
        let mut w = def.walk();
        for c in def.children(&mut w) {
            if c.kind() == "accessibility_modifier" && self.t(c) != "public" {
                private = true;
            }
        }
        let mut exp = !private && d.container.is_some();
        let mut a = if d.container.is_some() {
            None
        } else {
            def.parent()
        };
        while let Some(p) = a {
            if p.kind() == "export_statement" {
                exp = true;
                break;
            }
            if p.kind() == "program" {
                break;
            }
            a = p.parent();
        }
        exp
    }

    pub(super) fn js_import(&mut self, node: Node) {
        match node.kind() {
            "import_statement" => {
                let Some(src) = node.child_by_field_name("source") else {
                    return;
                };
                let from = strip_quotes(self.t(src)).to_owned();
                let mut w = node.walk();
                for clause in node.named_children(&mut w) {
                    if clause.kind() != "import_clause" {
                        continue;
                    }
                    let mut w2 = clause.walk();
                    for c in clause.named_children(&mut w2) {
                        match c.kind() {
                            "identifier" => {
                                let n = self.t(c).to_owned();
                                self.import_decl(c, &n, &from, Some("default"), false);
                            }
                            "namespace_import" => {
                                let n = self.t(c).rsplit(' ').next().unwrap_or("").to_owned();
                                self.import_decl(c, &n, &from, Some("*"), false);
                            }
                            "named_imports" => {
                                let mut w3 = c.walk();
                                for s in c.named_children(&mut w3) {
                                    if s.kind() != "import_specifier" {
                                        continue;
                                    }
                                    let Some(n) = s.child_by_field_name("name") else {
                                        continue;
                                    };
                                    let n = self.t(n).to_owned();
                                    let a = s
                                        .child_by_field_name("alias")
                                        .map_or(n.clone(), |a| self.t(a).to_owned());
                                    self.import_decl(s, &a, &from, Some(&n), false);
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            "variable_declarator" => {
                // `const x = require('./y')`, `const { a, b: c } = require('./y')`.
                let Some(mut v) = node.child_by_field_name("value") else {
                    return;
                };
                // `const E = require('events').EventEmitter`: an import of `EventEmitter`.
                let mut member = None;
                if v.kind() == "member_expression"
                    && let (Some(o), Some(p)) = (
                        v.child_by_field_name("object"),
                        v.child_by_field_name("property"),
                    )
                    && o.kind() == "call_expression"
                    && o.child_by_field_name("function")
                        .is_some_and(|f| self.t(f) == "require")
                {
                    member = Some(self.t(p).to_owned());
                    v = o;
                }
                let Some(args) = v.child_by_field_name("arguments") else {
                    return;
                };
                let Some(s) = args.named_child(0).filter(|s| s.kind() == "string") else {
                    return;
                };
                let from = strip_quotes(self.t(s)).to_owned();
                let Some(n) = node.child_by_field_name("name") else {
                    return;
                };
                match n.kind() {
                    "identifier" => {
                        let b = self.t(n).to_owned();
                        self.import_decl(n, &b, &from, member.as_deref(), false);
                    }
                    "object_pattern" if member.is_none() => {
                        let mut w = n.walk();
                        for p in n.named_children(&mut w) {
                            match p.kind() {
                                "shorthand_property_identifier_pattern" => {
                                    let b = self.t(p).to_owned();
                                    self.import_decl(p, &b, &from, Some(&b), false);
                                }
                                "pair_pattern" => {
                                    let (Some(k), Some(val)) = (
                                        p.child_by_field_name("key"),
                                        p.child_by_field_name("value"),
                                    ) else {
                                        continue;
                                    };
                                    let (k, val) = (self.t(k).to_owned(), self.t(val).to_owned());
                                    self.import_decl(p, &val, &from, Some(&k), false);
                                }
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    pub(super) fn export(&mut self, node: Node) {
        let source = node
            .child_by_field_name("source")
            .map(|s| strip_quotes(self.t(s)).to_owned());
        let mut w = node.walk();
        let kids: Vec<Node> = node.named_children(&mut w).collect();
        let mut saw_clause = false;
        for c in kids {
            match c.kind() {
                "export_clause" => {
                    saw_clause = true;
                    let mut w2 = c.walk();
                    let specs: Vec<Node> = c.named_children(&mut w2).collect();
                    for s in specs {
                        let Some(n) = s.child_by_field_name("name") else {
                            continue;
                        };
                        let n = strip_quotes(self.t(n)).to_owned();
                        let a = s
                            .child_by_field_name("alias")
                            .map_or(n.clone(), |a| strip_quotes(self.t(a)).to_owned());
                        match &source {
                            Some(from) => {
                                let from = from.clone();
                                self.import_decl(s, &a, &from, Some(&n), true);
                            }
                            None => {
                                self.exports.insert(n);
                            }
                        }
                    }
                }
                "namespace_export" => {
                    saw_clause = true;
                    if let Some(from) = source.clone() {
                        let b = self.t(c).rsplit(' ').next().unwrap_or("").to_owned();
                        self.import_decl(c, &b, &from, Some("*"), true);
                    }
                }
                "identifier" => {
                    // `export default foo`
                    self.exports.insert(self.t(c).to_owned());
                }
                _ => {}
            }
        }
        if let (Some(from), false) = (source, saw_clause) {
            self.import_decl(node, "*", &from, Some("*"), true);
        }
    }

    pub(super) fn cjs(&mut self, node: Node) {
        let (Some(l), Some(r)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
        ) else {
            return;
        };
        let lt = self.t(l).to_owned();
        let is_fn = matches!(
            r.kind(),
            "function_expression" | "arrow_function" | "function" | "class"
        );
        if lt == "module.exports" {
            match r.kind() {
                // `module.exports = X`: the module is `X` (its default), `X` is no name of it.
                "identifier" => {}
                // `module.exports = require('./x')`: re-exports `./x` (as `export * from`).
                "call_expression" => {
                    let callee = r.child_by_field_name("function").map(|f| self.t(f));
                    let arg = r
                        .child_by_field_name("arguments")
                        .and_then(|a| a.named_child(0))
                        .filter(|s| s.kind() == "string");
                    if let (Some("require"), Some(s)) = (callee, arg) {
                        let from = strip_quotes(self.t(s)).to_owned();
                        self.import_decl(r, "*", &from, Some("*"), true);
                    }
                }
                "object" => {
                    let mut w = r.walk();
                    let kids: Vec<Node> = r.named_children(&mut w).collect();
                    for p in kids {
                        match p.kind() {
                            "shorthand_property_identifier" => {
                                self.exports.insert(self.t(p).to_owned());
                            }
                            "pair" => {
                                let (Some(k), Some(v)) =
                                    (p.child_by_field_name("key"), p.child_by_field_name("value"))
                                else {
                                    continue;
                                };
                                let k_s = strip_quotes(self.t(k)).to_owned();
                                if k.kind() == "computed_property_name" || !is_name(&k_s) {
                                    continue;
                                }
                                if v.kind() == "identifier" && self.t(v) == k_s {
                                    // `{ parse: parse }`: the declaration of that name.
                                } else if matches!(
                                    v.kind(),
                                    "function_expression" | "arrow_function" | "function"
                                ) {
                                    let mut d = self.new_decl(Kind::Function, k_s.clone(), k);
                                    d.signature = v
                                        .child_by_field_name("parameters")
                                        .map(|ps| norm_ws(self.t(ps)));
                                    d.exported = true;
                                    self.push(d);
                                } else if let Some((from, member)) = self.required(v) {
                                    // `{ parse: require('./parse') }`: a re-export.
                                    self.import_decl(k, &k_s, &from, member.as_deref(), true);
                                } else {
                                    // `{ parse: parseFn }`, `{ version: '1.0' }`: the module's
                                    // member of that name (not the local `parseFn`).
                                    let mut d = self.new_decl(Kind::Variable, k_s.clone(), k);
                                    d.exported = true;
                                    self.push(d);
                                }
                                self.exports.insert(k_s);
                            }
                            "method_definition" => {
                                if let Some(k) = p.child_by_field_name("name") {
                                    let k_s = self.t(k).to_owned();
                                    let mut d = self.new_decl(Kind::Function, k_s.clone(), k);
                                    d.signature = self.signature(p);
                                    d.exported = true;
                                    self.push(d);
                                    self.exports.insert(k_s);
                                }
                            }
                            // `...require('./a')`, `...a` with `const a = require('./a')`.
                            "spread_element" => {
                                if let Some(v) = p.named_child(0) {
                                    self.reexport_all(v, p);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            return;
        }
        let name = lt
            .strip_prefix("module.exports.")
            .or_else(|| lt.strip_prefix("exports."))
            .filter(|n| {
                n.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            });
        if let Some(n) = name {
            let n = n.to_owned();
            if r.kind() == "identifier" && self.t(r) == n {
                // `exports.Buffer = Buffer`: exports the declaration of that name.
                self.exports.insert(n);
                return;
            }
            let prop = l.child_by_field_name("property").unwrap_or(l);
            let kind = if is_fn {
                Kind::Function
            } else {
                Kind::Variable
            };
            let mut d = self.new_decl(kind, n.clone(), prop);
            if is_fn {
                d.signature = r
                    .child_by_field_name("parameters")
                    .map(|ps| norm_ws(self.t(ps)));
            }
            d.exported = true;
            self.push(d);
            self.exports.insert(n);
        } else {
            self.js_assigned(l, r);
        }
    }

    /// The module re-exports everything module value `v` exports (at `at`): `require('./a')`,
    /// or a name this file bound to one (`const a = require('./a')`, declared before). Anything
    /// else adds nothing.
    pub(super) fn reexport_all(&mut self, v: Node, at: Node) {
        let from = match self.required(v) {
            Some((from, None)) => Some(from),
            Some((_, Some(_))) => None,
            None if v.kind() == "identifier" => {
                let n = self.t(v);
                self.decls
                    .iter()
                    .rev()
                    .find(|d| d.kind == Kind::Import && d.name == n && d.container.is_none())
                    .filter(|d| d.imported.is_none())
                    .and_then(|d| d.from.clone())
            }
            None => None,
        };
        if let Some(from) = from {
            self.import_decl(at, "*", &from, Some("*"), true);
        }
    }

    /// What `v` requires: `require('./x')` → (`./x`, none), `require('./x').y` → (`./x`, `y`).
    fn required(&self, v: Node) -> Option<(String, Option<String>)> {
        let (call, member) = match v.kind() {
            "member_expression" => (
                v.child_by_field_name("object")?,
                Some(self.t(v.child_by_field_name("property")?).to_owned()),
            ),
            _ => (v, None),
        };
        if call.kind() != "call_expression"
            || call.child_by_field_name("function").map(|f| self.t(f)) != Some("require")
        {
            return None;
        }
        let s = call
            .child_by_field_name("arguments")?
            .named_child(0)
            .filter(|s| s.kind() == "string")?;
        Some((strip_quotes(self.t(s)).to_owned(), member))
    }

    /// `name` is declared of type `t` (`at`, the annotation): the members of an object type
    /// (`{ a: T; m(): U }`) are its own; a named class or interface (`T`, `T<U>`) is a mixin of
    /// it (a member import whose `imported` is the type's name); each part of an intersection
    /// (`A & B`) adds its members; any other type (a union, a function type, `typeof x`,
    /// `ns.T`) is a mixin probity cannot follow. An index signature (`[k: string]: T`) is one
    /// too: any name may be a member.
    pub(super) fn typed_value(&mut self, name: &str, t: Node, at: Node) {
        match t.kind() {
            "intersection_type" | "parenthesized_type" => {
                let mut w = t.walk();
                let parts: Vec<Node> = t.named_children(&mut w).collect();
                for p in parts {
                    self.typed_value(name, p, p);
                }
            }
            "object_type" => {
                let mut w = t.walk();
                let kids: Vec<Node> = t.named_children(&mut w).collect();
                for k in kids {
                    match k.kind() {
                        "property_signature" | "method_signature" => {
                            let Some(key) = k.child_by_field_name("name") else {
                                continue;
                            };
                            let n = strip_quotes(self.t(key)).to_owned();
                            if !is_name(&n) {
                                continue;
                            }
                            let mut d = self.new_decl(Kind::Field, n.clone(), key);
                            if k.kind() == "method_signature" {
                                d.kind = Kind::Method;
                            }
                            d.signature = k
                                .child_by_field_name("type")
                                .or_else(|| k.child_by_field_name("parameters"))
                                .map(|x| norm_ws(self.t(x).trim_start_matches(':').trim()));
                            d.qualified = format!("{name}.{n}");
                            d.container = Some(name.to_owned());
                            d.exported = true;
                            self.push(d);
                        }
                        "index_signature" => self.type_mixin(name, None, k),
                        // Call and construct signatures add the members every function has,
                        // which the resolver never claims absent.
                        _ => {}
                    }
                }
            }
            "type_identifier" => {
                let n = self.t(t).to_owned();
                self.type_mixin(name, Some(n), at);
            }
            "generic_type" => {
                let n = t
                    .child_by_field_name("name")
                    .filter(|n| n.kind() == "type_identifier")
                    .map(|n| self.t(n).to_owned());
                self.type_mixin(name, n, at);
            }
            _ => self.type_mixin(name, None, at),
        }
    }

    /// A mixin of declared type `ty` (none: a type probity cannot follow) into `target`.
    fn type_mixin(&mut self, target: &str, ty: Option<String>, at: Node) {
        let mut d = self.new_decl(Kind::Import, "*".to_owned(), at);
        d.qualified = format!("{target}.*");
        d.container = Some(target.to_owned());
        d.imported = ty;
        d.signature = Some(format!(": {}", norm_ws(self.t(at))));
        self.push(d);
    }
}

/// The function `f` declared at the top of module `top` (`function f`, `const f = () => ...`,
/// either exported): its function node.
pub(super) fn top_function<'t>(cx: &Ctx, top: Node<'t>, f: &str) -> Option<Node<'t>> {
    let mut w = top.walk();
    let stmts: Vec<Node<'t>> = top.named_children(&mut w).collect();
    for s in stmts {
        let s = match s.kind() {
            "export_statement" => match s.child_by_field_name("declaration") {
                Some(d) => d,
                None => continue,
            },
            _ => s,
        };
        match s.kind() {
            "function_declaration"
                if s.child_by_field_name("name").is_some_and(|n| cx.t(n) == f) =>
            {
                return Some(s);
            }
            "lexical_declaration" | "variable_declaration" => {
                let mut w2 = s.walk();
                let decls: Vec<Node<'t>> = s.named_children(&mut w2).collect();
                for d in decls {
                    if d.kind() == "variable_declarator"
                        && d.child_by_field_name("name").is_some_and(|n| cx.t(n) == f)
                    {
                        return d.child_by_field_name("value").filter(|v| {
                            matches!(v.kind(), "arrow_function" | "function_expression")
                        });
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// The values of the `return` statements under `n`, not inside nested functions or classes
/// (`None` for a bare `return`); `false` when a `yield` makes it a generator's.
pub(super) fn returns<'t>(n: Node<'t>, out: &mut Vec<Option<Node<'t>>>) -> bool {
    let mut w = n.walk();
    let kids: Vec<Node<'t>> = n.named_children(&mut w).collect();
    for k in kids {
        match k.kind() {
            "return_statement" => out.push(k.named_child(0)),
            "yield_expression" => return false,
            "function_declaration"
            | "function_expression"
            | "arrow_function"
            | "function"
            | "generator_function_declaration"
            | "generator_function"
            | "class"
            | "class_declaration"
            | "method_definition" => {}
            _ => {
                if !returns(k, out) {
                    return false;
                }
            }
        }
    }
    true
}

/// A returned value without what does not change it: parentheses, `as`, `satisfies`.
pub(super) fn unwrap_value(mut v: Node) -> Node {
    while matches!(
        v.kind(),
        "parenthesized_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression"
    ) {
        match v.named_child(0) {
            Some(i) => v = i,
            None => break,
        }
    }
    v
}

pub(super) fn is_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}
