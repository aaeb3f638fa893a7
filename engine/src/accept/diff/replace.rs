//! The rules that compare the two versions of a hunk line by line or assertion by assertion:
//! assertions weakened (strong to weak, tolerance widened), code commented out, and a Rust `?`
//! dropped. They return what they found; `classify` records it.

use tree_sitter::Node;

use super::side::{Hunk, Side};
use super::syntax::{all_nodes, assertion, compact, is_comment, is_function, text};
use crate::lang::Family;

/// Numbers of a line, and the line with each number replaced by `#`.
fn numbers(line: &str) -> (String, Vec<(f64, String)>) {
    let b = line.as_bytes();
    let mut skel = String::new();
    let mut nums = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'));
        if starts {
            let mut j = i;
            while j < b.len()
                && (b[j].is_ascii_alphanumeric()
                    || b[j] == b'.'
                    || b[j] == b'_'
                    || ((b[j] == b'-' || b[j] == b'+') && matches!(b[j - 1], b'e' | b'E')))
            {
                j += 1;
            }
            let t = line[i..j].replace('_', "");
            if let Ok(v) = t
                .trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse::<f64>()
            {
                nums.push((v, skel.clone()));
                skel.push('#');
                i = j;
                continue;
            }
        }
        skel.push(b[i] as char);
        i += 1;
    }
    (skel, nums)
}

/// Whether the number with `before` in front of it is a tolerance, and whether a larger value
/// is looser (`delta=`, `rel=`, `< eps`) or tighter (`places=`, `toBeCloseTo(x, digits)`).
fn tolerance(before: &str, line: &str) -> Option<bool> {
    let tail: String = compact(before)
        .chars()
        .rev()
        .take(14)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if tail.ends_with("places=") || tail.ends_with("decimal=") || tail.ends_with("precision=") {
        return Some(false);
    }
    if (line.contains("toBeCloseTo") || line.contains("AlmostEqual")) && tail.ends_with(',') {
        return Some(false);
    }
    let loose = [
        "delta=", "rel=", "abs=", "atol=", "rtol=", "tol=", "eps=", "epsilon=", "<", "<=",
    ];
    loose.iter().any(|k| tail.ends_with(k)).then_some(true)
}

/// A Rust `assert_eq!` / `assert_ne!` one of whose compared values is `true` or `false`.
fn bool_comparison(f: Family, x: Node<'_>, src: &str) -> bool {
    if f != Family::Rust || x.kind() != "macro_invocation" {
        return false;
    }
    let t = compact(text(x, src));
    let Some(args) = t
        .strip_prefix("assert_eq!(")
        .or_else(|| t.strip_prefix("assert_ne!("))
        .or_else(|| t.strip_prefix("debug_assert_eq!("))
    else {
        return false;
    };
    let mut depth = 0i32;
    let mut parts = vec![String::new()];
    for c in args.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        if depth >= 0 {
            parts.last_mut().unwrap().push(c);
        }
    }
    parts
        .iter()
        .take(2)
        .any(|p| matches!(p.as_str(), "true" | "false"))
}

/// Assertions weakened, hunk by hunk: the new-side node and what was found.
pub fn weakened<'t>(
    f: Family,
    (old, new): (&Side<'_>, &Side<'_>),
    hunks: &[Hunk],
    old_nodes: &[Node<'t>],
    new_nodes: &[Node<'t>],
) -> Vec<(Node<'t>, String)> {
    let (o, n) = (old.src, new.src);
    let mut hits = Vec::new();
    for hunk in hunks {
        let in_old = |x: &Node<'_>| hunk.old.contains(&x.start_position().row);
        let in_new = |x: &Node<'_>| hunk.new.contains(&x.start_position().row);
        // `assert_eq!(x, false)` is `assert!(!x)` (clippy's `bool_assert_comparison`): as weak.
        let olds: Vec<(Node<'_>, bool)> = old_nodes
            .iter()
            .filter(|x| in_old(x))
            .filter_map(|&x| assertion(f, x, o).map(|s| (x, s && !bool_comparison(f, x, o))))
            .collect();
        let news: Vec<(Node<'_>, bool)> = new_nodes
            .iter()
            .filter(|x| in_new(x))
            .filter_map(|&x| assertion(f, x, n).map(|s| (x, s)))
            .collect();
        if olds.is_empty() || news.is_empty() {
            continue;
        }
        let strong_old = olds.iter().filter(|(_, s)| *s).count();
        let strong_new = news.iter().filter(|(_, s)| *s).count();
        // A weakening replaces assertions; a hunk that adds more than it removes is new tests,
        // and one whose new assertions sit in a loop checks a table of cases (table-driven).
        let table_driven = news.iter().any(|(x, _)| {
            std::iter::successors(x.parent(), |p| p.parent())
                .take_while(|p| in_new(p))
                .any(|p| super::syntax::is_loop(f, p.kind()))
        });
        if let Some((x, _)) = news.iter().find(|(_, s)| !*s)
            && strong_new < strong_old
            && news.len() <= olds.len()
            && !table_driven
        {
            hits.push((*x, "a strong assertion became a weaker one".to_owned()));
            continue;
        }
        'pairs: for (a, _) in &olds {
            let (skel_a, nums_a) = numbers(&compact(text(*a, o)));
            for (b, _) in &news {
                let (skel_b, nums_b) = numbers(&compact(text(*b, n)));
                if skel_a != skel_b || nums_a.len() != nums_b.len() {
                    continue;
                }
                for ((va, before), (vb, _)) in nums_a.iter().zip(&nums_b) {
                    if va == vb {
                        continue;
                    }
                    match tolerance(before, &skel_a) {
                        Some(true) if vb > va => {}
                        Some(false) if vb < va => {}
                        _ => continue,
                    }
                    hits.push((*b, format!("tolerance widened from {va} to {vb}")));
                    break 'pairs;
                }
            }
        }
    }
    hits
}

/// Whether old row `row` lies inside a function body (below the function's first line).
fn in_body(old: &Side<'_>, row: usize) -> bool {
    let line = old.line(row);
    let column = line.len() - line.trim_start().len();
    let at = tree_sitter::Point { row, column };
    let Some(node) = old.tree.root_node().descendant_for_point_range(at, at) else {
        return false;
    };
    let mut cur = Some(node);
    while let Some(n) = cur {
        if is_function(n.kind()) && n.start_position().row < row {
            return true;
        }
        cur = n.parent();
    }
    false
}

/// Strip the comment syntax from one line of a comment.
fn uncomment(line: &str) -> &str {
    let t = line.trim();
    let t = t
        .strip_prefix("//")
        .or_else(|| t.strip_prefix('#'))
        .or_else(|| t.strip_prefix("/*"))
        .or_else(|| t.strip_prefix('*'))
        .unwrap_or(t);
    t.trim_end_matches("*/").trim()
}

fn is_comment_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') || t.starts_with("//") || t.starts_with("/*") || t.starts_with('*')
}

/// Line rules: comments holding removed code (the comment nodes), and new rows where a Rust `?`
/// became `let _ =` / `.ok()` / `.unwrap_or_default()`.
pub fn line_rules<'t>(
    f: Family,
    (old, new): (&Side<'_>, &Side<'t>),
    hunks: &[Hunk],
) -> (Vec<Node<'t>>, Vec<usize>) {
    let new_nodes = all_nodes(new.tree.root_node());
    let comments: Vec<Node<'_>> = new_nodes
        .into_iter()
        .filter(|x| is_comment(x.kind()))
        .collect();
    let mut hits = Vec::new();
    let mut rows = Vec::new();
    for hunk in hunks {
        let removed: Vec<String> = hunk
            .old
            .clone()
            .map(|r| old.line(r))
            .filter(|l| !is_comment_line(l))
            .map(compact)
            .filter(|l| l.len() >= 4 && l.chars().any(char::is_alphanumeric))
            .collect();
        if removed.is_empty() {
            continue;
        }
        // Commented-out code is behaviour only inside a body: a declaration kept as a comment
        // (a trait method, a whole item) removes an API, not a step of a path.
        let removed_body: Vec<String> = hunk
            .old
            .clone()
            .filter(|&r| in_body(old, r))
            .map(|r| compact(old.line(r)))
            .filter(|l| removed.contains(l))
            .collect();
        for c in &comments {
            let row = c.start_position().row;
            if !hunk.new.contains(&row) {
                continue;
            }
            let t = text(*c, new.src);
            if t.lines().any(|l| {
                let u = compact(uncomment(l));
                !u.is_empty() && removed_body.contains(&u)
            }) {
                hits.push(*c);
            }
        }
        if f != Family::Rust {
            continue;
        }
        let tried: Vec<String> = removed
            .iter()
            .filter(|l| l.contains('?'))
            .map(|l| l.replace('?', "").trim_end_matches(';').to_owned())
            .collect();
        for row in hunk.new.clone() {
            let a = compact(new.line(row));
            let dropped = a.starts_with("let_=") || a.starts_with("_=") || a.ends_with(".ok();");
            let bare = a
                .trim_start_matches("let_=")
                .trim_start_matches("_=")
                .trim_end_matches(';')
                .trim_end_matches(".ok()");
            // `.unwrap_or_default()` puts a value in the error's place: that is
            // `error_replaced_by_default` (accept::diff::suppress), not a dropped result.
            if dropped && tried.iter().any(|t| t == bare) {
                rows.push(row);
            }
        }
    }
    (hits, rows)
}
