//! `probity completions SHELL` and `probity man`: shell completion scripts (clap_complete) and
//! roff manual pages (clap_mangen), both generated from the clap definitions, so they list exactly
//! the subcommands and flags the parser accepts.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use probity::Error;
use probity::reason::Reason;

use super::refused;

#[derive(Args)]
pub(super) struct CompletionsArgs {
    /// The shell to write a completion script for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(Args)]
pub(super) struct ManArgs {
    /// Write one page per command into this directory (`probity.1`, `probity-verify.1`,
    /// `probity-session-init.1`, ...) instead of printing `probity.1` on stdout.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Print the completion script for `a.shell` on stdout.
pub(super) fn completions(a: CompletionsArgs, mut cmd: clap::Command) -> ExitCode {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(a.shell, &mut cmd, "probity", &mut out);
    ExitCode::SUCCESS
}

fn render(cmd: clap::Command) -> Vec<u8> {
    let mut buf = Vec::new();
    // Rendering into memory cannot fail.
    let _ = clap_mangen::Man::new(cmd).render(&mut buf);
    buf
}

/// Every visible command with its page name (`probity`, `probity-verify`, ...), parents first.
fn pages(cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
    let name = cmd
        .get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_owned();
    out.push((name, cmd.clone()));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages(sub, out);
    }
}

/// Print `probity.1` on stdout, or write every page into `--dir` (each file written atomically).
pub(super) fn man(a: ManArgs, cmd: clap::Command) -> ExitCode {
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let Some(dir) = a.dir else {
        use std::io::Write;
        let _ = std::io::stdout().lock().write_all(&render(cmd));
        return ExitCode::SUCCESS;
    };
    if !dir.is_dir() {
        let r = Error::new(
            Reason::NotADirectory,
            format!("{}: not a directory", dir.display()),
        );
        return refused("man", false, &r);
    }
    let mut all = Vec::new();
    pages(&cmd, &mut all);
    for (name, page) in all {
        let path = dir.join(format!("{name}.1"));
        if let Err(e) = write_atomic(&path, &render(page)) {
            let r = Error::new(Reason::IoError, format!("{}: {e}", path.display()));
            return refused("man", false, &r);
        }
        if !super::ui::quiet() {
            println!(
                "{}",
                probity::untrusted::escape(&path.display().to_string())
            );
        }
    }
    ExitCode::SUCCESS
}

/// Write `bytes` to `path` through a temporary file in the same directory renamed over it: a
/// reader sees the old file or the new one, never a part.
pub(super) fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    // Mode 0666 less the umask, as `fs::write` would create it (tempfile's default is 0600).
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
