//! The revert of `accept reconfirm`, computed in memory on file bytes: the fix's hunks (its old
//! side `base` against its new side `fixed`, probe blocks taken out of both) undone in the
//! current bytes `cur`, every probe block of `cur` kept byte-exact where it is. `git revert -n`
//! semantics: each hunk's new lines must still be in `cur` (found through the diff of `fixed`
//! against `cur`, probe blocks taken out), else the revert is refused (`revert_conflict`).

use std::collections::BTreeMap;
use std::path::Path;

use similar::{Algorithm, DiffOp, TextDiff};

use super::super::diff::{Filtered, filter};
use crate::error::Error;
use crate::lang;
use crate::reason::Reason;
use crate::source::Source;

/// One version of a file: its bytes, or `None` when it does not exist.
pub type Version = Option<Vec<u8>>;

/// A file as the revert sees it: filtered, with its original lines and BOM.
struct View {
    f: Filtered,
    bom: Vec<u8>,
    lines: Vec<String>,
}

fn conflict(path: &str, why: &str) -> Error {
    Error::new(
        Reason::RevertConflict,
        format!("{path}: cannot revert the fix: {why}"),
    )
}

/// `bytes` filtered of probe blocks when its language is known (else every line is code).
fn view(path: &str, bytes: &[u8]) -> Result<View, Error> {
    let source = Source::new(bytes.to_vec())
        .map_err(|r| Error::new(r, format!("{path}: not a text file probity can revert")))?;
    let body = source.body();
    let f = match lang::for_path(Path::new(path)) {
        Some((l, g)) => filter(l, g, bytes).map_err(|r| Error::new(r, path.to_owned()))?,
        None => Filtered {
            text: body.to_owned(),
            map: (1..=body.split_inclusive('\n').count()).collect(),
            blocks: 0,
        },
    };
    Ok(View {
        f,
        bom: source.bom().to_vec(),
        lines: body.split_inclusive('\n').map(str::to_owned).collect(),
    })
}

impl View {
    /// The original lines that are not code rows: the probe blocks, in order.
    fn probe_lines(&self) -> Vec<&str> {
        let rows: std::collections::BTreeSet<usize> = self.f.map.iter().map(|l| l - 1).collect();
        (0..self.lines.len())
            .filter(|i| !rows.contains(i))
            .map(|i| self.lines[i].as_str())
            .collect()
    }
}

fn rows(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The fix's hunks: `(old rows, new rows)` of the filtered texts.
pub fn hunks(base: &str, fixed: &str) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let d = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_lines(base, fixed);
    d.grouped_ops(0)
        .iter()
        .filter_map(|g| {
            let (a, b) = (g.first()?, g.last()?);
            let o = a.old_range().start..b.old_range().end;
            let n = a.new_range().start..b.new_range().end;
            (!o.is_empty() || !n.is_empty()).then_some((o, n))
        })
        .collect()
}

/// The reverted version of one file and the number of hunks undone. `Ok(None)` bytes mean the
/// file is removed (the fix added it).
pub fn revert(
    path: &str,
    base: &Version,
    fixed: &Version,
    cur: &Version,
) -> Result<(Version, usize), Error> {
    match (base, fixed, cur) {
        (_, _, c) if c == fixed && base == fixed => Ok((cur.clone(), 0)),
        (None, Some(_), Some(c)) => {
            let v = view(path, c)?;
            if v.f.blocks > 0 {
                return Err(conflict(
                    path,
                    "the fix added this file and it holds probes",
                ));
            }
            if cur != fixed {
                return Err(conflict(path, "the file changed since the fix added it"));
            }
            Ok((None, 1))
        }
        (Some(b), None, None) => Ok((Some(b.clone()), 1)),
        (_, None, Some(_)) => Err(conflict(path, "the fix removed it, but it exists")),
        (_, Some(_), None) => Err(conflict(path, "the fixed file no longer exists")),
        (Some(b), Some(fx), Some(c)) => revert_text(path, b, fx, c),
        (None, None, None) => Ok((None, 0)),
    }
}

fn revert_text(
    path: &str,
    base: &[u8],
    fixed: &[u8],
    cur: &[u8],
) -> Result<(Version, usize), Error> {
    let (vb, vf, vc) = (view(path, base)?, view(path, fixed)?, view(path, cur)?);
    let fix = hunks(&vb.f.text, &vf.f.text);
    if fix.is_empty() {
        return Ok((Some(cur.to_vec()), 0));
    }
    // Fixed rows -> current rows, through the lines the two have in common.
    let (rf, rc) = (rows(&vf.f.text), rows(&vc.f.text));
    let mut to_cur: BTreeMap<usize, usize> = BTreeMap::new();
    let d = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_lines(&vf.f.text, &vc.f.text);
    for op in d.ops() {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        {
            for k in 0..len {
                to_cur.insert(old_index + k, new_index + k);
            }
        }
    }
    let map = |r: usize| -> Option<usize> {
        if r == rf.len() {
            Some(rc.len())
        } else {
            to_cur.get(&r).copied()
        }
    };
    let base_rows = rows(&vb.f.text);
    // Edits on current rows: `[start, end)` replaced by the fix's old lines.
    let mut edits: BTreeMap<usize, (usize, String)> = BTreeMap::new();
    for (o, n) in &fix {
        let start = map(n.start).ok_or_else(|| conflict(path, "a hunk of the fix is gone"))?;
        if n.start > 0 && map(n.start - 1).map(|p| p + 1) != Some(start) && n.is_empty() {
            return Err(conflict(path, "the code around a hunk of the fix changed"));
        }
        let mut end = start;
        for r in n.clone() {
            if map(r) != Some(end) {
                return Err(conflict(path, "a hunk of the fix changed since"));
            }
            end += 1;
        }
        let old: String = base_rows[o.clone()].concat();
        if edits.insert(start, (end, old)).is_some() {
            return Err(conflict(path, "two hunks of the fix meet"));
        }
    }
    // Rebuild the current file: probe lines verbatim, code rows replaced where edited.
    let mut out = vc.bom.clone();
    let mut skip_to = 0;
    let mut row = 0;
    let push = |out: &mut Vec<u8>, s: &str| {
        if out.len() > vc.bom.len() && !out.ends_with(b"\n") && !s.is_empty() {
            out.push(b'\n');
        }
        out.extend_from_slice(s.as_bytes());
    };
    for (i, line) in vc.lines.iter().enumerate() {
        let is_row = vc.f.map.get(row) == Some(&(i + 1));
        if !is_row {
            out.extend_from_slice(line.as_bytes());
            continue;
        }
        if let Some((end, old)) = edits.get(&row) {
            push(&mut out, old);
            skip_to = *end;
        }
        if row >= skip_to {
            push(&mut out, line);
        }
        row += 1;
    }
    if let Some((_, old)) = edits.get(&rc.len()) {
        push(&mut out, old);
    }
    let reverted = view(path, &out)?;
    if reverted.probe_lines() != vc.probe_lines() {
        return Err(conflict(path, "the revert would touch a probe block"));
    }
    Ok((Some(out), fix.len()))
}

/// The permission bits of the reverted file, as `git revert -n` gives them: a file that exists
/// keeps its bits, with the executable ones put back as the old side (`base_exec`) had them
/// when the fix changed them (`fixed_exec`) and the file still has the fix's; a file the revert
/// brings back gets 0666 (0777 when the old side is executable) less the umask. `None` when the
/// revert removes the file.
pub fn reverted_mode(
    reverted: &Version,
    cur_mode: Option<u32>,
    base_exec: Option<bool>,
    fixed_exec: Option<bool>,
) -> Option<u32> {
    reverted.as_ref()?;
    Some(match cur_mode {
        Some(m) => match (base_exec, fixed_exec) {
            (Some(b), Some(f)) if b != f && (m & 0o100 != 0) == f => with_exec(m, b),
            _ => m,
        },
        None => with_exec(0o666 & !umask(), base_exec.unwrap_or(false)),
    })
}

/// `m` with the executable bits set where it is readable (`exec`), or cleared.
fn with_exec(m: u32, exec: bool) -> u32 {
    if exec {
        m | ((m & 0o444) >> 2)
    } else {
        m & !0o111
    }
}

/// The process's umask, read without changing it (`/proc/self/status`); 022 where it cannot be.
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
        & 0o777
}
