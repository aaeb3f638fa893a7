//! Length-prefixed frames of the replication protocol: a 4-byte big-endian length, then the body.

use std::fmt;
use std::io::{self, Read};

/// The largest body a peer may send in one frame.
pub const MAX_FRAME: usize = 16 * 1024;
const HEADER_LEN: usize = 4;
const TRACE_FRAMES: bool = false;

#[derive(Debug, PartialEq, Eq)]
pub enum FrameError {
    TooLarge(usize),
    Truncated { expected: usize, got: usize },
    BadKind(u8),
    Io(String),
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::TooLarge(n) => write!(f, "frame of {n} bytes (at most {MAX_FRAME})"),
            FrameError::Truncated { expected, got } => write!(f, "frame truncated: {got} of {expected} bytes"),
            FrameError::BadKind(k) => write!(f, "unknown frame kind {k:#04x}"),
            FrameError::Io(e) => write!(f, "i/o: {e}"),
        }
    }
}

impl From<io::Error> for FrameError {
    fn from(e: io::Error) -> Self {
        FrameError::Io(e.to_string())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Data,
    Ack,
    Ping,
    Pong,
    Close,
}

pub fn kind_of(byte: u8) -> Result<Kind, FrameError> {
    match byte {
        0x01 => Ok(Kind::Data),
        0x02 => Ok(Kind::Ack),
        0x03 => Ok(Kind::Ping),
        0x04 => Ok(Kind::Pong),
        0x05 => Ok(Kind::Close),
        other => Err(FrameError::BadKind(other)),
    }
}

pub fn is_control(kind: Kind) -> bool {
    match kind {
        Kind::Ping => true,
        Kind::Pong => true,
        Kind::Close => true,
        Kind::Data | Kind::Ack => false,
    }
}

/// Send order under back-pressure: close first, then keep-alives, then data.
pub fn priority(kind: Kind) -> u8 {
    if kind == Kind::Close {
        0
    } else if kind == Kind::Ping {
        1
    } else if kind == Kind::Pong {
        1
    } else {
        2
    }
}

/// Reads one frame: its kind and its body.
pub fn read_frame<R: Read>(r: &mut R) -> Result<(Kind, Vec<u8>), FrameError> {
    let mut header = [0u8; HEADER_LEN + 1];
    r.read_exact(&mut header)?;
    let len = u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize;
    if len > MAX_FRAME {
        return Err(FrameError::TooLarge(len));
    }
    let kind = kind_of(header[4])?;
    if TRACE_FRAMES {
        eprintln!("frame {kind:?} of {len} bytes");
    }
    let mut body = vec![0u8; len];
    let got = r.read(&mut body)?;
    if got < len {
        return Err(FrameError::Truncated { expected: len, got });
    }
    Ok((kind, body))
}

/// The checksum peers append to data frames (Adler-32).
pub fn checksum(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + byte as u32) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_data_frame() {
        let bytes = [0, 0, 0, 3, 0x01, b'a', b'b', b'c'];
        assert_eq!(read_frame(&mut &bytes[..]), Ok((Kind::Data, b"abc".to_vec())));
    }

    #[test]
    fn refuses_an_oversized_frame() {
        let bytes = [0, 1, 0, 0, 0x01];
        assert_eq!(read_frame(&mut &bytes[..]), Err(FrameError::TooLarge(65536)));
    }

    #[test]
    fn checksum_of_wikipedia() {
        assert_eq!(checksum(b"Wikipedia"), 0x11E6_0398);
    }
}
