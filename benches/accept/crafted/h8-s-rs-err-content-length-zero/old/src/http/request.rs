//! Minimal HTTP/1.1 request-head parser for the embedded admin server.

use std::collections::HashMap;

const MAX_BODY: usize = 1 << 20;

#[derive(Debug, PartialEq, Eq)]
pub enum ParseError {
    Incomplete,
    BadRequestLine,
    BadHeader(String),
    BadContentLength(String),
    BodyTooLarge(usize),
}

#[derive(Debug)]
pub struct Head {
    pub method: String,
    pub path: String,
    pub headers: HashMap<String, String>,
    pub content_length: usize,
}

fn content_length(raw: &str) -> Result<usize, ParseError> {
    raw.parse::<usize>().map_err(|_| ParseError::BadContentLength(raw.to_string()))
}

/// Parse the request line and headers; returns the head and the offset of
/// the body in `buf`.
pub fn parse_head(buf: &str) -> Result<(Head, usize), ParseError> {
    let end = buf.find("\r\n\r\n").ok_or(ParseError::Incomplete)?;
    let mut lines = buf[..end].split("\r\n");
    let request_line = lines.next().ok_or(ParseError::BadRequestLine)?;
    let mut parts = request_line.split(' ');
    let (method, path, version) = match (parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(p), Some(v)) if !m.is_empty() && p.starts_with('/') => (m, p, v),
        _ => return Err(ParseError::BadRequestLine),
    };
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(ParseError::BadRequestLine);
    }
    let mut headers = HashMap::new();
    for line in lines {
        let (name, value) = line.split_once(':').ok_or_else(|| ParseError::BadHeader(line.to_string()))?;
        headers.insert(name.trim().to_ascii_lowercase(), value.to_string());
    }
    let length = match headers.get("content-length") {
        Some(raw) => content_length(raw)?,
        None => 0,
    };
    if length > MAX_BODY {
        return Err(ParseError::BodyTooLarge(length));
    }
    let head = Head { method: method.to_string(), path: path.to_string(), headers, content_length: length };
    Ok((head, end + 4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_get() {
        let (head, offset) = parse_head("GET /status HTTP/1.1\r\nHost: admin\r\n\r\n").unwrap();
        assert_eq!(head.method, "GET");
        assert_eq!(head.path, "/status");
        assert_eq!(offset, 37);
    }

    #[test]
    fn parses_post_with_body() {
        let req = "POST /jobs HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}";
        let (head, _) = parse_head(req).unwrap();
        assert_eq!(head.method, "POST");
    }

    #[test]
    fn rejects_bad_request_line() {
        assert_eq!(parse_head("GARBAGE\r\n\r\n").unwrap_err(), ParseError::BadRequestLine);
    }
}
