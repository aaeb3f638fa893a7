//! Quiet hours: a daily window in the user's local time during which only urgent
//! notifications are delivered. Windows may wrap past midnight (22:00-07:00).

use crate::Priority;

const DAY: u32 = 24 * 60;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuietHours {
    /// Local minute of day the window opens, 0..1440.
    pub start: u32,
    /// Local minute of day the window closes (exclusive).
    pub end: u32,
    /// User's offset from UTC in minutes, e.g. +60 for CET, -300 for EST.
    pub utc_offset: i32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decision {
    Deliver,
    /// Hold until this UTC minute of day.
    HoldUntil(u32),
}

fn local_minute(utc_minute: u32, offset: i32) -> u32 {
    (utc_minute as i32 + offset).rem_euclid(DAY as i32) as u32
}

/// Is `minute` inside a window that wraps past midnight (start > end)?
fn wrapped_contains(start: u32, end: u32, minute: u32) -> bool {
    // outside the window means: after it closed and before it opens again
    !(minute < start || minute >= end)
}

impl QuietHours {
    pub fn parse(spec: &str, utc_offset: i32) -> Option<QuietHours> {
        let (a, b) = spec.split_once('-')?;
        let hm = |s: &str| -> Option<u32> {
            let (h, m) = s.trim().split_once(':')?;
            let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
            (h < 24 && m < 60).then_some(h * 60 + m)
        };
        Some(QuietHours { start: hm(a)?, end: hm(b)?, utc_offset })
    }

    pub fn contains_local(&self, minute: u32) -> bool {
        if self.start == self.end {
            false
        } else if self.start < self.end {
            self.start <= minute && minute < self.end
        } else {
            wrapped_contains(self.start, self.end, minute)
        }
    }

    pub fn decide(&self, priority: Priority, utc_minute: u32) -> Decision {
        if priority == Priority::Urgent || !self.contains_local(local_minute(utc_minute, self.utc_offset)) {
            return Decision::Deliver;
        }
        let end_utc = (self.end as i32 - self.utc_offset).rem_euclid(DAY as i32) as u32;
        Decision::HoldUntil(end_utc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn night() -> QuietHours {
        QuietHours::parse("22:00-07:00", 60).unwrap()
    }

    #[test]
    fn parses_window() {
        assert_eq!(night(), QuietHours { start: 1320, end: 420, utc_offset: 60 });
        assert_eq!(QuietHours::parse("25:00-07:00", 0), None);
    }

    #[test]
    fn same_day_window() {
        let lunch = QuietHours::parse("12:00-13:30", 0).unwrap();
        assert!(lunch.contains_local(12 * 60 + 45));
        assert!(!lunch.contains_local(14 * 60));
    }

    #[test]
    fn overnight_window_covers_both_sides_of_midnight() {
        let q = night();
        assert!(q.contains_local(23 * 60));
        assert!(q.contains_local(3 * 60));
        assert!(!q.contains_local(7 * 60));
        assert!(!q.contains_local(18 * 60));
    }

    #[test]
    fn normal_push_held_overnight_until_local_seven() {
        // 01:30 UTC is 02:30 in CET
        assert_eq!(night().decide(Priority::Normal, 90), Decision::HoldUntil(360));
    }

    #[test]
    fn urgent_always_delivered() {
        assert_eq!(night().decide(Priority::Urgent, 90), Decision::Deliver);
    }
}
