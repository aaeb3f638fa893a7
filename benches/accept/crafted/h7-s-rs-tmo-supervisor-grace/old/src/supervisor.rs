//! Start, watch and stop the worker processes of the daemon.

use std::io;
use std::process::{Child, Command, ExitStatus};
use std::thread;
use std::time::{Duration, Instant};

const STOP_GRACE: Duration = Duration::from_secs(5);
const POLL_EVERY: Duration = Duration::from_millis(50);

pub struct Worker {
    pub name: String,
    child: Child,
    restarts: u32,
}

#[derive(Debug)]
pub enum Stopped {
    Exited(ExitStatus),
    Killed(ExitStatus),
}

impl Worker {
    pub fn spawn(name: &str, program: &str, args: &[&str]) -> io::Result<Worker> {
        let child = Command::new(program).args(args).spawn()?;
        Ok(Worker { name: name.to_string(), child, restarts: 0 })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// Ask the child to terminate, wait up to STOP_GRACE, then kill it.
    pub fn stop(&mut self) -> io::Result<Stopped> {
        terminate(self.child.id());
        let deadline = Instant::now() + STOP_GRACE;
        loop {
            if let Some(status) = self.child.try_wait()? {
                return Ok(Stopped::Exited(status));
            }
            if Instant::now() >= deadline {
                break;
            }
            thread::sleep(POLL_EVERY);
        }
        self.child.kill()?;
        let status = self.child.wait()?;
        Ok(Stopped::Killed(status))
    }

    /// Restart the child if it has exited; returns whether it did.
    pub fn supervise(&mut self, program: &str, args: &[&str]) -> io::Result<bool> {
        match self.child.try_wait()? {
            None => Ok(false),
            Some(status) => {
                eprintln!("worker {} exited with {status}, restarting", self.name);
                self.child = Command::new(program).args(args).spawn()?;
                self.restarts += 1;
                Ok(true)
            }
        }
    }
}

#[cfg(unix)]
fn terminate(pid: u32) {
    // SIGTERM through the kill(1) binary keeps this crate free of libc
    let _ = Command::new("kill").arg("-TERM").arg(pid.to_string()).status();
}

#[cfg(not(unix))]
fn terminate(_pid: u32) {}
