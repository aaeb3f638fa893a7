//! An inverted index over the manifest's word lists: word → the files holding it, with the mark
//! bits of its occurrences there (see [`super::words`]). A resolver run looks each needle up here
//! instead of scanning every file's word list once per search round (those scans were a fifth of
//! a warm run). Built from the word lists when the tree changed; stored in the manifest otherwise.

/// Word → `(file, marks)` postings. File ids index [`Postings::files`]; words are sorted, so a
/// lookup is a binary search and the encoding is canonical.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Postings {
    /// The files, in the order the index was built from (ids are positions).
    pub files: Vec<String>,
    /// Every word, sorted and joined by `\n` (with a trailing `\n`).
    vocab: String,
    /// Start of word `i` in `vocab`; `starts[n]` is `vocab.len()`.
    starts: Vec<u32>,
    /// Start of word `i`'s postings in `posts`; `post_starts[n]` is `posts.len()`.
    post_starts: Vec<u32>,
    /// `file id << 4 | marks`, grouped by word, file ids ascending within a word.
    posts: Vec<u32>,
    /// Per word, the set of its (lowercased) characters as bits (see [`char_bits`]); computed on
    /// first use by [`Postings::near`].
    bits: std::sync::OnceLock<Vec<u64>>,
}

/// The characters of `w` (ASCII, lowercased) as a bit set: one bit per letter, digit, `_`, `$`;
/// anything else shares one bit. Two words whose sets differ by `k` characters are at least `k`
/// edits apart, since each edit changes one character.
fn char_bits(w: &[u8]) -> u64 {
    w.iter().fold(0u64, |m, &b| {
        let b = b.to_ascii_lowercase();
        m | 1
            << match b {
                b'a'..=b'z' => b - b'a',
                b'0'..=b'9' => 26 + b - b'0',
                b'_' => 36,
                b'$' => 37,
                _ => 38,
            }
    })
}

/// Most files an index can name (ids share a `u32` with 4 mark bits).
const MAX_FILES: usize = 1 << 28;

impl Postings {
    /// The index of `lists`: `(path, word list)` in id order, each list as [`super::words`]
    /// writes it (a mark byte, the word, `\n`). `None` if there are too many files to number.
    /// (Built on one thread: per-thread maps cost more to merge than they saved.)
    pub fn build<'a>(lists: &[(&'a str, &'a str)]) -> Option<Postings> {
        if lists.len() > MAX_FILES {
            return None;
        }
        let mut map: foldhash::HashMap<&'a str, Vec<u32>> = foldhash::HashMap::default();
        for (id, &(_, words)) in lists.iter().enumerate() {
            for line in words.lines() {
                // A mark byte, then the word (ASCII by construction; a line that is not is
                // skipped).
                let (Some(&mark), Some(w)) = (line.as_bytes().first(), line.get(1..)) else {
                    continue;
                };
                let marks = u32::from(mark.wrapping_sub(b'0') & 0xf);
                map.entry(w).or_default().push((id as u32) << 4 | marks);
            }
        }
        let mut words: Vec<(&str, Vec<u32>)> = map.into_iter().collect();
        words.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut p = Postings {
            files: lists.iter().map(|(path, _)| (*path).to_owned()).collect(),
            ..Postings::default()
        };
        let total: usize = words.iter().map(|(_, ids)| ids.len()).sum();
        p.posts.reserve(total);
        for (w, ids) in words {
            p.starts.push(p.vocab.len() as u32);
            p.vocab.push_str(w);
            p.vocab.push('\n');
            p.post_starts.push(p.posts.len() as u32);
            p.posts.extend(ids);
        }
        p.starts.push(p.vocab.len() as u32);
        p.post_starts.push(p.posts.len() as u32);
        Some(p)
    }

    /// Word `i` (ids are positions in sorted order).
    pub fn word(&self, i: usize) -> &str {
        // Without the trailing `\n`.
        &self.vocab[self.starts[i] as usize..self.starts[i + 1] as usize - 1]
    }

    fn posts_of(&self, i: usize) -> &[u32] {
        &self.posts[self.post_starts[i] as usize..self.post_starts[i + 1] as usize]
    }

    /// Every word with its id, in sorted order.
    pub fn words(&self) -> impl Iterator<Item = (usize, &str)> + '_ {
        (0..self.len()).map(|i| (i, self.word(i)))
    }

    /// `(distance, word id)` of every word other than `target` within `max` edits of it
    /// (Levenshtein, ASCII case-insensitive), closest first, then in word order. The vocabulary is
    /// ASCII; a row of the distance table whose minimum exceeds `max` ends the comparison early.
    pub fn near(&self, target: &str, max: usize) -> Vec<(usize, usize)> {
        let t: Vec<u8> = target.bytes().map(|b| b.to_ascii_lowercase()).collect();
        let tb = char_bits(&t);
        let bits = self
            .bits
            .get_or_init(|| self.words().map(|(_, w)| char_bits(w.as_bytes())).collect());
        let mut prev = vec![0usize; 64];
        let mut cur = vec![0usize; 64];
        let mut out: Vec<(usize, usize)> = self
            .words()
            .filter(|(id, w)| {
                w.len().abs_diff(t.len()) <= max
                    && (tb & !bits[*id])
                        .count_ones()
                        .max((bits[*id] & !tb).count_ones()) as usize
                        <= max
                    && *w != target
            })
            .filter_map(|(id, w)| {
                let w = w.as_bytes();
                if prev.len() <= w.len() {
                    prev.resize(w.len() + 1, 0);
                    cur.resize(w.len() + 1, 0);
                }
                for (j, p) in prev.iter_mut().enumerate().take(w.len() + 1) {
                    *p = j;
                }
                for (i, &a) in t.iter().enumerate() {
                    cur[0] = i + 1;
                    let mut row_min = cur[0];
                    for (j, &b) in w.iter().enumerate() {
                        let sub = prev[j] + usize::from(a != b.to_ascii_lowercase());
                        cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
                        row_min = row_min.min(cur[j + 1]);
                    }
                    if row_min > max {
                        return None;
                    }
                    std::mem::swap(&mut prev, &mut cur);
                }
                let d = prev[w.len()];
                (d <= max).then_some((d, id))
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// Number of distinct words.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Whether no file holds any word.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `(file id, marks)` of every file holding exactly `word`.
    pub fn exact(&self, word: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
        let found = {
            let (mut lo, mut hi) = (0, self.len());
            let mut at = None;
            while lo < hi {
                let mid = (lo + hi) / 2;
                match self.word(mid).cmp(word) {
                    std::cmp::Ordering::Less => lo = mid + 1,
                    std::cmp::Ordering::Greater => hi = mid,
                    std::cmp::Ordering::Equal => {
                        at = Some(mid);
                        break;
                    }
                }
            }
            at
        };
        found.into_iter().flat_map(|i| self.files_of(i))
    }

    /// Whether the file `path` holds `word` (anywhere: comments and strings included).
    pub fn holds(&self, path: &str, word: &str) -> bool {
        // `files` is in path order when built from a sorted map (the resolver's), and a stored
        // index is checked against the sorted manifest paths; otherwise fall back to a scan.
        let id = match self.files.binary_search_by(|f| f.as_str().cmp(path)) {
            Ok(id) => Some(id),
            Err(_) => self.files.iter().position(|f| f == path),
        };
        id.is_some_and(|id| self.exact(word).any(|(f, _)| f == id))
    }

    /// `(file id, marks)` of every file holding word `i` (an id from [`Postings::words`]).
    pub fn files_of(&self, i: usize) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.posts_of(i)
            .iter()
            .map(|&p| ((p >> 4) as usize, (p & 0xf) as u8))
    }

    /// Write the binary form (see the manifest encoding in the parent module).
    pub(super) fn write_to(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        let len = |w: &mut dyn std::io::Write, n: usize| w.write_all(&(n as u32).to_le_bytes());
        let u32s = |w: &mut dyn std::io::Write, v: &[u32]| -> std::io::Result<()> {
            len(w, v.len())?;
            let mut buf = Vec::with_capacity(4 * 4096);
            for chunk in v.chunks(4096) {
                buf.clear();
                buf.extend(chunk.iter().flat_map(|x| x.to_le_bytes()));
                w.write_all(&buf)?;
            }
            Ok(())
        };
        len(w, self.files.len())?;
        for f in &self.files {
            len(w, f.len())?;
            w.write_all(f.as_bytes())?;
        }
        len(w, self.vocab.len())?;
        w.write_all(self.vocab.as_bytes())?;
        u32s(w, &self.starts)?;
        u32s(w, &self.post_starts)?;
        u32s(w, &self.posts)
    }

    /// Read [`Postings::write_to`]'s output from `d`; `None` unless every offset, length and id
    /// is consistent (a corrupt manifest is then ignored). Lengths are checked against the bytes
    /// left before anything is allocated.
    pub(super) fn read_from(d: &mut super::rdec::RDec<impl std::io::Read>) -> Option<Postings> {
        let n = d.u32()?;
        if n as u64 > d.left() / 4 {
            return None;
        }
        let mut files = Vec::with_capacity(n);
        for _ in 0..n {
            files.push(d.string()?);
        }
        let vocab = d.string()?;
        let starts = d.u32s()?;
        let post_starts = d.u32s()?;
        let posts = d.u32s()?;
        // Consistency: both offset tables cover their blobs monotonically, every word is
        // non-empty and ends at a `\n`, every id names a file.
        let ok = !starts.is_empty()
            && starts.len() == post_starts.len()
            && starts[0] == 0
            && post_starts[0] == 0
            && *starts.last()? as usize == vocab.len()
            && *post_starts.last()? as usize == posts.len()
            && starts.windows(2).all(|w| {
                w[0] + 1 < w[1] && vocab.as_bytes().get(w[1] as usize - 1) == Some(&b'\n')
            })
            && post_starts.windows(2).all(|w| w[0] <= w[1])
            && posts.iter().all(|&p| ((p >> 4) as usize) < files.len());
        if !ok {
            return None;
        }
        let word = |i: usize| &vocab[starts[i] as usize..starts[i + 1] as usize - 1];
        // Sorted and unique, or lookups (binary searches) would silently miss.
        let ok = (1..starts.len() - 1).all(|i| word(i - 1) < word(i));
        ok.then_some(Postings {
            files,
            vocab,
            starts,
            post_starts,
            posts,
            bits: std::sync::OnceLock::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Postings {
        let a = super::super::words(b"class Foo:\n    def run(self): pass\n", true);
        let b = super::super::words(b"run = 1\nfoo = Foo()\n", true);
        Postings::build(&[("a.py", a.as_str()), ("b.py", b.as_str())]).unwrap()
    }

    #[test]
    fn exact_lookup_gives_files_and_marks() {
        let p = sample();
        let foo: Vec<_> = p.exact("Foo").collect();
        assert_eq!(foo.len(), 2);
        assert_eq!(foo[0].0, 0);
        assert_ne!(
            foo[0].1 & super::super::WORD_CLASS,
            0,
            "after `class` in a.py"
        );
        assert_eq!(foo[1].1 & super::super::WORD_CLASS, 0, "a call in b.py");
        assert_eq!(p.exact("run").map(|x| x.0).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(p.exact("nope").count(), 0);
        assert_eq!(p.exact("ru").count(), 0, "whole words only");
    }

    #[test]
    fn near_words_by_edit_distance() {
        let a = super::super::words(
            b"def parse_rows(): pass\nParse_Row = 1\nparse_columns = 2\n",
            true,
        );
        let p = Postings::build(&[("a.py", a.as_str())]).unwrap();
        let near: Vec<(usize, &str)> = p
            .near("parse_row", 2)
            .into_iter()
            .map(|(d, i)| (d, p.word(i)))
            .collect();
        // Case-insensitive: `Parse_Row` is 0 edits away (but not the target itself).
        assert_eq!(near, [(0, "Parse_Row"), (1, "parse_rows")]);
        assert!(p.near("zzzzzzzzz", 2).is_empty());
        // Agreement with a plain full-table distance: resolve::suggest's tests (the oracle,
        // `levenshtein`, lives there; the index does not depend on the resolver).
    }

    #[test]
    fn words_are_sorted_with_their_files() {
        let p = sample();
        let words: Vec<&str> = p.words().map(|(_, w)| w).collect();
        let mut sorted = words.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(words, sorted);
        let foo = p.words().find(|(_, w)| *w == "foo").unwrap().0;
        assert_eq!(p.files_of(foo).map(|x| x.0).collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn round_trip_and_corruption() {
        let p = sample();
        let mut b = Vec::new();
        p.write_to(&mut b).unwrap();
        b.extend_from_slice(b"tail");
        let decode = |b: &[u8]| {
            let mut d = super::super::rdec::RDec::new(b, b.len() as u64);
            Postings::read_from(&mut d).map(|p| (p, d.left()))
        };
        let (q, left) = decode(&b).unwrap();
        assert_eq!(q, p);
        assert_eq!(left, 4, "the tail is left unread");
        // Every truncation, and every single-byte corruption of the tables, is refused or
        // decodes to something consistent (never a panic).
        for n in 0..b.len() - 4 {
            assert!(decode(&b[..n]).is_none(), "truncated at {n}");
        }
        for i in 0..b.len() - 4 {
            let mut c = b.clone();
            c[i] ^= 0x5a;
            if let Some((q, _)) = decode(&c) {
                for w in 0..q.len() {
                    let _ = q.exact(q.word(w)).count();
                }
            }
        }
    }
}
