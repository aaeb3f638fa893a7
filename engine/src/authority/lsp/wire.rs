//! The language server protocol's base layer: messages framed by a `Content-Length` header, read
//! from the server's stdout on a thread of their own (the server is untrusted: a header section
//! of at most [`MAX_HEADER_BYTES`], a body of at most [`MAX_BODY_BYTES`], JSON or the stream ends)
//! and written to its stdin.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc;

use serde_json::Value;

/// The largest header section read.
pub(super) const MAX_HEADER_BYTES: usize = 8 * 1024;
/// The largest message body read.
pub(super) const MAX_BODY_BYTES: usize = 16 << 20;

/// Why the reader stopped.
#[derive(Debug)]
pub(super) enum Ended {
    /// The stream closed (the server exited or was killed).
    Closed,
    /// The server broke the framing or sent what is not JSON: the reason.
    Broken(String),
}

/// One message read, or the end of the stream.
pub(super) type Incoming = Result<Value, Ended>;

/// Read framed messages from `r` until it ends or breaks the framing, each sent to `tx`.
pub(super) fn read_messages(r: impl Read, tx: mpsc::Sender<Incoming>) {
    let mut r = BufReader::with_capacity(64 * 1024, r);
    loop {
        let end = match read_one(&mut r) {
            Ok(Some(v)) => {
                if tx.send(Ok(v)).is_err() {
                    return;
                }
                continue;
            }
            Ok(None) => Ended::Closed,
            Err(why) => Ended::Broken(why),
        };
        let _ = tx.send(Err(end));
        return;
    }
}

/// One message, `None` at the end of the stream.
fn read_one(r: &mut impl BufRead) -> Result<Option<Value>, String> {
    let mut len: Option<usize> = None;
    let mut header = 0usize;
    loop {
        let mut line = Vec::new();
        let n = r
            .by_ref()
            .take((MAX_HEADER_BYTES - header + 1) as u64)
            .read_until(b'\n', &mut line)
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return if header == 0 {
                Ok(None)
            } else {
                Err("the stream ended in a header".into())
            };
        }
        header += n;
        if header > MAX_HEADER_BYTES {
            return Err(format!(
                "a header section longer than {MAX_HEADER_BYTES} bytes"
            ));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        if let Some((k, v)) = text.split_once(':')
            && k.trim().eq_ignore_ascii_case("content-length")
        {
            len = Some(
                v.trim()
                    .parse()
                    .map_err(|_| format!("Content-Length {v:?}"))?,
            );
        }
    }
    let len = len.ok_or("a message without Content-Length")?;
    if len > MAX_BODY_BYTES {
        return Err(format!(
            "a message of {len} bytes, more than {MAX_BODY_BYTES}"
        ));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).map_err(|e| e.to_string())?;
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| format!("a message that is not JSON: {e}"))
}

/// Write `msg`, framed, to `w`.
pub(super) fn write_message(w: &mut impl Write, msg: &Value) -> std::io::Result<()> {
    let body = serde_json::to_vec(msg)?;
    write!(w, "Content-Length: {}\r\n\r\n", body.len())?;
    w.write_all(&body)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(bytes: &[u8]) -> Vec<Incoming> {
        let (tx, rx) = mpsc::channel();
        read_messages(bytes, tx);
        rx.into_iter().collect()
    }

    #[test]
    fn framing_is_read_and_bounded() {
        let mut buf = Vec::new();
        write_message(&mut buf, &serde_json::json!({"id": 1})).unwrap();
        write_message(&mut buf, &serde_json::json!({"id": 2})).unwrap();
        let got = read_all(&buf);
        assert_eq!(got.len(), 3);
        assert_eq!(got[1].as_ref().unwrap()["id"], 2);
        assert!(matches!(got[2], Err(Ended::Closed)));
        let huge = format!("Content-Length: {}\r\n\r\n", MAX_BODY_BYTES + 1);
        assert!(matches!(
            read_all(huge.as_bytes())[0],
            Err(Ended::Broken(_))
        ));
        let endless = vec![b'x'; MAX_HEADER_BYTES * 2];
        assert!(matches!(read_all(&endless)[0], Err(Ended::Broken(_))));
        assert!(matches!(
            read_all(b"Content-Length: 3\r\n\r\n{x}")[0],
            Err(Ended::Broken(_))
        ));
    }
}
