//! An incremental Server-Sent Events parser, following the WHATWG
//! "event stream interpretation" rules.
//!
//! Bytes go in as they arrive, in chunks split anywhere: inside a line, between
//! the CR and LF of a CRLF, or inside a UTF-8 sequence. An event's data is
//! decoded once, when the event is dispatched, and its other fields once their
//! line is complete, so a split sequence decodes correctly; an invalid one
//! becomes U+FFFD, as the standard's UTF-8 decode does. Limits count the
//! server's bytes.
//!
//! A server chooses how long its lines and events are, so both are bounded.
//! Past the limit the parser either fails ([`Oversize::Fail`], for a stream
//! that carries one request's answer and can simply be dropped) or skips the
//! event without keeping it ([`Oversize::Skip`], for a stream shared by every
//! request, which must go on). A skipped event still reports what its data
//! said about itself (its JSON-RPC id), so the request it answered can fail
//! at once.

use crate::protocol::jsonrpc::elide::Eliding;
use crate::protocol::jsonrpc::envelope::{Envelope, EnvelopeScanner};
use crate::protocol::wide;
use crate::session::limits::{MAX_RETRY_MS, MIN_RETRY_MS};
use line::LineBuffer;
use std::fmt;

mod line;

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field, or `"message"` when absent.
    pub event: String,
    /// The `data` lines joined with `\n` (empty for an oversized event).
    pub data: String,
    /// The last event id seen on the stream so far (ids persist across events).
    pub id: Option<String>,
    /// Whether this event set the id itself, rather than inheriting it.
    pub fresh_id: bool,
    /// Set when the data went past the limit and was skipped.
    pub oversized: Option<Oversized>,
    /// Set when the data was kept by the caller ([`SseParser::keep_data_over`]):
    /// `data` is then the text without what its checks do not read.
    pub kept: Option<KeptEvent>,
}

/// What the parser learned of an event whose data its caller kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptEvent {
    /// How many bytes `data` lacks (0: it is all there, and the kept bytes can go).
    pub elided: usize,
    /// The kept bytes' length.
    pub bytes: usize,
    /// The data grew long with nothing left out, and the parser stopped
    /// lexing it: `data` is empty, and the caller reads its own bytes whole.
    pub whole: bool,
    /// The length of the `result.structuredContent` that `data` lacks.
    pub structured: Option<usize>,
}

/// Where a kept event's data is, in the order it goes ([`SseParser::take_kept`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeptPiece {
    /// Bytes the parser had already (the start of the line, a joining line feed).
    Held(Vec<u8>),
    /// Bytes `start..end` of the chunk just pushed.
    InChunk(usize, usize),
    /// The event these pieces make up was dispatched, with its `kept` set.
    Dispatched,
}

/// What is known of an event whose data was too large to keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oversized {
    /// How many bytes of data it had.
    pub bytes: usize,
    /// What the data said about itself, read as it went past.
    pub envelope: Envelope,
}

/// A limit was exceeded (in [`Oversize::Fail`] mode).
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

/// What to do with a line or event past the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oversize {
    /// Fail: the caller drops the stream.
    Fail,
    /// Skip the event, reporting it as [`SseEvent::oversized`], and go on.
    Skip,
}

/// Default limit for one line and for one event's data.
pub const DEFAULT_LIMIT: usize = 32 * 1024 * 1024;

/// The longest event id kept (the official SDK's are a stream id and a counter, some 50 bytes).
pub const MAX_ID_BYTES: usize = 1024;

/// Where the bytes of the current line go.
#[derive(Debug, PartialEq, Eq)]
enum LineMode {
    /// Into the line buffer.
    Buffer,
    /// A `data` line past the limit: straight to the scanner.
    OversizedData,
    /// Another field past the limit: nowhere.
    Discard,
    /// A long first `data` line the caller keeps: to the lexer.
    KeptData,
}

/// The parser state for one stream.
#[derive(Debug)]
pub struct SseParser {
    line: LineBuffer,
    line_mode: LineMode,
    /// The previous chunk ended in CR, so a leading LF belongs to that line end.
    after_cr: bool,
    /// Whether the first bytes (and a possible BOM) have been seen.
    started: bool,
    /// The event's data lines so far, joined with `\n`, decoded when it is dispatched.
    data: Vec<u8>,
    has_data: bool,
    /// The current event's data went past the limit and is being skipped.
    skipped: Option<(EnvelopeScanner, usize)>,
    event: String,
    last_id: Option<String>,
    id_in_event: bool,
    retry_ms: Option<u32>,
    limit: usize,
    oversize: Oversize,
    /// A first data line at least this long is kept by the caller (0: never).
    keep_over: usize,
    /// The current event's data, lexed as it goes past, when it is kept.
    kept: Option<(Eliding, usize)>,
    /// Where the kept data lies, since the caller last took it.
    pieces: Vec<KeptPiece>,
    /// The chunk being pushed, as an address range, to place kept bytes in it.
    chunk: (usize, usize),
}

impl Default for SseParser {
    fn default() -> Self {
        Self::with_limit(DEFAULT_LIMIT)
    }
}

impl SseParser {
    /// A parser that fails on lines and events larger than `limit` bytes.
    pub fn with_limit(limit: usize) -> Self {
        Self::new(limit, Oversize::Fail)
    }

    /// A parser with the given limit and behaviour past it.
    pub fn new(limit: usize, oversize: Oversize) -> Self {
        Self {
            line: LineBuffer::default(),
            line_mode: LineMode::Buffer,
            after_cr: false,
            started: false,
            data: Vec::new(),
            has_data: false,
            skipped: None,
            event: String::new(),
            last_id: None,
            id_in_event: false,
            retry_ms: None,
            limit,
            oversize,
            keep_over: 0,
            kept: None,
            pieces: Vec::new(),
            chunk: (0, 0),
        }
    }

    /// Leaves an event's data that starts with a data line of at least
    /// `bytes` bytes with the caller: the parser lexes it as it goes past
    /// (`protocol::jsonrpc::elide`), says where it lies ([`SseParser::take_kept`])
    /// and dispatches the text without what its checks do not read. Only for a
    /// parser that fails past its limit (a stream one request's answer is on).
    #[must_use]
    pub fn keep_data_over(mut self, bytes: usize) -> Self {
        if self.oversize == Oversize::Fail {
            self.keep_over = bytes;
        }
        self
    }

    /// Where the kept data of the chunks pushed since the last call lies.
    pub fn take_kept(&mut self) -> Vec<KeptPiece> {
        std::mem::take(&mut self.pieces)
    }

    /// The last `retry` value the stream sent, in milliseconds.
    pub fn retry_ms(&self) -> Option<u32> {
        self.retry_ms
    }

    /// The last event id the stream named, even in an event not yet
    /// dispatched (the standard's last event ID buffer). A caller that
    /// resumes a stream resumes after the last id a dispatched event carries
    /// ([`SseEvent::id`] of an event with `fresh_id`): an event cut off after
    /// its `id` line never arrived.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// Feeds a chunk and appends every event it completes to `out`.
    ///
    /// # Errors
    /// In [`Oversize::Fail`] mode, a line or event larger than the limit. The
    /// parser should then be dropped.
    pub fn push(&mut self, chunk: &[u8], out: &mut Vec<SseEvent>) -> Result<(), SseError> {
        if !self.started {
            if chunk.is_empty() {
                return Ok(());
            }
            // A BOM can only be recognised once three bytes are in; keep short
            // beginnings in the line buffer until then.
            self.line.push(chunk);
            if self.line.len() < 3 && b"\xEF\xBB\xBF".starts_with(self.line.head()) {
                return Ok(());
            }
            self.started = true;
            let buffered = self.line.take();
            let body = buffered.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&buffered);
            // A copy, not the caller's chunk: kept bytes in it are handed over.
            self.chunk = (0, 0);
            return self.push_started(body, out);
        }
        let start = chunk.as_ptr() as usize;
        self.chunk = (start, start.saturating_add(chunk.len()));
        self.push_started(chunk, out)
    }

    fn push_started(&mut self, mut chunk: &[u8], out: &mut Vec<SseEvent>) -> Result<(), SseError> {
        // An empty chunk must not clear the pending CR: the LF may come next.
        if self.after_cr && !chunk.is_empty() {
            self.after_cr = false;
            if let Some(rest) = chunk.strip_prefix(b"\n") {
                chunk = rest;
            }
        }
        while let Some(end) = wide::line_end(chunk) {
            let (content, rest) = chunk.split_at(end);
            self.append_to_line(content)?;
            self.end_line(out)?;
            let is_cr = rest.first() == Some(&b'\r');
            chunk = rest.get(1..).unwrap_or_default();
            if is_cr {
                match chunk.first() {
                    Some(b'\n') => chunk = chunk.get(1..).unwrap_or_default(),
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        self.append_to_line(chunk)
    }

    fn append_to_line(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        match self.line_mode {
            LineMode::Discard => return Ok(()),
            LineMode::OversizedData => {
                self.skip_data(bytes);
                return Ok(());
            }
            LineMode::KeptData => return self.keep(bytes),
            LineMode::Buffer => {}
        }
        if self.keep_over > 0 && self.line.len() + bytes.len() >= self.keep_over && !self.has_data && self.skipped.is_none() {
            if let Some(start) = self.data_start(bytes) {
                return self.start_keeping(start, bytes);
            }
        }
        if self.line.len() + bytes.len() <= self.limit {
            self.line.push(bytes);
            return Ok(());
        }
        self.overflow_line(bytes)
    }

    // `start_keeping` and `overflow_line` are apart from `append_to_line`, which every line runs:
    // a first call's events are short, and they stay out of the module a page loads first.

    /// Keeps the data line that `bytes` continues, from `start` in the line so far.
    #[inline(never)]
    fn start_keeping(&mut self, start: usize, bytes: &[u8]) -> Result<(), SseError> {
        let buffered = self.line.len();
        self.kept = Some((Eliding::for_body(0).give_up_at(KEPT_GIVE_UP), 0));
        self.has_data = true;
        self.line_mode = LineMode::KeptData;
        for part in self.line.take_parts_from(start) {
            self.keep_held(part)?;
        }
        self.keep(bytes.get(start.saturating_sub(buffered)..).unwrap_or_default())
    }

    /// A line past the limit with `bytes`: an error, or its data counted and the rest dropped.
    #[inline(never)]
    fn overflow_line(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        if self.oversize == Oversize::Fail {
            return Err(SseError::LineTooLong { limit: self.limit });
        }
        // Too long to keep. A data line goes on to the scanner; anything else is dropped.
        let mut line = self.line.take();
        line.extend_from_slice(bytes);
        match data_value(&line) {
            Some(value) => {
                self.start_skipping();
                self.skip_data(value);
                self.line_mode = LineMode::OversizedData;
            }
            None => self.line_mode = LineMode::Discard,
        }
        Ok(())
    }

    /// Where the value of the line that `bytes` continues starts, if it is a
    /// `data` line ("data: " is the longest start a value can have).
    fn data_start(&self, bytes: &[u8]) -> Option<usize> {
        let (mut first, mut filled) = self.line.first::<6>();
        for (slot, &byte) in first.iter_mut().skip(filled).zip(bytes) {
            *slot = byte;
            filled += 1;
        }
        first.get(..filled).and_then(data_value).map(|value| filled - value.len())
    }

    /// Lexes `bytes` of the kept data, which the caller has in the chunk.
    #[inline(never)]
    fn keep(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        let at = bytes.as_ptr() as usize;
        let (start, end) = self.chunk;
        if at < start || at.saturating_add(bytes.len()) > end {
            return self.keep_held(bytes.to_vec());
        }
        self.count_kept(bytes)?;
        if !bytes.is_empty() {
            self.pieces.push(KeptPiece::InChunk(at - start, at - start + bytes.len()));
        }
        Ok(())
    }

    /// Lexes bytes of the kept data that the parser holds, which go to the caller.
    /// Held bytes join the piece before them when it is held too: each becomes an
    /// array in JS, and a line `data` (5 bytes from the server) would otherwise cost
    /// two, some 100 bytes of JS heap for each byte counted against the limit.
    fn keep_held(&mut self, bytes: Vec<u8>) -> Result<(), SseError> {
        self.count_kept(&bytes)?;
        match self.pieces.last_mut() {
            _ if bytes.is_empty() => {}
            Some(KeptPiece::Held(before)) => before.extend_from_slice(&bytes),
            _ => self.pieces.push(KeptPiece::Held(bytes)),
        }
        Ok(())
    }

    fn count_kept(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        let limit = self.limit;
        let Some((eliding, count)) = self.kept.as_mut() else { return Ok(()) };
        *count = count.saturating_add(bytes.len());
        if *count > limit {
            return Err(SseError::EventTooLarge { limit });
        }
        eliding.feed(bytes);
        Ok(())
    }

    /// Moves the event's data so far to a scanner; from now on it is only counted.
    /// Starts (or continues) skipping the event's data at a new data line.
    fn start_skipping(&mut self) {
        if self.skipped.is_none() {
            let mut scanner = EnvelopeScanner::default();
            let data = std::mem::take(&mut self.data);
            scanner.feed(&data);
            self.skipped = Some((scanner, data.len()));
        }
        if self.has_data {
            // Data lines are joined with a line feed.
            self.skip_data(b"\n");
        }
        self.has_data = true;
    }

    #[inline(never)]
    fn skip_data(&mut self, bytes: &[u8]) {
        if let Some((scanner, count)) = self.skipped.as_mut() {
            scanner.feed(bytes);
            *count = count.saturating_add(bytes.len());
        }
    }

    fn end_line(&mut self, out: &mut Vec<SseEvent>) -> Result<(), SseError> {
        let mode = std::mem::replace(&mut self.line_mode, LineMode::Buffer);
        if mode != LineMode::Buffer {
            return Ok(());
        }
        // An event's first data line, when long, is copied once, from the
        // line's parts straight into the data (not into a whole line first).
        if self.line.len() >= MOVED_LINE && !self.has_data && self.skipped.is_none() {
            if let Some(start) = self.data_start(&[]).filter(|start| self.line.len() - start < self.limit) {
                self.data = self.line.take_from(start);
                self.has_data = true;
                return Ok(());
            }
        }
        let line = self.line.take();
        let processed = self.process_line(&line, out);
        self.line.give_back(line);
        processed
    }

    fn process_line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) -> Result<(), SseError> {
        let Some(&first) = line.first() else {
            self.dispatch(out);
            return Ok(());
        };
        if first == b':' {
            return Ok(());
        }
        let (field, value) = split_field(line);
        match field {
            b"data" => {
                if self.kept.is_some() {
                    self.keep_held(b"\n".to_vec())?;
                    return self.keep_held(value.to_vec());
                }
                if self.skipped.is_some() {
                    self.start_skipping();
                    self.skip_data(value);
                    return Ok(());
                }
                if self.data.len() + value.len() + 1 > self.limit {
                    if self.oversize == Oversize::Fail {
                        return Err(SseError::EventTooLarge { limit: self.limit });
                    }
                    self.start_skipping();
                    self.skip_data(value);
                    return Ok(());
                }
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => self.event = field_text(value),
            // Every event carries the last id: one of megabytes would be copied into each
            // of thousands of tiny events. A longer one makes the stream one that cannot be
            // resumed, as an empty one does.
            b"id" if value.len() > MAX_ID_BYTES => {
                self.last_id = None;
                self.id_in_event = true;
            }
            // A loop, not `contains`: see protocol::pick::has_backslash.
            b"id" if value.iter().all(|&b| b != 0) => {
                self.last_id = Some(field_text(value)).filter(|id| !id.is_empty());
                self.id_in_event = true;
            }
            // Digits only, or the field is ignored. A server's retry of
            // 3,000,000,000 ms must not become a timer that fires at once: it
            // is capped; nor one of 0 a reconnection loop without a pause.
            b"retry" => {
                if let Some(ms) = super::http::decimal(value) {
                    let ms = ms.clamp(u64::from(MIN_RETRY_MS), u64::from(MAX_RETRY_MS));
                    self.retry_ms = Some(u32::try_from(ms).unwrap_or(MAX_RETRY_MS));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        let event = std::mem::take(&mut self.event);
        let fresh_id = std::mem::take(&mut self.id_in_event);
        let skipped = self.skipped.take();
        // A block that names an id and has no data is no event, but the id moves on, as the
        // standard has it: it is handed over with empty data, which no caller delivers, so that
        // a resuming one sees it.
        if !self.has_data && !fresh_id {
            return;
        }
        self.has_data = false;
        let (data, kept) = match self.kept.take() {
            Some((eliding, bytes)) => {
                self.pieces.push(KeptPiece::Dispatched);
                let elided = eliding.finish();
                let kept = KeptEvent { elided: elided.elided, bytes, whole: elided.gave_up, structured: elided.structured };
                (elided.text, Some(kept))
            }
            None => (std::mem::take(&mut self.data), None),
        };
        out.push(SseEvent {
            event: if event.is_empty() { "message".to_owned() } else { event },
            data: decode(data),
            id: self.last_id.clone(),
            fresh_id,
            oversized: skipped.map(|(scanner, bytes)| Oversized { bytes, envelope: scanner.finish() }),
            kept,
        });
    }
}

/// Kept data whose text grows this long with nothing left out (a long list)
/// is no longer lexed: its text would grow by doubling, and the caller has it.
const KEPT_GIVE_UP: usize = 128 * 1024;

/// A line this long that is an event's first data line becomes the data.
const MOVED_LINE: usize = 4096;

/// Data as text, an invalid sequence as U+FFFD, as the standard decodes.
fn decode(data: Vec<u8>) -> String {
    wide::into_string(data).unwrap_or_else(|data| lossy(&data))
}

/// A field's value as text, as [`decode`] reads data.
fn field_text(value: &[u8]) -> String {
    wide::to_str(value).map_or_else(|| lossy(value), str::to_owned)
}

// Apart: servers send UTF-8, and the replacing decoder stays out of the module a page loads first.
#[cold]
#[inline(never)]
fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A line's field name and value (after the colon and one optional space).
fn split_field(line: &[u8]) -> (&[u8], &[u8]) {
    match line.iter().position(|&b| b == b':') {
        Some(colon) => {
            let (field, rest) = line.split_at(colon);
            let value = rest.get(1..).unwrap_or_default();
            (field, value.strip_prefix(b" ").unwrap_or(value))
        }
        None => (line, &[]),
    }
}

/// The value of a `data` line, or `None` for any other line.
fn data_value(line: &[u8]) -> Option<&[u8]> {
    match split_field(line) {
        (b"data", value) => Some(value),
        _ => None,
    }
}

/// Which reader follows an HTTP+SSE event stream. Plain data, outside the
/// `legacy-sse` transport, so that options read the same without that feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SseReader {
    /// The platform's `EventSource` (browsers; no custom headers).
    EventSource,
    /// `fetch` and this crate's SSE parser.
    Fetch,
}

#[cfg(test)]
mod tests;
