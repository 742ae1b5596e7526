//! An incremental Server-Sent Events parser, following the WHATWG
//! "event stream interpretation" rules.
//!
//! Bytes go in as they arrive, in chunks split anywhere: inside a line, between
//! the CR and LF of a CRLF, or inside a UTF-8 sequence. Lines are decoded only
//! once complete, so a split sequence decodes correctly; an invalid one becomes
//! U+FFFD, as the standard's UTF-8 decode does. Limits on line and event size
//! turn a hostile endless line into an error instead of unbounded memory.

use std::fmt;

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field, or `"message"` when absent.
    pub event: String,
    /// The `data` lines joined with `\n`.
    pub data: String,
    /// The last event id seen on the stream so far (ids persist across events).
    pub id: Option<String>,
    /// Whether this event set the id itself, rather than inheriting it.
    pub fresh_id: bool,
}

/// A limit was exceeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SseError {
    /// A single line grew past the limit without a line end.
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// An event's data grew past the limit.
    EventTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::LineTooLong { limit } => write!(f, "an SSE line is longer than {limit} bytes"),
            Self::EventTooLarge { limit } => write!(f, "an SSE event is larger than {limit} bytes"),
        }
    }
}

/// Default limit for one line and for one event's data: generous enough for a
/// multi-megabyte `resources/read` result, small enough to stop a runaway stream.
pub const DEFAULT_LIMIT: usize = 64 * 1024 * 1024;

/// The parser state for one stream.
#[derive(Debug)]
pub struct SseParser {
    line: Vec<u8>,
    /// The previous chunk ended in CR, so a leading LF belongs to that line end.
    after_cr: bool,
    /// Whether the first bytes (and a possible BOM) have been seen.
    started: bool,
    data: String,
    has_data: bool,
    event: String,
    last_id: Option<String>,
    id_in_event: bool,
    retry_ms: Option<u32>,
    limit: usize,
}

impl Default for SseParser {
    fn default() -> Self {
        Self::with_limit(DEFAULT_LIMIT)
    }
}

impl SseParser {
    /// A parser that refuses lines and events larger than `limit` bytes.
    pub fn with_limit(limit: usize) -> Self {
        Self {
            line: Vec::new(),
            after_cr: false,
            started: false,
            data: String::new(),
            has_data: false,
            event: String::new(),
            last_id: None,
            id_in_event: false,
            retry_ms: None,
            limit,
        }
    }

    /// The last `retry` value the stream sent, in milliseconds.
    pub fn retry_ms(&self) -> Option<u32> {
        self.retry_ms
    }

    /// The last event id the stream sent, for `Last-Event-ID`.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// Feeds a chunk and appends every event it completes to `out`.
    ///
    /// # Errors
    /// A line or event larger than the limit. The parser should then be dropped.
    pub fn push(&mut self, mut chunk: &[u8], out: &mut Vec<SseEvent>) -> Result<(), SseError> {
        if !self.started {
            if chunk.is_empty() {
                return Ok(());
            }
            // A BOM can only be recognised once three bytes are in; keep short
            // beginnings in the line buffer until then.
            self.line.extend_from_slice(chunk);
            if self.line.len() < 3 && b"\xEF\xBB\xBF".starts_with(&self.line) {
                return Ok(());
            }
            self.started = true;
            let buffered = std::mem::take(&mut self.line);
            let body = buffered.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&buffered);
            return self.push(body, out);
        }
        // An empty chunk must not clear the pending CR: the LF may come next.
        if self.after_cr && !chunk.is_empty() {
            self.after_cr = false;
            if let Some(rest) = chunk.strip_prefix(b"\n") {
                chunk = rest;
            }
        }
        while let Some(end) = chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.append_to_line(&chunk[..end])?;
            let line = std::mem::take(&mut self.line);
            self.process_line(&line, out)?;
            self.line = line;
            self.line.clear();
            let is_cr = chunk[end] == b'\r';
            chunk = &chunk[end + 1..];
            if is_cr {
                match chunk.first() {
                    Some(b'\n') => chunk = &chunk[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        self.append_to_line(chunk)
    }

    fn append_to_line(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        if self.line.len() + bytes.len() > self.limit {
            return Err(SseError::LineTooLong { limit: self.limit });
        }
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn process_line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) -> Result<(), SseError> {
        if line.is_empty() {
            self.dispatch(out);
            return Ok(());
        }
        if line[0] == b':' {
            return Ok(());
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match field {
            b"data" => {
                let value = String::from_utf8_lossy(value);
                if self.data.len() + value.len() + 1 > self.limit {
                    return Err(SseError::EventTooLarge { limit: self.limit });
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(&value);
                self.has_data = true;
            }
            b"event" => self.event = String::from_utf8_lossy(value).into_owned(),
            b"id" if !value.contains(&0) => {
                self.last_id = Some(String::from_utf8_lossy(value).into_owned()).filter(|id| !id.is_empty());
                self.id_in_event = true;
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                // Saturate rather than overflow on absurd values.
                let ms = std::str::from_utf8(value).ok().and_then(|v| v.parse::<u64>().ok()).unwrap_or(u64::MAX);
                self.retry_ms = Some(u32::try_from(ms).unwrap_or(u32::MAX));
            }
            _ => {}
        }
        Ok(())
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        let event = std::mem::take(&mut self.event);
        let fresh_id = std::mem::take(&mut self.id_in_event);
        if !self.has_data {
            return;
        }
        self.has_data = false;
        out.push(SseEvent {
            event: if event.is_empty() { "message".to_owned() } else { event },
            data: std::mem::take(&mut self.data),
            id: self.last_id.clone(),
            fresh_id,
        });
    }
}

#[cfg(test)]
mod tests;
