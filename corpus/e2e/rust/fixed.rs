//! probity end-to-end program: show a list of words. buggy: the words run together; fixed: comma-separated.

fn display_list(words: &[&str]) -> String {
    let joined = words.join(", ");
    joined
}

fn main() {
    let shown = display_list(&["alpha", "beta", "gamma"]);
    let sink = if std::env::var_os("GSD_DEBUG_PROBE_SINK").is_some() { "set" } else { "unset" };
    println!("E2E-OUTPUT list=[{shown}] sink={sink}");
}
