//! A small, strict INI reader for the files pytest and tox read (`pytest.ini`, `tox.ini`,
//! `setup.cfg`): `[section]` headers, `key = value` (or `key: value`) entries, continuation lines
//! (indented) joined to the value with `\n`, whole-line `#`/`;` comments and blank lines. Any
//! other line is an error (the file is reported `config_unparsable`, never guessed at). A pure
//! text function over an already bounded file; it never panics.

/// One `key = value` entry.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Entry {
    /// The key, trimmed (case kept).
    pub(super) key: String,
    /// The value: the first line's text after `=` (possibly empty) and each continuation line,
    /// trimmed, joined with `\n` (line `i` of the value is at `lines[i]`).
    pub(super) value: String,
    /// 1-based line of the key, then of each continuation line (as many as `value`'s lines).
    pub(super) lines: Vec<usize>,
}

/// One `[section]`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Section {
    /// The name between the brackets, trimmed.
    pub(super) name: String,
    /// Its entries, in file order.
    pub(super) entries: Vec<Entry>,
}

impl Section {
    /// The last entry named `key` (a later one wins, as configparser's strict mode refuses and
    /// iniconfig keeps the last).
    pub(super) fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.key == key)
    }
}

/// The sections of `text`, or the 1-based line that is not INI.
pub(super) fn parse(text: &str) -> Result<Vec<Section>, usize> {
    let mut sections: Vec<Section> = Vec::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let indented = line.len() != trimmed.len();
        if indented {
            // A continuation of the last entry of the current section.
            let entry = sections
                .last_mut()
                .and_then(|s| s.entries.last_mut())
                .ok_or(n)?;
            entry.value.push('\n');
            entry.value.push_str(trimmed);
            entry.lines.push(n);
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('[') {
            let name = rest.strip_suffix(']').ok_or(n)?.trim();
            if name.is_empty() || name.contains(['[', ']']) {
                return Err(n);
            }
            sections.push(Section {
                name: name.to_owned(),
                entries: Vec::new(),
            });
            continue;
        }
        let at = trimmed.find(['=', ':']).ok_or(n)?;
        let key = trimmed[..at].trim();
        if key.is_empty() {
            return Err(n);
        }
        let section = sections.last_mut().ok_or(n)?;
        section.entries.push(Entry {
            key: key.to_owned(),
            value: trimmed[at + 1..].trim().to_owned(),
            lines: vec![n],
        });
    }
    Ok(sections)
}

/// The section named `name`, when there is one (the last of that name).
pub(super) fn section<'a>(all: &'a [Section], name: &str) -> Option<&'a Section> {
    all.iter().rev().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_entries_and_continuations() {
        let s = parse("# c\n[pytest]\naddopts = -ra\n    -q\nmarkers =\n  slow: s\n\n[x]\nk: v\n")
            .unwrap();
        assert_eq!(s.len(), 2);
        let p = section(&s, "pytest").unwrap();
        let a = p.get("addopts").unwrap();
        assert_eq!(a.value, "-ra\n-q");
        assert_eq!(a.lines, vec![3, 4]);
        assert_eq!(p.get("markers").unwrap().value, "\nslow: s");
        assert_eq!(section(&s, "x").unwrap().get("k").unwrap().value, "v");
    }

    #[test]
    fn what_is_not_ini_is_an_error_with_its_line() {
        assert_eq!(parse("key = v\n"), Err(1));
        assert_eq!(parse("[a]\njust words\n"), Err(2));
        assert_eq!(parse("  indented first\n"), Err(1));
        assert_eq!(parse("[a\n"), Err(1));
        assert_eq!(parse("{\"json\": 1}\n"), Err(1));
    }
}
