//! Writing to a child's stdin without dying of SIGPIPE. The CLI restores SIGPIPE's default
//! action (`probity ... | head` then ends quietly), so a write to a pipe whose reader is gone (a
//! language server that exited, a `git cat-file --batch` its timeout killed) would kill probity
//! with nothing printed. [`Stdin`] writes with SIGPIPE blocked on the writing thread, takes the
//! signal that write raised (if it raised one) and restores the mask: the write fails with
//! `BrokenPipe`, which the caller reports.

use std::io::{self, Write};
use std::process::ChildStdin;

/// A child's stdin whose writes return `BrokenPipe` instead of raising SIGPIPE.
#[derive(Debug)]
pub struct Stdin(pub(super) ChildStdin);

impl Write for Stdin {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        quiet(|| self.0.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        quiet(|| self.0.flush())
    }
}

/// Run `f` (one write) with SIGPIPE blocked on this thread; a SIGPIPE it raised is consumed.
fn quiet<T>(f: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    // SAFETY: signal-mask calls on this thread's own mask with stack-allocated sets; the
    // pending signal taken is SIGPIPE only, and only when this write raised it.
    unsafe {
        let mut pipe: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        let mut old: libc::sigset_t = std::mem::zeroed();
        if libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old) != 0 {
            return f();
        }
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigpending(&mut pending);
        let was_pending = libc::sigismember(&pending, libc::SIGPIPE) == 1;
        let r = f();
        if !was_pending && matches!(&r, Err(e) if e.kind() == io::ErrorKind::BrokenPipe) {
            let zero = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            libc::sigtimedwait(&pipe, std::ptr::null_mut(), &zero);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        r
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::process::{Command, Stdio};

    /// With SIGPIPE's default action (as the CLI sets it), a write to a child that closed its
    /// stdin is an error, and this process lives on.
    #[test]
    fn a_write_to_a_closed_pipe_is_an_error_not_a_signal() {
        // SAFETY: the test binary's own disposition; other tests do not rely on SIGPIPE.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
        let mut child = Command::new("sh")
            .args(["-c", "exec 0<&-; exit 0"])
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = super::Stdin(child.stdin.take().unwrap());
        child.wait().unwrap();
        let err = (0..64)
            .find_map(|_| stdin.write_all(&[b'x'; 4096]).err())
            .expect("a write to a closed pipe fails");
        assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe);
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
    }
}
