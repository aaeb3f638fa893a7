//! `probity mcp`: the commands as Model Context Protocol tools, served over stdio
//! (docs/mcp.md). One JSON-RPC 2.0 message per line on stdin, one answer per line on stdout,
//! logs on stderr only.
//!
//! Each tool call runs this binary again with the argv its arguments map to
//! (`mcp_tools`), in its own process group (`mcp_jobs`); the call's result is exactly what
//! `probity <command> --json` printed (`mcp_results`), so the CLI and MCP agree byte for byte
//! and a command can be stopped (SIGTERM: `probity run` records the run interrupted) without
//! stopping the server. A call waits at most `wait_seconds`; a command still running then is
//! answered with a handle for `run_poll`. At stdin's end the calls already received are answered
//! first (each within its `wait_seconds`); then, or at once on SIGINT, SIGTERM or SIGHUP, every
//! running command is stopped and waited for, and the server exits.
//!
//! The JSON-RPC layer is hand-written (`mcp_protocol`, `mcp_server`; serde_json): the official
//! Rust SDK (`rmcp`) brings an async runtime (tokio) and 28 more crates to a synchronous engine
//! (docs/mcp.md).

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;

use super::mcp_protocol::{self as protocol, Line};
use super::mcp_results as results;
use super::mcp_server::{Event, Server};
use super::mcp_tools as tools;

#[derive(Args)]
pub(super) struct McpArgs {
    /// The largest tool result, in characters of its JSON; a larger one is written to a file
    /// and answered with a summary naming it (`"truncated": true, "full_result": FILE`).
    #[arg(long, value_name = "N", default_value_t = results::DEFAULT_MAX_CHARS,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_result_chars: u64,
    /// How long a tool call waits for its command by default, in seconds (a call's
    /// `wait_seconds` overrides it); a command still running then returns a handle for
    /// `run_poll`. Codex gives a tool call 60 s.
    #[arg(long, value_name = "SECS", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(0..=tools::MAX_WAIT_SECONDS))]
    wait_seconds: u64,
}

/// Serve until stdin ends or a signal comes; exit 0 at stdin's end, 128 + the signal else.
pub(super) fn mcp_cmd(a: McpArgs) -> ExitCode {
    // A client that goes away must not kill the server before it stops its commands: a write
    // to a closed stdout is an error (then the end), not SIGPIPE.
    // SAFETY: setting a signal disposition before any thread of the server starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let (tx, rx) = mpsc::channel::<Event>();
    if let Err(e) = watch_signals(tx.clone()) {
        eprintln!("probity mcp: refused (io_error): could not watch signals: {e}");
        return ExitCode::from(2);
    }
    let server = match Server::new(
        usize::try_from(a.max_result_chars).unwrap_or(usize::MAX),
        a.wait_seconds,
        tx.clone(),
    ) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("probity mcp: refused (io_error): {e}");
            return ExitCode::from(2);
        }
    };
    std::thread::spawn(move || read_stdin(tx));
    eprintln!(
        "probity mcp: serving {} tools over stdio (MCP {})",
        server.tool_count(),
        protocol::VERSIONS.join(", ")
    );
    let code = loop {
        match rx.recv() {
            Ok(Event::Line(bytes)) => server.on_line(&bytes),
            Ok(Event::TooLong) => server.write(&protocol::error(
                &serde_json::Value::Null,
                protocol::INVALID_REQUEST,
                &format!(
                    "a message is at most {} bytes: this line was skipped",
                    protocol::MAX_LINE_BYTES
                ),
            )),
            Ok(Event::Closed) | Err(_) => break drain(&server, &rx),
            Ok(Event::Signal(sig)) => break on_signal(sig),
        }
    };
    server.shutdown();
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// At stdin's end: wait for the answers to the calls already received, so that a client that
/// writes its requests and closes its end (`printf ... | probity mcp`) still reads every answer.
/// Each call answers within its `wait_seconds` (a command still running then gets a handle, and
/// is stopped at shutdown); a signal cuts the wait short. The exit code.
fn drain(server: &Server, rx: &mpsc::Receiver<Event>) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(tools::MAX_WAIT_SECONDS + 5);
    while server.calls_in_progress() > 0 && Instant::now() < deadline {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(Event::Signal(sig)) => return on_signal(sig),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
    0
}

/// A signal ends the server: 128 + its number.
fn on_signal(sig: i32) -> i32 {
    eprintln!("probity mcp: signal {sig}: stopping the running commands");
    128 + sig.clamp(0, 127)
}

/// Read stdin line by line (bounded) into the channel; its end (or an error) closes.
fn read_stdin(tx: mpsc::Sender<Event>) {
    let stdin = std::io::stdin();
    let mut r = stdin.lock();
    let mut buf = Vec::new();
    loop {
        let event = match protocol::read_line(&mut r, &mut buf, protocol::MAX_LINE_BYTES) {
            Ok(Line::Text(t)) => Event::Line(t),
            Ok(Line::TooLong) => Event::TooLong,
            Ok(Line::Eof) => Event::Closed,
            Err(e) => {
                eprintln!("probity mcp: reading stdin: {e}");
                Event::Closed
            }
        };
        let last = matches!(event, Event::Closed);
        if tx.send(event).is_err() || last {
            return;
        }
        // Give back a large line's memory.
        if buf.capacity() > 1 << 20 {
            buf = Vec::new();
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP become [`Event::Signal`] (a self-pipe: the handler only writes
/// a byte and stores the number).
fn watch_signals(tx: mpsc::Sender<Event>) -> std::io::Result<()> {
    use std::io::Read;
    use std::os::unix::net::UnixStream;
    let (mut rd, wr) = UnixStream::pair()?;
    let last = Arc::new(AtomicUsize::new(0));
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        signal_hook::flag::register_usize(sig, Arc::clone(&last), sig as usize)?;
        signal_hook::low_level::pipe::register(sig, wr.try_clone()?)?;
    }
    std::thread::spawn(move || {
        let mut b = [0u8; 1];
        if rd.read(&mut b).is_ok() {
            let sig = last.load(Ordering::SeqCst) as i32;
            let _ = tx.send(Event::Signal(sig));
        }
    });
    Ok(())
}
