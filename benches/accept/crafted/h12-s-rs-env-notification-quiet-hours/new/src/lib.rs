//! Push-notification gate: decides whether a notification goes out now or is held for the
//! user's morning digest, based on their quiet hours and the notification's priority.

pub mod quiet;

pub use quiet::{Decision, QuietHours};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Low,
    Normal,
    /// Security alerts and 2FA codes: always delivered.
    Urgent,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    pub user: u64,
    pub title: String,
    pub priority: Priority,
}

/// Held notifications, grouped for the digest sent when quiet hours end.
#[derive(Debug, Default)]
pub struct Digest {
    held: Vec<Notification>,
}

impl Digest {
    pub fn hold(&mut self, n: Notification) {
        self.held.push(n);
    }

    pub fn len(&self) -> usize {
        self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// Digest lines, highest priority first, then in arrival order.
    pub fn lines(&self) -> Vec<String> {
        let mut sorted: Vec<&Notification> = self.held.iter().collect();
        sorted.sort_by(|a, b| b.priority.cmp(&a.priority));
        sorted.iter().map(|n| format!("[{:?}] {}", n.priority, n.title)).collect()
    }
}

/// Route one notification: deliver it or add it to the digest.
pub fn route(quiet: &QuietHours, n: Notification, utc_minute: u32, digest: &mut Digest) -> Option<Notification> {
    match quiet.decide(n.priority, utc_minute) {
        Decision::Deliver => Some(n),
        Decision::HoldUntil(_) => {
            digest.hold(n);
            None
        }
    }
}
