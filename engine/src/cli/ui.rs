//! The output conventions every command shares: the global `--quiet`, `--verbose` and
//! `--color auto|always|never` flags, read once at start and queried by the command modules.
//!
//! Color follows anstream's rule (the one clap uses for its own help): `never` and `always` are
//! what they say; `auto` colors a stream only when it is a terminal, `NO_COLOR` is unset or empty
//! (<https://no-color.org>), and `TERM` allows it (`CLICOLOR=0` disables, `CLICOLOR_FORCE`
//! forces). Only probity adds escape sequences, around text that is already escaped
//! (`probity::untrusted::escape`): untrusted text can never carry its own.

use std::sync::OnceLock;

use anstyle::{AnsiColor, Style};
use clap::{Args, ValueEnum};
use probity::resolve::Verdict;

/// `--color WHEN`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(super) enum ColorWhen {
    /// Color when the stream is a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    /// Always color (even into a pipe or file).
    Always,
    /// Never color.
    Never,
}

/// The flags every subcommand accepts (clap `global = true`).
#[derive(Args, Debug, Default)]
pub(super) struct GlobalArgs {
    /// Print only results and errors: no progress spinner, no hints, no per-root counts.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print more detail on stderr (timings, files and skipped counts) where a command has it.
    #[arg(long, short, global = true)]
    verbose: bool,
    /// Color human output: auto (a terminal, and NO_COLOR unset or empty), always, never.
    #[arg(long, value_enum, value_name = "WHEN", global = true, default_value_t = ColorWhen::Auto)]
    color: ColorWhen,
}

/// What a colored piece of human output means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tone {
    /// Something is wrong: a finding, MISSING, a blocking item, cleanup_failed.
    Bad,
    /// Needs a look: AMBIGUOUS, an incomplete scan.
    Warn,
    /// All good: clean, VERIFIED, pass.
    Good,
    /// Secondary: UNCHECKABLE, counts, hints.
    Dim,
    /// A location (`path:line`).
    Place,
}

struct Ui {
    quiet: bool,
    verbose: bool,
    stdout: bool,
    stderr: bool,
}

static UI: OnceLock<Ui> = OnceLock::new();

fn choice(when: ColorWhen) -> anstream::ColorChoice {
    match when {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    }
}

/// Apply `--color` before the arguments are parsed, so that clap's own help and usage errors
/// follow it too: the last `--color WHEN` / `--color=WHEN` before a `--` wins. (A value clap
/// would refuse is left to clap.)
pub(super) fn preset_color(args: impl IntoIterator<Item = std::ffi::OsString>) {
    let mut last = None;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let a = a.to_string_lossy().into_owned();
        if a == "--" {
            break;
        }
        let value = match a.strip_prefix("--color") {
            Some("") => it.next().map(|v| v.to_string_lossy().into_owned()),
            Some(v) => v.strip_prefix('=').map(str::to_owned),
            None => None,
        };
        if let Some(w) = value.and_then(|v| ColorWhen::from_str(&v, false).ok()) {
            last = Some(w);
        }
    }
    if let Some(w) = last {
        anstream::ColorChoice::write_global(choice(w));
    }
}

/// Record the global flags; called once, before the command runs.
pub(super) fn init(g: &GlobalArgs) {
    anstream::ColorChoice::write_global(choice(g.color));
    let on = |c: anstream::ColorChoice| c != anstream::ColorChoice::Never;
    let _ = UI.set(Ui {
        quiet: g.quiet,
        verbose: g.verbose,
        stdout: on(anstream::AutoStream::choice(&std::io::stdout())),
        stderr: on(anstream::AutoStream::choice(&std::io::stderr())),
    });
}

fn ui() -> &'static Ui {
    UI.get_or_init(|| Ui {
        quiet: false,
        verbose: false,
        stdout: false,
        stderr: false,
    })
}

/// `--quiet`: only results and errors.
pub(super) fn quiet() -> bool {
    ui().quiet
}

/// `--verbose`: extra detail on stderr.
pub(super) fn verbose() -> bool {
    ui().verbose
}

fn style(t: Tone) -> Style {
    match t {
        Tone::Bad => AnsiColor::Red.on_default().bold(),
        Tone::Warn => AnsiColor::Yellow.on_default().bold(),
        Tone::Good => AnsiColor::Green.on_default().bold(),
        Tone::Dim => Style::new().dimmed(),
        Tone::Place => AnsiColor::Cyan.on_default(),
    }
}

fn wrap(on: bool, t: Tone, s: &str) -> String {
    if on {
        let st = style(t);
        format!("{st}{s}{st:#}")
    } else {
        s.to_owned()
    }
}

/// `s` (already escaped) colored for stdout when color is on there.
pub(super) fn paint(t: Tone, s: &str) -> String {
    wrap(ui().stdout, t, s)
}

/// `s` (already escaped) colored for stderr when color is on there.
pub(super) fn paint_err(t: Tone, s: &str) -> String {
    wrap(ui().stderr, t, s)
}

/// The tone of a drift verdict.
pub(super) fn verdict_tone(v: Verdict) -> Tone {
    match v {
        Verdict::Verified => Tone::Good,
        Verdict::Missing => Tone::Bad,
        Verdict::Ambiguous => Tone::Warn,
        Verdict::Uncheckable => Tone::Dim,
    }
}

/// The verdict a rendered cell spells ([`Verdict::as_str`], padding ignored), if any.
fn verdict_in(cell: &str) -> Option<Verdict> {
    let word = cell.trim();
    Verdict::ALL.iter().copied().find(|v| v.as_str() == word)
}

/// The drift coverage markdown with the Verdict cell of each table row colored (stdout).
/// Without color on stdout the text is returned as it is.
pub(super) fn paint_coverage(md: &str) -> String {
    if !ui().stdout {
        return md.to_owned();
    }
    let mut out = String::with_capacity(md.len() + 256);
    for line in md.split_inclusive('\n') {
        // `| `sym` | VERDICT | severity | ...`: the second cell.
        let mut cells: Vec<&str> = line.split(" | ").collect();
        match cells.get(1).and_then(|c| verdict_in(c)).map(verdict_tone) {
            Some(t) if line.starts_with("| ") && cells.len() > 2 => {
                let painted = paint(t, cells[1]);
                cells[1] = &painted;
                out.push_str(&cells.join(" | "));
            }
            _ => out.push_str(line),
        }
    }
    out
}
