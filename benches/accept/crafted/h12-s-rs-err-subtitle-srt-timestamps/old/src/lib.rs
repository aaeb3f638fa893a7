//! Parse, shift and re-time SubRip (.srt) subtitle files.

pub mod srt;

use std::time::Duration;

pub use srt::{format_timestamp, parse_srt, parse_timestamp, SrtError};

#[derive(Debug, Clone, PartialEq)]
pub struct Cue {
    pub index: u32,
    pub start: Duration,
    pub end: Duration,
    pub text: String,
}

impl Cue {
    pub fn duration(&self) -> Duration {
        self.end.saturating_sub(self.start)
    }
}

/// Shift every cue by `offset_ms` (negative moves subtitles earlier). Cues that would start
/// before zero are clamped to zero rather than dropped, so numbering stays intact.
pub fn shift(cues: &[Cue], offset_ms: i64) -> Vec<Cue> {
    let move_by = |d: Duration| -> Duration {
        let ms = d.as_millis() as i64 + offset_ms;
        Duration::from_millis(ms.max(0) as u64)
    };
    cues.iter()
        .map(|c| Cue { start: move_by(c.start), end: move_by(c.end), ..c.clone() })
        .collect()
}

/// Re-time cues authored against one frame rate for a video at another (e.g. 25 -> 23.976).
pub fn retime(cues: &[Cue], from_fps: f64, to_fps: f64) -> Vec<Cue> {
    let k = from_fps / to_fps;
    let scale = |d: Duration| Duration::from_millis((d.as_millis() as f64 * k).round() as u64);
    cues.iter()
        .map(|c| Cue { start: scale(c.start), end: scale(c.end), ..c.clone() })
        .collect()
}

/// Renumber from 1 and write the cues back out as SubRip text.
pub fn to_srt(cues: &[Cue]) -> String {
    let mut out = String::new();
    for (i, c) in cues.iter().enumerate() {
        out.push_str(&format!(
            "{}\n{} --> {}\n{}\n\n",
            i + 1,
            format_timestamp(c.start),
            format_timestamp(c.end),
            c.text
        ));
    }
    out
}
