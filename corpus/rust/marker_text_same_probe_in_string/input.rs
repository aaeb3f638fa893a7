/// Text shown by `probe help`.
pub fn help_text() -> String {
    let mut out = String::new();
    out.push_str("Probe blocks are fenced by two comments:\n");
    out.push_str("  // gsd-debug-probe:start <slug> <probe-id>\n");
    out.push_str("  // gsd-debug-probe:end <slug> <probe-id>\n");
    out
}

pub fn fixture() -> &'static str {
    r#"fn f() {
    // gsd-debug-probe:start golden-run p1
    // gsd-debug-probe:end golden-run p1
}"#
}

pub fn word_count(text: &str) -> usize {
    let words = text.split_whitespace();
    let n = words.count();
    n
}
