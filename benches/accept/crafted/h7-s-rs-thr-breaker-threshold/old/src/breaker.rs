//! A circuit breaker around calls to the payment provider.

use std::time::{Duration, Instant};

const FAILURE_THRESHOLD: u32 = 5;
const OPEN_FOR: Duration = Duration::from_secs(30);
const HALF_OPEN_PROBES: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Closed,
    Open { since: Instant },
    HalfOpen { probes: u32 },
}

#[derive(Debug, PartialEq, Eq)]
pub enum CallError<E> {
    Rejected,
    Inner(E),
}

pub struct Breaker {
    state: State,
    consecutive_failures: u32,
}

impl Default for Breaker {
    fn default() -> Self {
        Self::new()
    }
}

impl Breaker {
    pub fn new() -> Self {
        Breaker { state: State::Closed, consecutive_failures: 0 }
    }

    pub fn state(&self) -> State {
        self.state
    }

    fn allow(&mut self, now: Instant) -> bool {
        match self.state {
            State::Closed => true,
            State::Open { since } if now.duration_since(since) >= OPEN_FOR => {
                self.state = State::HalfOpen { probes: 1 };
                true
            }
            State::Open { .. } => false,
            State::HalfOpen { probes } if probes < HALF_OPEN_PROBES => {
                self.state = State::HalfOpen { probes: probes + 1 };
                true
            }
            State::HalfOpen { .. } => false,
        }
    }

    fn on_success(&mut self) {
        self.consecutive_failures = 0;
        self.state = State::Closed;
    }

    fn on_failure(&mut self, now: Instant) {
        self.consecutive_failures += 1;
        let trip = matches!(self.state, State::HalfOpen { .. })
            || self.consecutive_failures >= FAILURE_THRESHOLD;
        if trip {
            self.state = State::Open { since: now };
        }
    }

    pub fn call<T, E>(&mut self, f: impl FnOnce() -> Result<T, E>) -> Result<T, CallError<E>> {
        self.call_at(Instant::now(), f)
    }

    pub fn call_at<T, E>(
        &mut self,
        now: Instant,
        f: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, CallError<E>> {
        if !self.allow(now) {
            return Err(CallError::Rejected);
        }
        match f() {
            Ok(value) => {
                self.on_success();
                Ok(value)
            }
            Err(err) => {
                self.on_failure(now);
                Err(CallError::Inner(err))
            }
        }
    }
}
