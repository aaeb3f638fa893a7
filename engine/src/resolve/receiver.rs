//! Members of values probity cannot type (`server.listen`): when a `.` reference is one, and
//! what the member name alone says.

use super::Repo;
use super::external::builtin_type;
use super::is_js;
use super::langs::family_of;
use super::verdict::Outcome;
use crate::index::Kind;

impl Repo {
    /// Whether `segs` (`value.member`, `a.b.member`) is a member access on a value probity cannot
    /// type: a `.` reference (not a Rust `::` path) with no module prefix in the repository (or
    /// one naming JS/TS files only, which code cannot name by a bare identifier) and no external
    /// head, whose receiver is not a declared class or type, whose head is written like
    /// a value (lower case, `_` or `$`: capitalized heads are type names, and an undeclared type
    /// stays MISSING) and occurs as a word in some source file of the repository (a local
    /// variable, a parameter, an attribute; a head written nowhere is an invented module or
    /// object and stays MISSING).
    pub(super) fn receiver_applies(&self, segs: &[String], rust: bool) -> bool {
        let n = segs.len();
        !rust
            && n >= 2
            && segs[0]
                .chars()
                .next()
                .is_some_and(|c| c.is_lowercase() || c == '_' || c == '$')
            && self
                .named(&segs[n - 2], |d| d.kind.is_container())
                .is_empty()
            && self.external_head(segs, rust).is_none()
            && builtin_type(&segs[0], rust).is_none()
            && self
                .module_prefix(segs, rust)
                .is_none_or(|(_, files)| files.iter().all(|f| is_js(family_of(f))))
            && self.word_in_repo(&segs[0])
    }

    /// `member` on a value of unknown type: every member of that name of any class or type in
    /// the repository (one → VERIFIED, several → AMBIGUOUS, as for a bare name); none →
    /// UNCHECKABLE (the value may be of a type from outside the repository).
    /// `why`: why `recv` may be such a value, in place of the usual "not a module, class or
    /// import" clause.
    pub(super) fn receiver_member(&self, recv: &[String], m: &str, why: Option<String>) -> Outcome {
        let c = self.named(m, |d| {
            d.container.is_some() && !matches!(d.kind, Kind::Import | Kind::CliFlag | Kind::Impl)
        });
        // A member of an object literal bound to another name (`supportsColor.stderr` for
        // `chalk.stderr`) is no member of this value: an object is one value, not a type.
        // Unless the value is imported (`Router = require('./router')` may be that object
        // under another name).
        let imported =
            recv.len() == 1 && !self.named(&recv[0], |d| d.kind == Kind::Import).is_empty();
        let (c, objects): (Vec<_>, Vec<_>) = c.into_iter().partition(|(_, d)| {
            let cn = d.container.as_deref().unwrap_or("");
            imported || recv.last().is_some_and(|r| r == cn) || !self.object_only(cn)
        });
        if !c.is_empty() {
            return Outcome::Found(c.iter().map(|(p, d)| self.cand(p, d)).collect());
        }
        let why = why.unwrap_or_else(|| {
            format!(
                "`{}` is a value probity cannot type (not a module, class or import in the \
                 repository)",
                recv.join(".")
            )
        });
        let mut names: Vec<&str> = objects
            .iter()
            .filter_map(|(_, d)| d.container.as_deref())
            .collect();
        names.sort_unstable();
        names.dedup();
        let others = if names.is_empty() {
            String::new()
        } else {
            format!(
                " (only the object(s) {} of other names have one)",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        Outcome::Unchecked(format!(
            "{why} and no class or type in the repository declares a member `{m}`{others}"
        ))
    }

    /// Whether every declaration named `c` is a value binding (a variable or constant holding
    /// an object literal, or an import of one): an object, not a class, type or constructor.
    fn object_only(&self, c: &str) -> bool {
        let ds = self.named(c, |d| d.container.is_none());
        !ds.is_empty()
            && ds
                .iter()
                .all(|(_, d)| matches!(d.kind, Kind::Variable | Kind::Constant | Kind::Import))
    }

    /// Whether `w` occurs as an identifier word in some source file of the repository (comments
    /// and strings included).
    fn word_in_repo(&self, w: &str) -> bool {
        self.postings().exact(w).next().is_some()
    }
}
