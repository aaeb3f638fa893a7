//! Remove ANSI escape sequences (CSI colours, cursor moves, OSC titles and
//! hyperlinks) from text captured from a terminal.

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Text,
    Escape,
    Csi,
    Osc,
}

/// Strip escape sequences, keeping the visible text.
pub fn strip(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    let mut state = State::Text;
    for c in input.chars() {
        state = match (state, c) {
            (State::Text, '\u{1b}') => State::Escape,
            (State::Text, c) => {
                out.push(c);
                State::Text
            }
            (State::Escape, '[') => State::Csi,
            (State::Escape, ']') => State::Osc,
            (State::Escape, _) => State::Text,
            (State::Csi, c) if ('\u{40}'..='\u{7e}').contains(&c) => State::Text,
            (State::Csi, _) => State::Csi,
            (State::Osc, '\u{7}') => State::Text,
            (State::Osc, _) => State::Osc,
        };
    }
    out
}

/// Visible width in chars after stripping, for aligning captured columns.
pub fn visible_len(input: &str) -> usize {
    strip(input).chars().count()
}

/// True when the input contains any escape sequence at all.
pub fn has_escapes(input: &str) -> bool {
    input.contains('\u{1b}')
}

/// Strip every line of a captured log, dropping lines that become empty
/// only because they held nothing but escapes.
pub fn strip_lines(input: &str) -> Vec<String> {
    input
        .lines()
        .filter_map(|line| {
            let plain = strip(line);
            if plain.trim().is_empty() && has_escapes(line) {
                None
            } else {
                Some(plain)
            }
        })
        .collect()
}
