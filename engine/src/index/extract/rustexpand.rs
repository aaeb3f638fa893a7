//! Index-time expansion of Rust macro calls whose `macro_rules!` definition is in the same file
//! (issue 25): the call's tokens matched against the rules in order (`rustmatch.rs`), the first
//! rule that matches transcribed (`$crate` as `crate`), the text parsed and extracted as if it
//! were written at the call (in the call's inline modules; in its impl block, under the block's
//! header), macro calls in it expanded in turn, and every declaration located at the call. The
//! caller keeps the call's "may declare" fact unless the expansion is complete: a rule matched,
//! the budgets held and the text parsed without error. Calls of macros defined elsewhere, or
//! past the depth and size budgets (hostile input), are left unexpanded. Pure.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use tree_sitter::Node;

use super::Ctx;
use super::rustlex::{Tok, Writer, lex};
use super::rustmatch::{Binding, Matcher, Pat, Rep, Rule, Tr, rules};
use crate::index::Decl;
use crate::lang::{Grammar, Language};

/// How deep expansions nest (a macro calling itself stops there).
const MAX_NESTING: u32 = 8;
/// Matcher steps per expansion, and per file.
const STEPS_PER_CALL: u64 = 200_000;
const STEPS_PER_FILE: u64 = 4_000_000;
/// Bytes of expanded text per expansion, and per file.
const BYTES_PER_CALL: usize = 1 << 20;
const BYTES_PER_FILE: usize = 4 << 20;
/// Tokens a call or a definition may have.
const MAX_TOKENS: usize = 200_000;
/// Expansions per file.
const CALLS_PER_FILE: usize = 20_000;
/// The stack of the thread a top-level expansion runs on (reserved, touched only as used): the
/// matcher recurses once per matched element.
const STACK: usize = 512 << 20;

/// The `macro_rules!` definitions of a file and what its expansions have spent.
pub(super) struct Env {
    defs: Vec<Def>,
    steps: AtomicU64,
    bytes: AtomicUsize,
    calls: AtomicUsize,
    /// The start of the top-level call being expanded: the definition it sees is the last one
    /// before it.
    anchor: AtomicUsize,
}

/// One definition: its name, where it starts, its rules (`None` when they do not parse).
struct Def {
    name: String,
    at: usize,
    rules: Option<Vec<Rule>>,
}

/// What an extraction of expanded text carries: the file's definitions and the nesting depth.
#[derive(Clone)]
pub(super) struct Nest {
    env: Arc<Env>,
    depth: u32,
}

impl Env {
    /// The definitions of the file whose tree's root is `root`.
    fn of(text: &str, root: Node) -> Env {
        let mut defs = Vec::new();
        if text.contains("macro_rules!") {
            let mut stack = vec![root];
            while let Some(n) = stack.pop() {
                if n.kind() == "macro_definition" {
                    if let Some(name) = n.child_by_field_name("name") {
                        defs.push(Def {
                            name: text[name.byte_range()].to_owned(),
                            at: n.start_byte(),
                            rules: definition_rules(&text[n.byte_range()]),
                        });
                    }
                    continue;
                }
                // Definitions in a function body are visible only there.
                if matches!(n.kind(), "function_item" | "block") {
                    continue;
                }
                let mut w = n.walk();
                stack.extend(n.children(&mut w));
            }
        }
        Env {
            defs,
            steps: AtomicU64::new(0),
            bytes: AtomicUsize::new(0),
            calls: AtomicUsize::new(0),
            anchor: AtomicUsize::new(0),
        }
    }

    /// The definition a call of `name` expands with: the last one before the top-level call,
    /// or the only one.
    fn def(&self, name: &str) -> Option<&Def> {
        let anchor = self.anchor.load(Ordering::Relaxed);
        let mut all = self.defs.iter().filter(|d| d.name == name);
        let before = all.clone().filter(|d| d.at < anchor).max_by_key(|d| d.at);
        before
            .or_else(|| {
                let one = all.next()?;
                all.next().is_none().then_some(one)
            })
            .or_else(|| (name == "thread_local").then(thread_local))
    }
}

/// The standard `thread_local!`, as a `macro_rules!` of what it declares: each `static NAME: T
/// = init;` a static `NAME` (of type `LocalKey<T>` in truth).
fn thread_local() -> &'static Def {
    static DEF: std::sync::OnceLock<Def> = std::sync::OnceLock::new();
    DEF.get_or_init(|| Def {
        name: "thread_local".to_owned(),
        at: 0,
        rules: definition_rules(
            "macro_rules! thread_local {
                ($($(#[$attr:meta])* $vis:vis static $name:ident : $t:ty = $init:expr);* $(;)?) => {
                    $($(#[$attr])* $vis static $name: $t = $init;)*
                };
            }",
        ),
    })
}

/// The rules of the definition text `def` (`macro_rules! name { ... }`).
fn definition_rules(def: &str) -> Option<Vec<Rule>> {
    let toks = lex(def, MAX_TOKENS)?;
    match toks.as_slice() {
        [_, _, _, Tok::Group(_, body), ..] => rules(body),
        _ => None,
    }
}

/// What an expansion gave: its declarations (located in the wrapped text) and whether it is
/// complete.
struct Expansion {
    decls: Vec<Decl>,
    complete: bool,
}

impl Ctx<'_> {
    /// The declarations the macro call `node` expands to, located at the call, and whether the
    /// expansion is complete; `None` when its macro is not defined in this file. `header`: the
    /// header of the impl block the call is in (`impl<T> Tr for X<T>`).
    pub(super) fn rust_expand(
        &mut self,
        node: Node,
        header: Option<&str>,
    ) -> Option<(Vec<Decl>, bool)> {
        let m = node.child_by_field_name("macro")?;
        let text = self.text;
        let path = text[m.byte_range()].trim();
        let name = ["$crate::", "crate::", "self::"]
            .iter()
            .find_map(|p| path.strip_prefix(p))
            .unwrap_or(path);
        let name = match path {
            "std::thread_local" | "::std::thread_local" => "thread_local",
            _ => name,
        };
        if name.contains("::") {
            return None;
        }
        if self.expand.is_none() {
            let mut root = node;
            while let Some(p) = root.parent() {
                root = p;
            }
            self.expand = Some(Nest {
                env: Arc::new(Env::of(self.text, root)),
                depth: 0,
            });
        }
        let nest = self.expand.clone()?;
        if nest.depth == 0 {
            nest.env.anchor.store(node.start_byte(), Ordering::Relaxed);
        }
        let def = nest.env.def(name)?;
        if nest.depth >= MAX_NESTING
            || nest.env.calls.fetch_add(1, Ordering::Relaxed) >= CALLS_PER_FILE
        {
            return Some((Vec::new(), false));
        }
        let mut w = node.walk();
        let tree = node.children(&mut w).find(|c| c.kind() == "token_tree")?;
        let args = &self.text[tree.byte_range()];
        // The call's context, written around the expansion on its first line.
        let mut prefix = String::new();
        let mut suffix = String::new();
        let mods = self.inline_modules(node);
        for m in mods.split("::").filter(|m| !m.is_empty()) {
            prefix.push_str(&format!("mod {m} {{ "));
            suffix.push_str(" }");
        }
        if let Some(h) = header {
            let mut out = Writer::new(BYTES_PER_CALL);
            out.toks(&lex(h, MAX_TOKENS)?);
            prefix.push_str(&out.out);
            prefix.push_str(" { ");
            suffix.push_str(" }");
        }
        let (lang, grammar) = (self.lang, self.grammar);
        let run = || expand((lang, grammar), &nest, def, args, &prefix, &suffix);
        let got = if nest.depth == 0 {
            std::thread::scope(|s| {
                std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(s, run)
                    .ok()?
                    .join()
                    .ok()
            })?
        } else {
            run()
        };
        let at = node.start_position();
        let decls = got
            .decls
            .into_iter()
            .map(|mut d| {
                d.line = at.row + 1;
                d.column = at.column + 1;
                d
            })
            .collect();
        Some((decls, got.complete))
    }
}

/// Expands the call of `def` whose token tree is `args`, extracting the expansion written
/// between `prefix` and `suffix` (on their own lines).
fn expand(
    (lang, grammar): (&'static Language, &Grammar),
    nest: &Nest,
    def: &Def,
    args: &str,
    prefix: &str,
    suffix: &str,
) -> Expansion {
    let incomplete = Expansion {
        decls: Vec::new(),
        complete: false,
    };
    let env = &nest.env;
    let (Some(rules), Some(toks)) = (&def.rules, lex(args, MAX_TOKENS)) else {
        return incomplete;
    };
    let [Tok::Group(_, input)] = toks.as_slice() else {
        return incomplete;
    };
    let spent = env.steps.load(Ordering::Relaxed);
    let mut m = Matcher::new(STEPS_PER_CALL.min(STEPS_PER_FILE.saturating_sub(spent)));
    let rule = rules
        .iter()
        .find(|r| !m.exhausted && m.matches(&r.pat, input));
    env.steps.fetch_add(m.steps(), Ordering::Relaxed);
    let Some(rule) = rule else {
        return incomplete;
    };
    let spent = env.bytes.load(Ordering::Relaxed);
    let mut out = Writer::new(BYTES_PER_CALL.min(BYTES_PER_FILE.saturating_sub(spent)));
    let binds = Binds::of(&rule.pat, &m.env);
    let ok = transcribe(&rule.body, &binds, &mut Vec::new(), &mut out);
    env.bytes.fetch_add(out.out.len(), Ordering::Relaxed);
    if !ok || out.over {
        return incomplete;
    }
    let text = format!("{prefix}\n{}\n{suffix}", out.out);
    let last = 2 + out.out.matches('\n').count();
    let inner = Nest {
        env: env.clone(),
        depth: nest.depth + 1,
    };
    let (decls, errors) = super::extract_nested(lang, grammar, &text, inner);
    Expansion {
        decls: decls
            .into_iter()
            .filter(|d| (2..=last).contains(&d.line))
            .collect(),
        complete: errors == 0,
    }
}

/// A variable's binding: one fragment, or one binding per iteration of a repetition.
enum Bound<'a> {
    One(&'a [Tok]),
    Many(Vec<Bound<'a>>),
}

/// The bindings of a match by variable, with the depth of repetitions each is declared in.
struct Binds<'a, 'p> {
    vars: HashMap<&'p str, (usize, Bound<'a>)>,
}

impl<'a, 'p> Binds<'a, 'p> {
    fn of(pat: &'p [Pat], env: &[Binding<'a, 'p>]) -> Binds<'a, 'p> {
        fn declare<'p, 'a>(
            pat: &'p [Pat],
            depth: usize,
            vars: &mut HashMap<&'p str, (usize, Bound<'a>)>,
        ) {
            for p in pat {
                match p {
                    Pat::Frag(name, _) => {
                        vars.insert(&**name, (depth, Bound::Many(Vec::new())));
                    }
                    Pat::Group(_, inner) => declare(inner, depth, vars),
                    Pat::Rep(Rep { inner, .. }) => declare(inner, depth + 1, vars),
                    Pat::Tok(_) => {}
                }
            }
        }
        let mut vars = HashMap::new();
        declare(pat, 0, &mut vars);
        for (name, path, toks) in env {
            let Some((_, b)) = vars.get_mut(name) else {
                continue;
            };
            let mut b = b;
            for &i in path {
                if let Bound::One(_) = b {
                    *b = Bound::Many(Vec::new());
                }
                let Bound::Many(v) = b else { break };
                while v.len() <= i as usize {
                    v.push(Bound::Many(Vec::new()));
                }
                b = &mut v[i as usize];
            }
            *b = Bound::One(toks);
        }
        Binds { vars }
    }

    /// The binding of `name` at the repetition indices `path`: `None` when `name` is no
    /// variable of the matcher (it is written as is), `Some(None)` when it cannot be read there.
    fn at(&self, name: &str, path: &[usize]) -> Option<Option<&Bound<'a>>> {
        let (depth, b) = self.vars.get(name)?;
        if *depth > path.len() {
            return Some(None);
        }
        let mut b = b;
        for &i in &path[..*depth] {
            match b {
                Bound::Many(v) => match v.get(i) {
                    Some(x) => b = x,
                    None => return Some(None),
                },
                Bound::One(_) => return Some(None),
            }
        }
        Some(Some(b))
    }

    /// How many times the transcriber repetition `inner` repeats at `path`: the iterations of
    /// the variables in it declared deeper than `path`; `None` when it has none (it is written as
    /// is).
    fn count(&self, inner: &[Tr], path: &[usize]) -> Option<usize> {
        let mut n: Option<usize> = None;
        visit_vars(inner, &mut |v| {
            let Some((depth, _)) = self.vars.get(v) else {
                return;
            };
            if *depth <= path.len() {
                return;
            }
            let mut b = &self.vars[v].1;
            for &i in path {
                b = match b {
                    Bound::Many(xs) => xs.get(i).unwrap_or(&Bound::One(&[])),
                    Bound::One(_) => break,
                };
            }
            let c = match b {
                Bound::Many(xs) => xs.len(),
                Bound::One(_) => 0,
            };
            // A variable of an inner repetition bound in no iteration has none recorded: the
            // most iterations count.
            n = Some(n.map_or(c, |m| m.max(c)));
        });
        n
    }
}

/// Calls `f` with each variable written in `tr`.
fn visit_vars<'t>(tr: &'t [Tr], f: &mut dyn FnMut(&'t str)) {
    for t in tr {
        match t {
            Tr::Var(v) => f(v),
            Tr::Group(_, inner) | Tr::Rep(Rep { inner, .. }) => visit_vars(inner, f),
            Tr::Tok(_) => {}
        }
    }
}

/// Writes the transcriber `tr` at the repetition indices `path`; false when a variable cannot
/// be read there or repetitions disagree.
fn transcribe(tr: &[Tr], binds: &Binds, path: &mut Vec<usize>, out: &mut Writer) -> bool {
    for t in tr {
        if out.over {
            return false;
        }
        match t {
            Tr::Tok(t) => out.tok(t),
            Tr::Group(d, inner) => {
                out.open(*d);
                if !transcribe(inner, binds, path, out) {
                    return false;
                }
                out.close(*d);
            }
            Tr::Var(v) => match binds.at(v, path) {
                None => {
                    out.tok(&Tok::Punct("$"));
                    out.tok(&Tok::Ident(v.clone()));
                }
                Some(Some(Bound::One(toks))) => out.toks(toks),
                Some(_) => return false,
            },
            Tr::Rep(r) => match binds.count(&r.inner, path) {
                // No variable repeats it: written as is (a definition the expansion makes).
                None => {
                    out.tok(&Tok::Punct("$"));
                    out.open(super::rustlex::Delim::Paren);
                    if !transcribe(&r.inner, binds, path, out) {
                        return false;
                    }
                    out.close(super::rustlex::Delim::Paren);
                    out.toks(r.sep.as_slice());
                    out.tok(&Tok::Punct(match r.op {
                        super::rustmatch::Op::Star => "*",
                        super::rustmatch::Op::Plus => "+",
                        super::rustmatch::Op::Opt => "?",
                    }));
                }
                Some(n) => {
                    for i in 0..n {
                        if i > 0 {
                            out.toks(r.sep.as_slice());
                        }
                        path.push(i);
                        let ok = transcribe(&r.inner, binds, path, out);
                        path.pop();
                        if !ok {
                            return false;
                        }
                    }
                }
            },
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_local_rules_parse_and_match() {
        let def = thread_local();
        let rules = def.rules.as_ref().expect("rules");
        let toks = lex(
            "{ static B: u8 = const { 1 }; pub static C: Cell<u8> = Cell::new(1) }",
            1000,
        )
        .unwrap();
        let [Tok::Group(_, input)] = toks.as_slice() else {
            panic!()
        };
        let mut m = Matcher::new(10_000);
        assert!(m.matches(&rules[0].pat, input), "{:?}", rules[0].pat);
        let nest = Nest {
            env: Arc::new(Env {
                defs: Vec::new(),
                steps: AtomicU64::new(0),
                bytes: AtomicUsize::new(0),
                calls: AtomicUsize::new(0),
                anchor: AtomicUsize::new(0),
            }),
            depth: 0,
        };
        let rust = crate::lang::for_path(std::path::Path::new("a.rs")).unwrap();
        let e = expand(
            rust,
            &nest,
            def,
            "{ static B: u8 = const { 1 }; pub static C: Cell<u8> = Cell::new(1) }",
            "",
            "",
        );
        assert!(e.complete);
    }
}
