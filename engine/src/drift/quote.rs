//! The quote of a plan line an [`super::Occurrence`] carries: the whole line when it is short,
//! else a window around the reference, so what a plan's references hold is O(plan), not
//! O(refs x line) (issue 12: thousands of references on one long line).

/// The longest plan line an [`super::Occurrence`] quotes whole: longer lines are quoted as a window
/// around the reference, so what a plan's references hold is O(plan), not O(refs x line).
pub const QUOTE_BYTES: usize = 160;

/// The quote of `r` cited in `seg` (a slice of `line`): the trimmed line when it is at most
/// [`QUOTE_BYTES`] long, else about that many bytes around the first `r` in `seg` (or `seg`'s
/// start), cut on character boundaries, each cut end marked `…`.
pub(super) fn quote_of(line: &str, seg: &str, r: &str) -> String {
    let trimmed = line.trim();
    if trimmed.len() <= QUOTE_BYTES {
        return trimmed.to_owned();
    }
    let base = (seg.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    let at =
        (base + memchr::memmem::find(seg.as_bytes(), r.as_bytes()).unwrap_or(0)).min(line.len());
    let len = r.len().min(QUOTE_BYTES);
    let mut start = at.saturating_sub((QUOTE_BYTES - len) / 2);
    let mut end = (start + QUOTE_BYTES).min(line.len());
    start = end.saturating_sub(QUOTE_BYTES).min(start);
    while !line.is_char_boundary(start) {
        start += 1;
    }
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let mut q = String::with_capacity(QUOTE_BYTES + 8);
    let body = line[start..end].trim();
    if !line[..start].trim_start().is_empty() {
        q.push('…');
    }
    q.push_str(body);
    if !line[end..].trim_end().is_empty() {
        q.push('…');
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_quoted_around_the_reference_on_char_boundaries() {
        let short = "  use `a.b` here  ";
        assert_eq!(quote_of(short, short, "a.b"), "use `a.b` here");
        let line = format!("{}`mod.fn`{}", "é".repeat(500), "ü".repeat(500));
        let q = quote_of(&line, &line, "mod.fn");
        assert!(q.contains("`mod.fn`"), "{q}");
        assert!(q.starts_with('…') && q.ends_with('…'), "{q}");
        assert!(q.len() <= QUOTE_BYTES + 2 * '…'.len_utf8(), "{}", q.len());
        // A reference not found in its segment is quoted from the segment's start.
        let q = quote_of(&line, &line[1000..], "gone");
        assert!(q.contains("`mod.fn`"), "{q}");
    }
}
