use plainterm::{strip, strip_lines, visible_len};

#[test]
fn removes_colours() {
    assert_eq!(strip("\u{1b}[1;31merror\u{1b}[0m: failed"), "error: failed");
}

#[test]
fn removes_hyperlinks_terminated_by_st() {
    let link = "\u{1b}]8;;https://example.com\u{1b}\\docs\u{1b}]8;;\u{1b}\\ updated";
    assert_eq!(strip(link), "docs updated");
}

#[test]
fn width_ignores_escapes() {
    assert_eq!(visible_len("\u{1b}[32mok\u{1b}[0m"), 2);
}

#[test]
fn drops_escape_only_lines() {
    assert_eq!(strip_lines("\u{1b}[2K\nhello\n"), vec!["hello".to_string()]);
}
