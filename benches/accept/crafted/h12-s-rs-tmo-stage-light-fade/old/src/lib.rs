//! Timed fades for a small DMX lighting console. A fade moves one channel from its current
//! level to a target over a duration, emitting one level per console frame (40 frames/s).

use std::sync::mpsc::Sender;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

pub const CHANNELS: usize = 512;
pub const FRAME: Duration = Duration::from_millis(25);

#[derive(Debug, Clone, PartialEq)]
pub enum FadeEvent {
    Level { channel: u16, level: u8 },
    Done { channel: u16, frames: u32, elapsed: Duration },
}

#[derive(Debug, Clone, Copy)]
pub struct Fade {
    pub channel: u16,
    pub from: u8,
    pub to: u8,
    pub duration: Duration,
}

impl Fade {
    /// Number of console frames the fade spans (at least one, so a zero-time fade snaps).
    pub fn frames(&self) -> u32 {
        ((self.duration.as_millis() / FRAME.as_millis()) as u32).max(1)
    }

    /// Level after frame `i` (1-based), linear in time, rounded to the nearest DMX step.
    pub fn level_at(&self, i: u32) -> u8 {
        let n = self.frames();
        let i = i.min(n);
        let from = self.from as f64;
        let span = self.to as f64 - from;
        (from + span * i as f64 / n as f64).round() as u8
    }

    pub fn levels(&self) -> Vec<u8> {
        (1..=self.frames()).map(|i| self.level_at(i)).collect()
    }
}

/// The console's output universe: one level per channel, 1-based channel numbers.
#[derive(Debug, Clone)]
pub struct Universe {
    levels: [u8; CHANNELS],
}

impl Default for Universe {
    fn default() -> Self {
        Universe { levels: [0; CHANNELS] }
    }
}

impl Universe {
    pub fn set(&mut self, channel: u16, level: u8) {
        if (1..=CHANNELS as u16).contains(&channel) {
            self.levels[channel as usize - 1] = level;
        }
    }

    pub fn get(&self, channel: u16) -> u8 {
        self.levels.get((channel as usize).wrapping_sub(1)).copied().unwrap_or(0)
    }

    pub fn apply(&mut self, event: &FadeEvent) {
        if let FadeEvent::Level { channel, level } = event {
            self.set(*channel, *level);
        }
    }
}

/// Runs the fade on its own thread, sending each frame's level and then `Done`.
/// Frames are paced against the start time so the whole fade takes `duration`.
pub fn run_fade(fade: Fade, tx: Sender<FadeEvent>) -> JoinHandle<()> {
    thread::spawn(move || {
        let start = Instant::now();
        let frames = fade.frames();
        for i in 1..=frames {
            thread::sleep(FRAME * i);
            if tx.send(FadeEvent::Level { channel: fade.channel, level: fade.level_at(i) }).is_err() {
                return;
            }
        }
        let _ = tx.send(FadeEvent::Done { channel: fade.channel, frames, elapsed: start.elapsed() });
    })
}
