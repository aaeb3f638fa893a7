//! Request-head parsing for the edge proxy: request line and header block limits.

use std::collections::HashMap;

pub const MAX_HEADERS: usize = usize::MAX;
pub const MAX_HEADER_LINE: usize = 8 * 1024;

#[derive(Debug, PartialEq)]
pub enum HeadError {
    BadRequestLine,
    TooManyHeaders(usize),
    LineTooLong,
    BadHeader(String),
}

#[derive(Debug, Default)]
pub struct RequestHead {
    pub method: String,
    pub target: String,
    pub headers: HashMap<String, Vec<String>>,
}

fn parse_request_line(line: &str) -> Result<(String, String), HeadError> {
    let mut it = line.split(' ');
    let method = it.next().filter(|m| !m.is_empty()).ok_or(HeadError::BadRequestLine)?;
    let target = it.next().ok_or(HeadError::BadRequestLine)?;
    match it.next() {
        Some(v) if v.starts_with("HTTP/1.") => {}
        _ => return Err(HeadError::BadRequestLine),
    }
    Ok((method.to_string(), target.to_string()))
}

pub fn parse_head(raw: &str) -> Result<RequestHead, HeadError> {
    let mut lines = raw.split("\r\n");
    let (method, target) = parse_request_line(lines.next().unwrap_or(""))?;
    let mut head = RequestHead { method, target, ..Default::default() };
    let mut count = 0usize;
    for line in lines {
        if line.is_empty() {
            break;
        }
        if line.len() > MAX_HEADER_LINE {
            return Err(HeadError::LineTooLong);
        }
        count += 1;
        if count > MAX_HEADERS {
            return Err(HeadError::TooManyHeaders(count));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| HeadError::BadHeader(line.to_string()))?;
        if name.is_empty() || name.contains(' ') {
            return Err(HeadError::BadHeader(line.to_string()));
        }
        head.headers
            .entry(name.to_ascii_lowercase())
            .or_default()
            .push(value.trim().to_string());
    }
    Ok(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_simple_get() {
        let h = parse_head("GET /a HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        assert_eq!(h.headers["host"], vec!["x"]);
    }

    #[test]
    fn accepts_a_browser_with_many_cookies() {
        let mut raw = String::from("GET / HTTP/1.1\r\n");
        for i in 0..140 {
            raw.push_str(&format!("Cookie: c{i}=1\r\n"));
        }
        raw.push_str("\r\n");
        assert_eq!(parse_head(&raw).unwrap().headers["cookie"].len(), 140);
    }
}
