//! JavaScript / TypeScript members that are not written inside a class body: members made by
//! assignment (`Route.prototype.check = function`, `server.mount = ...`, `Foo.prototype = {...}`),
//! by `Object.defineProperty`, the members of a module-level object literal (`const api = {...}`),
//! TypeScript constructor parameter properties, and the mixins that copy members from one
//! object to another (`Object.assign(Target.prototype, src)`, `merge(app, proto)`).
//!
//! A mixin whose source is an object literal gives its members to the target directly; any
//! other source is recorded as a member import of the target: an [`Kind::Import`] named `*`
//! whose container is the target, `imported` the source's name (none when the source is not a
//! name) and `signature` the call as written. Pure; called only from `super`.

use tree_sitter::Node;

use super::javascript::{is_name, returns, top_function, unwrap_value};
use super::{Ctx, norm_ws, strip_quotes};
use crate::index::{Decl, Kind};

/// Node kinds of a function value.
const FN_VALUES: &[&str] = &[
    "function_expression",
    "function",
    "arrow_function",
    "generator_function",
];

/// Receivers that are not objects of the module (`this.x = ...`, globals).
const NOT_OBJECTS: &[&str] = &[
    "this",
    "module",
    "exports",
    "window",
    "global",
    "globalThis",
];

/// What an assignment or a call gives members to.
enum Target {
    /// The module's exports (`exports`, `module.exports`).
    Module,
    /// The object or constructor of this name (`X`, `X.prototype`).
    Object(String),
}

impl Ctx<'_> {
    /// What `n` names as a receiver of members: `X`, `X.prototype`, `exports`,
    /// `module.exports`.
    fn target(&self, n: Node) -> Option<Target> {
        let t = self.t(n);
        if t == "exports" || t == "module.exports" {
            return Some(Target::Module);
        }
        let base = match n.kind() {
            "identifier" => t,
            "member_expression" => {
                let o = n.child_by_field_name("object")?;
                let p = n.child_by_field_name("property")?;
                if o.kind() != "identifier" || self.t(p) != "prototype" {
                    return None;
                }
                self.t(o)
            }
            _ => return None,
        };
        (is_name(base) && !NOT_OBJECTS.contains(&base)).then(|| Target::Object(base.to_owned()))
    }

    /// Whether `n` is outside every function, class and object literal (the module's own
    /// statements).
    fn at_top(&self, n: Node) -> bool {
        matches!(self.container(n), Ok(None))
    }

    /// Member `name` of `container` declared at `at`, with `value` its value when known.
    fn member_decl(&mut self, container: &str, name: &str, at: Node, value: Option<Node>) {
        let func = value.filter(|v| FN_VALUES.contains(&v.kind()));
        let kind = if func.is_some() {
            Kind::Method
        } else {
            Kind::Field
        };
        let mut d = self.new_decl(kind, name.to_owned(), at);
        d.signature = func
            .and_then(|v| {
                v.child_by_field_name("parameters")
                    .or_else(|| v.child_by_field_name("parameter"))
            })
            .map(|ps| norm_ws(self.t(ps)));
        d.qualified = format!("{container}.{name}");
        d.container = Some(container.to_owned());
        d.exported = true;
        self.push(d);
    }

    /// A name the module exports, declared at `at` (`Object.defineProperty(exports, 'x', ...)`).
    fn export_decl(&mut self, name: &str, at: Node) {
        let mut d = self.new_decl(Kind::Variable, name.to_owned(), at);
        d.exported = true;
        self.push(d);
        self.exports.insert(name.to_owned());
    }

    /// The members of object literal `obj` given to `to` (methods, `key: value`, shorthand
    /// properties); a spread (`...src`) is a mixin of `src`.
    fn object_members(&mut self, to: &Target, obj: Node) {
        let mut w = obj.walk();
        let kids: Vec<Node> = obj.named_children(&mut w).collect();
        for p in kids {
            let (key, value) = match p.kind() {
                "pair" => (p.child_by_field_name("key"), p.child_by_field_name("value")),
                "method_definition" => (p.child_by_field_name("name"), None),
                "shorthand_property_identifier" => (Some(p), None),
                "spread_element" => {
                    if let (Target::Object(t), Some(src)) = (to, p.named_child(0)) {
                        let t = t.clone();
                        self.mixin(&t, src, p);
                    }
                    continue;
                }
                _ => continue,
            };
            let Some(key) = key.filter(|k| k.kind() != "computed_property_name") else {
                continue;
            };
            let name = strip_quotes(self.t(key)).to_owned();
            if !is_name(&name) {
                continue;
            }
            match to {
                Target::Module => self.export_decl(&name, key),
                Target::Object(c) => {
                    let c = c.clone();
                    if p.kind() == "method_definition" {
                        let mut d = self.new_decl(Kind::Method, name.clone(), key);
                        d.signature = self.signature(p);
                        d.qualified = format!("{c}.{name}");
                        d.container = Some(c);
                        d.exported = true;
                        self.push(d);
                    } else {
                        self.member_decl(&c, &name, key, value);
                    }
                }
            }
        }
    }

    /// A variable at the top of a module, by its value: `const api = { ... }` gives `api` the
    /// literal's members; `Object.create(proto)` and `new Foo()` take members from `proto` and
    /// `Foo` (a mixin); any other value that the module then gives members (`x.m = ...` at the
    /// start of a line) is a mixin probity cannot follow (`http.createServer()`). Functions,
    /// classes and `require(...)` (an import) give no members.
    pub(super) fn js_object_decl(&mut self, def: Node, d: &Decl) {
        if d.container.is_some() || def.kind() != "variable_declarator" {
            return;
        }
        // `const x: T = ...`, `declare const x: A & B`: the declared type wins over the value.
        if let Some(t) = def
            .child_by_field_name("type")
            .filter(|t| t.kind() == "type_annotation")
            .and_then(|t| t.named_child(0))
        {
            self.typed_value(&d.name, t, t);
            return;
        }
        let Some(mut v) = def.child_by_field_name("value") else {
            return;
        };
        // `var app = exports = module.exports = {}`: the value assigned last; `{...} as const`,
        // `({...})`, `Object.freeze({...})`: the object.
        loop {
            let inner = match v.kind() {
                "assignment_expression" => v.child_by_field_name("right"),
                "as_expression" | "satisfies_expression" | "parenthesized_expression" => {
                    v.named_child(0)
                }
                "call_expression"
                    if v.child_by_field_name("function")
                        .is_some_and(|f| self.t(f) == "Object.freeze") =>
                {
                    v.child_by_field_name("arguments")
                        .and_then(|a| a.named_child(0))
                }
                _ => break,
            };
            match inner {
                Some(i) => v = i,
                None => return,
            }
        }
        let name = d.name.clone();
        match v.kind() {
            "object" => self.object_members(&Target::Object(name), v),
            "function_expression"
            | "function"
            | "arrow_function"
            | "generator_function"
            | "class" => {}
            "new_expression" => {
                if let Some(c) = v.child_by_field_name("constructor") {
                    self.mixin(&name, c, v);
                }
            }
            "call_expression" => {
                let callee = v
                    .child_by_field_name("function")
                    .map_or(String::new(), |f| self.t(f).to_owned());
                let first = v
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0));
                match callee.as_str() {
                    "require" => {}
                    "Object.create" => {
                        if let Some(src) = first.filter(|a| a.kind() != "null") {
                            self.mixin(&name, src, v);
                        }
                    }
                    f if is_name(f) && self.factory_value(&name, f, def) => {}
                    _ => self.dynamic_value(&name, v),
                }
            }
            _ => self.dynamic_value(&name, v),
        }
    }

    /// `const name = f(...)` with `f` a function (not `async`) declared at the top of this
    /// module whose returns are all object literals or `new C(...)` (no bare `return`): `name`
    /// gets the literals' members and mixins of the classes. `false` (nothing recorded): `f`
    /// is no such function.
    fn factory_value(&mut self, name: &str, f: &str, def: Node) -> bool {
        let mut top = def;
        while let Some(p) = top.parent() {
            top = p;
        }
        // An `async` function returns a promise, whatever its `return`s.
        let Some(func) = top_function(self, top, f).filter(|f| !self.t(*f).starts_with("async"))
        else {
            return false;
        };
        let mut rets = Vec::new();
        match func.child_by_field_name("body") {
            Some(b) if b.kind() == "statement_block" => {
                if !returns(b, &mut rets) {
                    return false;
                }
            }
            Some(e) => rets.push(Some(e)),
            None => return false,
        }
        let mut values = Vec::new();
        for r in rets {
            let Some(v) = r.map(unwrap_value) else {
                return false;
            };
            let ok = match v.kind() {
                "object" => true,
                "new_expression" => v
                    .child_by_field_name("constructor")
                    .is_some_and(|c| c.kind() == "identifier"),
                _ => false,
            };
            if !ok {
                return false;
            }
            values.push(v);
        }
        if values.is_empty() {
            return false;
        }
        for v in values {
            if v.kind() == "object" {
                self.object_members(&Target::Object(name.to_owned()), v);
            } else if let Some(c) = v.child_by_field_name("constructor") {
                self.mixin(name, c, v);
            }
        }
        true
    }

    /// `name` is initialized with `v`, whose members probity cannot know: a mixin it cannot
    /// follow, recorded only when the module gives `name` members at the start of a line.
    fn dynamic_value(&mut self, name: &str, v: Node) {
        let text = self.text;
        let heads = self.line_heads.get_or_insert_with(|| {
            text.lines()
                .filter_map(|l| {
                    let end = l.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))?;
                    (end > 0 && l[end..].starts_with('.')).then(|| l[..end].to_owned())
                })
                .collect()
        });
        if heads.contains(name) {
            self.mixin(name, v, v);
        }
    }

    /// An assignment to a member: `X.prototype.m = ...`, `X.prototype = { ... }` (anywhere),
    /// `X.m = ...` (at the top of the module, or anywhere when `X` is capitalized, a
    /// constructor's static member), `this.m = ...` in a class's method or in a constructor
    /// function (`function Route() { this.path = ... }`, `Route.prototype.f = function () {
    /// this.stack = ... }`). `module.exports` / `exports` are [`Ctx::cjs`]'s.
    pub(super) fn js_assigned(&mut self, l: Node, r: Node) {
        let (Some(o), Some(p)) = (
            l.child_by_field_name("object"),
            l.child_by_field_name("property"),
        ) else {
            return;
        };
        if p.kind() != "property_identifier" {
            return;
        }
        let prop = self.t(p).to_owned();
        if o.kind() == "this" {
            if let Some(c) = self.this_container(l) {
                self.member_decl(&c, &prop, p, Some(r));
            }
            return;
        }
        let Some(Target::Object(c)) = self.target(o) else {
            return;
        };
        let prototype = o.kind() == "member_expression";
        let capitalized = c.starts_with(|ch: char| ch.is_uppercase());
        if !prototype && !capitalized && !self.at_top(l) {
            // A module-level object's, or a local's: decided once the file's top-level
            // declarations are known.
            let n = self.decls.len();
            self.member_decl(&c, &prop, p, Some(r));
            self.pending.extend(self.decls.drain(n..));
            return;
        }
        if prop == "prototype" && !prototype {
            if r.kind() == "object" {
                self.object_members(&Target::Object(c), r);
            }
            return;
        }
        self.member_decl(&c, &prop, p, Some(r));
    }

    /// The class or constructor `this` is an instance of at `n`: the class of the nearest
    /// enclosing method (arrow functions keep `this`), a capitalized function declared at the
    /// top of the module, or `X` for a function assigned to `X.prototype.m`.
    fn this_container(&self, n: Node) -> Option<String> {
        let mut a = n.parent();
        while let Some(f) = a {
            match f.kind() {
                "arrow_function" => {}
                "method_definition" => {
                    return match self.container(f) {
                        Ok(Some((c, _))) => Some(c),
                        _ => None,
                    };
                }
                "function_declaration" => {
                    let name = self.t(f.child_by_field_name("name")?);
                    let ctor = name.starts_with(|ch: char| ch.is_uppercase()) && self.at_top(f);
                    return ctor.then(|| name.to_owned());
                }
                "function_expression" | "function" => {
                    let asg = f.parent().filter(|p| p.kind() == "assignment_expression")?;
                    let l = asg.child_by_field_name("left")?;
                    let o = l.child_by_field_name("object")?;
                    if o.kind() != "member_expression" {
                        return None;
                    }
                    return match self.target(o) {
                        Some(Target::Object(c)) => Some(c),
                        _ => None,
                    };
                }
                "class_declaration"
                | "class"
                | "program"
                | "generator_function"
                | "generator_function_declaration"
                | "class_static_block" => return None,
                _ => {}
            }
            a = f.parent();
        }
        None
    }

    /// `Object.defineProperty(X, 'x', ...)`, `Object.defineProperties(X, { ... })` and mixins
    /// (`Object.assign(X.prototype, src)`, `Object.setPrototypeOf(x, src)`, `merge(x, src)`,
    /// `mixin(x, src)`, `_.extend(x, src)`).
    pub(super) fn js_call(&mut self, call: Node) {
        let (Some(f), Some(args)) = (
            call.child_by_field_name("function"),
            call.child_by_field_name("arguments"),
        ) else {
            return;
        };
        let callee = self.t(f).rsplit('.').next().unwrap_or("").to_owned();
        let mut w = args.walk();
        let args: Vec<Node> = args
            .named_children(&mut w)
            .filter(|a| a.kind() != "comment")
            .collect();
        let Some(to) = args.first().and_then(|a| self.target(*a)) else {
            return;
        };
        match callee.as_str() {
            "defineProperty" => {
                let Some(s) = args.get(1).filter(|s| s.kind() == "string") else {
                    return;
                };
                let name = strip_quotes(self.t(*s)).to_owned();
                if !is_name(&name) {
                    return;
                }
                match &to {
                    Target::Module => self.export_decl(&name, *s),
                    Target::Object(c) => {
                        let c = c.clone();
                        self.member_decl(&c, &name, *s, None);
                    }
                }
            }
            "defineProperties" => {
                if let Some(o) = args.get(1).filter(|o| o.kind() == "object") {
                    self.object_members(&to, *o);
                }
            }
            _ => {
                for src in &args[1..] {
                    if matches!(to, Target::Module) && src.kind() != "object" {
                        // `Object.assign(module.exports, require('./a'))`.
                        self.reexport_all(*src, call);
                        continue;
                    }
                    match src.kind() {
                        "object" => self.object_members(&to, *src),
                        "true" | "false" | "null" | "undefined" | "number" | "string" => {}
                        _ => {
                            if let Target::Object(t) = &to {
                                let t = t.clone();
                                self.mixin(&t, *src, call);
                            }
                        }
                    }
                }
            }
        }
    }

    /// `target` gets the members of `src` (a name, `Src.prototype`, or an expression probity
    /// cannot follow) by the call or spread `at`.
    fn mixin(&mut self, target: &str, src: Node, at: Node) {
        let mut d = self.new_decl(Kind::Import, "*".to_owned(), at);
        d.qualified = format!("{target}.*");
        d.container = Some(target.to_owned());
        d.imported = match self.target(src) {
            Some(Target::Object(s)) => Some(s),
            _ => None,
        };
        d.signature = Some(norm_ws(self.t(at)));
        self.push(d);
    }

    /// A TypeScript constructor parameter with a modifier (`private _value: T`,
    /// `public readonly name: string`): a field of the class.
    pub(super) fn param_prop(&mut self, param: Node) {
        let mut private = false;
        let mut property = false;
        let mut w = param.walk();
        for c in param.children(&mut w) {
            match c.kind() {
                "accessibility_modifier" => {
                    property = true;
                    private |= self.t(c) != "public";
                }
                "override_modifier" | "readonly" => property = true,
                _ => {}
            }
        }
        let Some(pat) = param
            .child_by_field_name("pattern")
            .filter(|p| p.kind() == "identifier")
        else {
            return;
        };
        let Some(ctor) = param.parent().and_then(|ps| ps.parent()) else {
            return;
        };
        let Ok(Some((c, _))) = self.container(ctor) else {
            return;
        };
        if !property {
            return;
        }
        let name = self.t(pat).to_owned();
        let mut d = self.new_decl(Kind::Field, name.clone(), pat);
        d.signature = param.child_by_field_name("type").map(|t| {
            let s = norm_ws(self.t(t));
            s.trim_start_matches(':').trim().to_owned()
        });
        d.qualified = format!("{c}.{name}");
        d.container = Some(c);
        d.exported = !private;
        self.push(d);
    }
}

/// One member per container and name in a file (`decls` sorted by position): a method or
/// accessor wins over a field of the same name (`this.handle = this.handle.bind(this)`), else
/// the first declaration (overloads, `this.x` assigned in several methods, merged interfaces).
/// `pending` (members assigned inside functions to a lower-case name) are kept for a name the
/// module declares at its top level with members of its own (a module-level object), not for
/// a local or a parameter.
pub(super) fn one_member_per_name(decls: &mut Vec<Decl>, pending: Vec<Decl>) {
    use std::collections::HashMap;
    if !pending.is_empty() {
        let top: std::collections::HashSet<&str> = decls
            .iter()
            .filter(|t| t.container.is_none() && matches!(t.kind, Kind::Variable | Kind::Constant))
            .map(|t| t.name.as_str())
            .collect();
        let objects: std::collections::HashSet<String> = decls
            .iter()
            .filter_map(|d| d.container.as_deref())
            .filter(|c| top.contains(c))
            .map(str::to_owned)
            .collect();
        let before = decls.len();
        decls.extend(
            pending
                .into_iter()
                .filter(|d| d.container.as_ref().is_some_and(|c| objects.contains(c))),
        );
        if decls.len() > before {
            decls.sort_by(|a, b| {
                (a.line, a.column, a.kind, &a.name).cmp(&(b.line, b.column, b.kind, &b.name))
            });
        }
    }
    let mut best: HashMap<(&str, &str), (usize, bool)> = HashMap::new();
    for (i, d) in decls.iter().enumerate() {
        let (Some(c), false) = (d.container.as_deref(), d.kind == Kind::Import) else {
            continue;
        };
        let field = d.kind == Kind::Field;
        best.entry((c, d.name.as_str()))
            .and_modify(|(j, f)| {
                if *f && !field {
                    (*j, *f) = (i, false);
                }
            })
            .or_insert((i, field));
    }
    let keep: std::collections::HashSet<usize> = best.values().map(|(i, _)| *i).collect();
    let mut i = 0;
    decls.retain(|d| {
        let k = d.container.is_none() || d.kind == Kind::Import || keep.contains(&i);
        i += 1;
        k
    });
}
