//! JSON as `tsc` reads a config (`tsconfig.json`, `jsconfig.json`): `//` and `/* */` comments and
//! trailing commas allowed. A pure text function; it must never panic on malformed input.

/// Parse JSON as `tsc` reads a config: `//` and `/* */` comments and trailing commas allowed (a
/// leading byte-order mark too). Newlines inside comments are kept, so an error's line is the
/// file's.
pub(in crate::resolve) fn lenient_json(text: &str) -> Result<serde_json::Value, serde_json::Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let b = text.as_bytes();
    // The offset of the first byte at or after `j` that is not white space or a comment.
    let skip = |mut j: usize| -> usize {
        loop {
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'/') {
                while j < b.len() && b[j] != b'\n' {
                    j += 1;
                }
            } else if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'*') {
                j = text[j + 2..].find("*/").map_or(b.len(), |e| j + 2 + e + 2);
            } else {
                return j;
            }
        }
    };
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            let s = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.extend_from_slice(&b[s..i]);
        } else if c == b'/' && matches!(b.get(i + 1), Some(b'/' | b'*')) {
            let e = skip(i);
            // Keep the line breaks (and nothing else) of what is skipped.
            out.extend(b[i..e].iter().filter(|&&x| x == b'\n'));
            out.push(b' ');
            i = e;
        } else if c == b',' && matches!(b.get(skip(i + 1)), Some(b'}' | b']')) {
            out.push(b' ');
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    let clean = String::from_utf8_lossy(&out);
    serde_json::from_str(&clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_json_allows_comments_and_trailing_commas() {
        let v = lenient_json(
            "\u{feff}{\n  // a comment\n  \"a\": \"x // not a comment\", /* block\n */\n  \"b\": [1, 2,],\n}\n",
        )
        .unwrap();
        assert_eq!(v["a"], "x // not a comment");
        assert_eq!(v["b"], serde_json::json!([1, 2]));
        let e = lenient_json("{\n  \"a\": 1\n  \"b\": 2\n}").unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        // Malformed input of any shape is an error, never a panic.
        for t in ["", "{", "\"", "/*", "{\"a\\", ",]", "{\"é\\é\": 1}"] {
            let _ = lenient_json(t);
        }
    }
}
