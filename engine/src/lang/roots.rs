//! Where the patterns of a definitions query start ([`Roots`]): the node kinds a walk of the
//! tree runs the matcher at, with patterns gated by the literals their predicates compare to.

/// Where the patterns of a query start: node kinds as tables indexed by kind id
/// (`Node::kind_id`). A pattern with an `#eq?` / `#any-of?` predicate against string literals can
/// only match in a file that contains one of those literals, so its root kinds count only for
/// such files ([`Roots::for_text`]): `(call ... (#any-of? @m "add_argument" ...))` does not make
/// every call of every file a query start.
#[derive(Debug)]
pub struct Roots {
    /// Kinds with a pattern that has no literal predicate.
    always: Vec<bool>,
    /// Per gated pattern: its root kinds and the literals one of which a file must contain.
    gated: Vec<(Vec<usize>, Vec<String>)>,
}

impl Roots {
    /// No root kind yet, for a grammar of `count` node kinds.
    pub(crate) fn new(count: usize) -> Self {
        Roots {
            always: vec![false; count],
            gated: Vec::new(),
        }
    }

    /// A pattern starting at `kind`, gated by `literals` when it has some.
    pub(crate) fn add(&mut self, kind: usize, literals: Option<Vec<String>>) {
        match literals {
            Some(literals) => self.gated.push((vec![kind], literals)),
            None => self.always[kind] = true,
        }
    }

    /// The root kinds for a file of this text.
    pub fn for_text(&self, text: &[u8]) -> std::borrow::Cow<'_, [bool]> {
        let mut table = std::borrow::Cow::Borrowed(&self.always[..]);
        for (kinds, literals) in &self.gated {
            if kinds.iter().all(|&k| table[k]) {
                continue;
            }
            if literals.iter().any(|l| contains_token(text, l.as_bytes())) {
                let t = table.to_mut();
                for &k in kinds {
                    t[k] = true;
                }
            }
        }
        table
    }
}

/// Whether `text` contains `lit` as a whole token: an occurrence not extended by an identifier
/// character on a side where `lit` itself starts or ends with one. A captured node's text equals
/// the literal, and a token the lexer produced is never part of a longer identifier, so a file
/// where every occurrence is (`options`, `optional` for `option`) cannot match.
fn contains_token(text: &[u8], lit: &[u8]) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let (Some(&first), Some(&last)) = (lit.first(), lit.last()) else {
        return false;
    };
    memchr::memmem::find_iter(text, lit).any(|at| {
        let before = at.checked_sub(1).map(|i| text[i]);
        let after = text.get(at + lit.len()).copied();
        let glued_before = ident(first) && before.is_some_and(ident);
        let glued_after = ident(last) && after.is_some_and(ident);
        !glued_before && !glued_after
    })
}
