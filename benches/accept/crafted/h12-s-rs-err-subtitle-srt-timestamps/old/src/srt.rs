//! SubRip text format: numbered blocks of `HH:MM:SS,mmm --> HH:MM:SS,mmm` and text lines,
//! separated by blank lines. Some tools write a dot before the milliseconds; accept both.

use std::fmt;
use std::time::Duration;

use crate::Cue;

#[derive(Debug, PartialEq)]
pub enum SrtError {
    BadIndex { line: usize },
    MissingArrow { line: usize },
    BadTimestamp { line: usize, text: String },
    EndBeforeStart { index: u32 },
}

impl fmt::Display for SrtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for SrtError {}

/// Parse one timestamp; `line` is only used for the error.
pub fn parse_timestamp(text: &str, line: usize) -> Result<Duration, SrtError> {
    let bad = || SrtError::BadTimestamp { line, text: text.to_string() };
    let parts: Vec<&str> = text.trim().split(|c| c == ':' || c == '.').collect();
    if parts.len() != 4 {
        return Err(bad());
    }
    let nums: Vec<u64> = parts.iter().map(|p| p.parse::<u64>()).collect::<Result<_, _>>().map_err(|_| bad())?;
    let (h, m, s, ms) = (nums[0], nums[1], nums[2], nums[3]);
    if m >= 60 || s >= 60 || ms >= 1000 {
        return Err(bad());
    }
    Ok(Duration::from_millis(((h * 60 + m) * 60 + s) * 1000 + ms))
}

pub fn format_timestamp(d: Duration) -> String {
    let ms = d.as_millis() as u64;
    format!("{:02}:{:02}:{:02},{:03}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
}

pub fn parse_srt(input: &str) -> Result<Vec<Cue>, SrtError> {
    let mut cues = Vec::new();
    let lines: Vec<&str> = input.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim().is_empty() {
            i += 1;
            continue;
        }
        let index: u32 = lines[i].trim().trim_start_matches('\u{feff}').parse().map_err(|_| SrtError::BadIndex { line: i + 1 })?;
        let timing = lines.get(i + 1).copied().unwrap_or("");
        let (a, b) = timing.split_once("-->").ok_or(SrtError::MissingArrow { line: i + 2 })?;
        let start = parse_timestamp(a, i + 2)?;
        let end = parse_timestamp(b, i + 2)?;
        if end < start {
            return Err(SrtError::EndBeforeStart { index });
        }
        i += 2;
        let mut text = Vec::new();
        while i < lines.len() && !lines[i].trim().is_empty() {
            text.push(lines[i]);
            i += 1;
        }
        cues.push(Cue { index, start, end, text: text.join("\n") });
    }
    Ok(cues)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "1\n00:00:01,200 --> 00:00:03,900\nGood morning.\n\n\
2\n00:00:04,100 --> 00:00:06,000\nWhere are we going?\n\n\
3\n00:01:02,500 --> 00:01:05,250\nNorth, until the road ends.\n- Then what?\n";

    #[test]
    fn parses_sample_file() {
        let cues = parse_srt(SAMPLE).unwrap();
        assert_eq!(cues.len(), 3);
        assert_eq!(cues[1].text, "Where are we going?");
        assert_eq!(cues[2].text.lines().count(), 2);
    }

    #[test]
    fn dotted_milliseconds_accepted() {
        assert_eq!(parse_timestamp("00:01:02.500", 1), Ok(Duration::from_millis(62_500)));
    }

    #[test]
    fn formats_with_comma() {
        assert_eq!(format_timestamp(Duration::from_millis(3_723_004)), "01:02:03,004");
    }

    #[test]
    fn missing_arrow_is_an_error() {
        assert_eq!(parse_srt("1\n00:00:01,000 00:00:02,000\nHi\n"), Err(SrtError::MissingArrow { line: 2 }));
    }

    #[test]
    fn shift_clamps_at_zero() {
        let cue = Cue { index: 1, start: Duration::from_millis(500), end: Duration::from_millis(2_000), text: "Hi".into() };
        let moved = crate::shift(&[cue], -1_000);
        assert_eq!(moved[0].start, Duration::ZERO);
        assert_eq!(moved[0].end, Duration::from_millis(1_000));
    }
}
