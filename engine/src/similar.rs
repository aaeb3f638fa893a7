//! Edit distance and near names: the suggestions a refusal or a MISSING verdict makes ("did you
//! mean ...") for a name that is not there. Used by the drift half's resolver and by placement's
//! `function_not_found`; knows no language and touches no file.

use std::collections::BTreeSet;

/// Edit distance (Levenshtein, by chars).
pub fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Up to three names nearest to `target` (case-insensitive edit distance within a third of its
/// length, at least 2), nearest first.
pub fn nearest<'a>(target: &str, pool: impl Iterator<Item = &'a str>) -> Vec<String> {
    let t = target.to_lowercase();
    let max = (t.chars().count() / 3).max(2);
    let mut scored: BTreeSet<(usize, String)> = BTreeSet::new();
    for n in pool {
        if n == target || n.len().abs_diff(target.len()) > max {
            continue;
        }
        let d = levenshtein(&t, &n.to_lowercase());
        if d <= max {
            scored.insert((d, n.to_owned()));
        }
    }
    scored.into_iter().take(3).map(|(_, n)| n).collect()
}
