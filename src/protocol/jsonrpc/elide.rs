//! A large response's text with what its checks do not read left out, read in
//! chunks as the body lies in JS: the client's checks read every member of a
//! result but only the type of a content's `text`, `blob` or `data`, so a
//! 5 MiB resource need not enter wasm for them. What is left out becomes an
//! empty string; the JS side parses the whole body once for the caller.
//!
//! Of a list page's items (`tools`, `resources`, `resourceTemplates`,
//! `prompts`) the checks read the key (`name`, `uri`, `uriTemplate`), a
//! tool's `outputSchema`, `annotations` and `execution` (its `taskSupport`),
//! and only that its `inputSchema`
//! is an object: every other member's string, object or array value is
//! emptied (`""`, `{}`, `[]`), however short, so that a 2 MiB `tools/list`
//! need not enter wasm either.
//!
//! A tool result's `structuredContent` is emptied the same way: its shape
//! check reads only that it is there, and its `outputSchema` is checked on
//! the value JS parsed (or, where only the validator can tell, on the whole
//! message read in).
//!
//! The pass is a lexer, not a validator. On JSON it splits the text exactly
//! as a parser does, so the text it writes is the message with those strings
//! emptied. On anything else the strict decode of what it writes, or the
//! caller's `JSON.parse` of the whole body, refuses it.
//!
//! Memory is the text it writes; time is one pass, a string's plain run
//! and a left-out container's blocks without a backslash
//! [`wide::WIDTH`](crate::protocol::wide) bytes at a time.

use crate::protocol::wide;

/// A content string at least this long is left out.
pub const ELIDE_MIN_BYTES: usize = 1024;
/// A body shorter than this is not worth keeping outside wasm: it is read in
/// as it is, without this pass. At 256 KiB the 652 KiB structured result of
/// `bench/` is kept, and is faster so (bench/analysis.md, sixteenth round).
pub const KEEP_MIN_BYTES: usize = 256 * 1024;

/// How many levels of nesting the paths below need.
const TRACKED_DEPTH: usize = 5;

/// The keys the paths are made of; any other is [`Key::Other`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Key {
    #[default]
    Other,
    Result,
    Contents,
    Content,
    Resource,
    Text,
    Blob,
    Data,
    /// An array of list items: `tools`, `resources`, `resourceTemplates`, `prompts`.
    Items,
    /// A member of a list item that its checks read whole.
    Read,
    /// A tool result's `structuredContent`.
    Structured,
}

impl Key {
    fn of(name: &[u8]) -> Self {
        match name {
            b"result" => Self::Result,
            b"contents" => Self::Contents,
            b"content" => Self::Content,
            b"resource" => Self::Resource,
            b"text" => Self::Text,
            b"blob" => Self::Blob,
            b"data" => Self::Data,
            b"tools" | b"resources" | b"resourceTemplates" | b"prompts" => Self::Items,
            b"name" | b"uri" | b"uriTemplate" | b"outputSchema" | b"annotations" | b"execution" => Self::Read,
            b"structuredContent" => Self::Structured,
            _ => Self::Other,
        }
    }
}

/// An open object or array, and in an object the key of the member being read.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    object: bool,
    key: Key,
}

/// The longest key compared (`resourceTemplates`); longer ones are [`Key::Other`].
const KEY_BYTES: usize = 17;

/// The lexer. Feed it the body in any chunks, then take [`Eliding::finish`].
#[derive(Debug)]
pub struct Eliding {
    out: Vec<u8>,
    /// Open objects and arrays.
    depth: usize,
    /// The first [`TRACKED_DEPTH`] of them, outermost first.
    frames: [Frame; TRACKED_DEPTH],
    /// In an object, the next string is a key.
    expect_key: bool,
    in_string: bool,
    escaped: bool,
    /// The current string is a key of a tracked object.
    is_key: bool,
    key: [u8; KEY_BYTES],
    /// The key's length so far; past [`KEY_BYTES`] it is no key looked for.
    key_len: usize,
    /// The current string lies where a content's payload does: it is left
    /// out from this many bytes on.
    elidable: Option<usize>,
    /// The nesting of a container value being left out (0: none).
    muted: usize,
    /// The value being left out is `result.structuredContent`: `elided`
    /// when it began.
    muting_structured: Option<usize>,
    /// How long `result.structuredContent` was, in bytes, once left out.
    structured: Option<usize>,
    /// Where the current string's opening quote was written.
    string_start: usize,
    string_len: usize,
    /// The current string is being left out.
    skipping: bool,
    elided: usize,
    /// Whether the body's length was given.
    known_length: bool,
    /// Bytes of the body not fed yet, when its length is known.
    remaining: usize,
    /// Bytes of the body from the one being read on.
    ahead: usize,
    /// Past this much output with nothing left out, the lexer stops (0: never).
    give_up_at: usize,
    gave_up: bool,
}

/// What [`Eliding`] wrote.
#[derive(Debug, PartialEq, Eq)]
pub struct Elided {
    /// The body with what its checks do not read emptied.
    pub text: Vec<u8>,
    /// How many bytes were left out.
    pub elided: usize,
    /// The lexer stopped ([`Eliding::give_up_at`]): `text` is empty, and the
    /// body must be read whole.
    pub gave_up: bool,
    /// The length in bytes of the `result.structuredContent` that `text`
    /// lacks (the last one, if given twice), for what checks it in its place.
    pub structured: Option<usize>,
}

impl Default for Eliding {
    fn default() -> Self {
        Self::for_body(0)
    }
}

/// The output's first room, for a body of known length.
const FIRST_ROOM: usize = 64 * 1024;

impl Eliding {
    /// A lexer for a body of `length` bytes (0: unknown). Its output grows
    /// at most once, straight to what the rest of the body could need: a
    /// body with nothing left out costs one copy and no more room than it
    /// takes, and one that loses a long string early never reserves it.
    pub fn for_body(length: usize) -> Self {
        Self {
            out: Vec::with_capacity(length.min(FIRST_ROOM)),
            depth: 0,
            frames: [Frame::default(); TRACKED_DEPTH],
            expect_key: false,
            in_string: false,
            escaped: false,
            is_key: false,
            key: [0; KEY_BYTES],
            key_len: 0,
            elidable: None,
            muted: 0,
            muting_structured: None,
            structured: None,
            string_start: 0,
            string_len: 0,
            skipping: false,
            elided: 0,
            known_length: length > 0,
            remaining: length,
            ahead: 0,
            give_up_at: 0,
            gave_up: false,
        }
    }

    /// Stops once the output reaches `bytes` with nothing left out: for a
    /// body of unknown length, whose output would grow by doubling, and which
    /// can then be read whole from where it lies.
    #[must_use]
    pub fn give_up_at(mut self, bytes: usize) -> Self {
        self.give_up_at = bytes;
        self
    }

    /// Reads the next bytes of the body.
    pub fn feed(&mut self, chunk: &[u8]) {
        if self.gave_up {
            return;
        }
        let after = self.remaining.saturating_sub(chunk.len());
        self.remaining = after;
        let mut at = 0;
        while let Some(&byte) = chunk.get(at) {
            if self.gave_up {
                return;
            }
            self.ahead = after + (chunk.len() - at);
            if self.muted > 0 && !self.escaped {
                let end = self.skip_blocks(chunk, at);
                if end > at {
                    at = end;
                    continue;
                }
            }
            if !self.in_string {
                self.structural(byte);
                at += 1;
                continue;
            }
            if self.escaped {
                self.escaped = false;
                self.take(&[byte]);
                at += 1;
                continue;
            }
            if self.skipping && !self.is_key {
                let end = self.skip_string(chunk, at);
                if end > at {
                    at = end;
                    continue;
                }
            }
            let end = wide::plain_run_end(chunk, at);
            if end > at {
                self.take(chunk.get(at..end).unwrap_or_default());
                at = end;
                continue;
            }
            match byte {
                b'"' => self.end_string(),
                b'\\' => {
                    self.escaped = true;
                    self.take(&[byte]);
                }
                // A control character: JSON refuses it, and whoever parses the text says so.
                _ => self.take(&[byte]),
            }
            at += 1;
        }
    }

    /// Makes room to write `n` more bytes: for a body of known length, room
    /// for all of it that is still ahead, so that the output grows once; once
    /// something has been left out, room for the share of it the output has
    /// kept so far.
    /// `false` once the lexer gives up ([`Eliding::give_up_at`]): nothing
    /// more is written.
    fn room(&mut self, n: usize) -> bool {
        if self.gave_up {
            return false;
        }
        if self.give_up_at > 0 && self.elided == 0 && self.out.len() + n > self.give_up_at {
            self.gave_up = true;
            self.out = Vec::new();
            return false;
        }
        if self.out.capacity() - self.out.len() < n {
            match (self.known_length, self.elided) {
                (true, 0) => self.out.reserve_exact(self.ahead.max(n)),
                // A list page loses a little of every item: what is ahead will
                // lose as much, and a quarter more room covers the odd long item.
                (true, elided) => {
                    let written = self.out.len();
                    let share = self.ahead as u128 * written as u128 / (written as u128 + elided as u128);
                    let estimate = usize::try_from(share).unwrap_or(usize::MAX);
                    // At least as much again as it has: a long value left out
                    // early makes the share small, and growth must stay geometric.
                    let room = estimate.saturating_add(estimate / 4).max(self.out.capacity());
                    self.out.reserve_exact(n.max(room));
                }
                // Of unknown length (an event's data): by half again rather than by
                // doubling, as wasm memory keeps the high-water mark of each growth, the
                // old room and the new alive together.
                (false, _) => self.out.reserve_exact(n.max(self.out.capacity() / 2)),
            }
        }
        true
    }

    /// Whether the lexer gave up ([`Eliding::give_up_at`]); feeding it more does nothing.
    pub fn gave_up(&self) -> bool {
        self.gave_up
    }

    /// What was written; room it no longer needs is given back.
    pub fn finish(mut self) -> Elided {
        if self.elided > 0 {
            self.out.shrink_to_fit();
        }
        Elided { text: self.out, elided: self.elided, gave_up: self.gave_up, structured: self.structured }
    }

    fn frame(&self) -> Option<&Frame> {
        self.frames.get(self.depth.checked_sub(1)?)
    }

    fn frame_mut(&mut self) -> Option<&mut Frame> {
        self.frames.get_mut(self.depth.checked_sub(1)?)
    }

    fn structural(&mut self, byte: u8) {
        if self.muted > 0 {
            return self.muted_structural(byte);
        }
        if !self.room(1) {
            return;
        }
        self.out.push(byte);
        match byte {
            b'"' => self.start_string(),
            b'{' | b'[' if self.at_unread() => {
                // Its strings are left out too, whatever their length.
                self.muted = 1;
                self.start_structured();
                self.is_key = false;
                self.elidable = None;
                self.skipping = true;
            }
            b'{' | b'[' => {
                self.depth = self.depth.saturating_add(1);
                if let Some(frame) = self.frame_mut() {
                    *frame = Frame { object: byte == b'{', key: Key::Other };
                }
                self.expect_key = byte == b'{';
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                self.expect_key = false;
            }
            b':' => self.expect_key = false,
            b',' => self.expect_key = self.frame().is_some_and(|f| f.object),
            _ => {}
        }
    }

    /// Moves past the blocks of a left-out container from `at`, a block at a
    /// step, by its brackets and quotes alone, while a block holds no
    /// backslash and cannot close the container: the running parity of its
    /// quotes tells which of its brackets lie inside strings. Returns where
    /// it stopped. The state lives in locals for the run: read and written
    /// back on every block, it was most of the run's time.
    fn skip_blocks(&mut self, chunk: &[u8], from: usize) -> usize {
        let (mut at, mut muted, mut in_string) = (from, self.muted, self.in_string);
        while let Some(block) = wide::structure(chunk, at) {
            if block.backslashes != 0 {
                break;
            }
            let inside = wide::inside_strings(block.quotes, in_string);
            let (opens, closes) = ((block.opens & !inside).count_ones() as usize, (block.closes & !inside).count_ones() as usize);
            if closes >= muted {
                break;
            }
            muted = muted.saturating_add(opens) - closes;
            in_string ^= block.quotes.count_ones() % 2 == 1;
            at += wide::WIDTH;
        }
        self.muted = muted;
        self.in_string = in_string;
        self.elided = self.elided.saturating_add(at - from);
        at
    }

    /// Moves through a string that is being left out, from `from` to its
    /// closing quote (which it leaves to `feed`) or the chunk's end, and
    /// returns where it stopped. An escape is stepped over as a pair: a long
    /// text escapes every line feed, and a trip round `feed`'s loop for each
    /// escape was most of a 5 MiB read's lexing (bench/analysis.md,
    /// "Twenty-eighth round"). What is left out is counted as `take` counts it.
    fn skip_string(&mut self, chunk: &[u8], from: usize) -> usize {
        let mut at = from;
        loop {
            at = wide::plain_run_end(chunk, at);
            match chunk.get(at) {
                Some(b'"') | None => break,
                Some(b'\\') if at + 1 < chunk.len() => at += 2,
                Some(b'\\') => {
                    at += 1;
                    self.escaped = true;
                    break;
                }
                // A control character: JSON refuses it, and whoever parses the text says so.
                Some(_) => at += 1,
            }
        }
        let skipped = at - from;
        self.string_len = self.string_len.saturating_add(skipped);
        self.elided = self.elided.saturating_add(skipped);
        at
    }

    /// A byte inside a container value being left out: only its nesting
    /// and its strings are followed, until it closes.
    fn muted_structural(&mut self, byte: u8) {
        match byte {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.muted = self.muted.saturating_add(1),
            b'}' | b']' => self.muted = self.muted.saturating_sub(1),
            _ => {}
        }
        if self.muted > 0 {
            self.elided = self.elided.saturating_add(1);
        } else if self.room(1) {
            // The container's own close, after its open: `{}` or `[]`.
            self.out.push(byte);
            self.expect_key = false;
            self.end_structured();
        }
    }

    fn start_string(&mut self) {
        self.in_string = true;
        self.string_start = self.out.len().saturating_sub(1);
        self.string_len = 0;
        self.skipping = false;
        self.is_key = self.expect_key && self.frame().is_some_and(|f| f.object);
        self.key_len = 0;
        let unread = !self.is_key && self.at_unread();
        self.elidable = if self.is_key {
            None
        } else if unread {
            Some(1)
        } else {
            self.at_payload().then_some(ELIDE_MIN_BYTES)
        };
        if unread {
            self.start_structured();
        }
    }

    /// A value begins that is left out whole: if it is `structuredContent`,
    /// what is left out of it is counted from here.
    fn start_structured(&mut self) {
        let structured = matches!(self.frames.get(..self.depth), Some([_, result]) if result.key == Key::Structured);
        self.muting_structured = structured.then_some(self.elided);
    }

    /// A value left out whole has ended, its closing byte written: its length
    /// is what was left out of it and the two bytes that stand for it.
    fn end_structured(&mut self) {
        if let Some(from) = self.muting_structured.take() {
            self.structured = Some(self.elided.saturating_sub(from).saturating_add(2));
        }
    }

    fn end_string(&mut self) {
        self.in_string = false;
        if self.muted > 0 {
            self.elided = self.elided.saturating_add(1);
            return;
        }
        if !self.room(1) {
            return;
        }
        self.out.push(b'"');
        self.end_structured();
        if self.is_key {
            let name = if self.key_len <= KEY_BYTES { self.key.get(..self.key_len).unwrap_or_default() } else { &[] };
            let key = Key::of(name);
            if let Some(frame) = self.frame_mut() {
                frame.key = key;
            }
        }
    }

    /// Takes bytes of the current string.
    fn take(&mut self, bytes: &[u8]) {
        self.string_len = self.string_len.saturating_add(bytes.len());
        if self.is_key {
            for &byte in bytes {
                if let Some(slot) = self.key.get_mut(self.key_len) {
                    *slot = byte;
                }
                self.key_len = self.key_len.saturating_add(1);
            }
        }
        if self.skipping {
            self.elided = self.elided.saturating_add(bytes.len());
            return;
        }
        if !self.room(bytes.len()) {
            return;
        }
        self.out.extend_from_slice(bytes);
        if self.elidable.is_some_and(|from| self.string_len >= from) {
            // Everything after the opening quote goes.
            let kept = self.string_start + 1;
            self.elided = self.elided.saturating_add(self.out.len().saturating_sub(kept));
            self.out.truncate(kept);
            self.skipping = true;
        }
    }

    /// Whether a string value here is a content's payload: `result.contents[i].text`
    /// or `.blob` (a resource read), `result.content[i].text` or `.data` (a tool's
    /// result), or `result.content[i].resource.text` or `.blob` (a resource it embeds).
    fn at_payload(&self) -> bool {
        let Some(frames) = self.frames.get(..self.depth) else { return false };
        let keys = |f: &Frame| (f.object, f.key);
        match frames {
            [root, result, list, item] => {
                keys(root) == (true, Key::Result)
                    && !list.object
                    && item.object
                    && matches!(
                        (result.object, result.key, item.key),
                        (true, Key::Contents, Key::Text | Key::Blob) | (true, Key::Content, Key::Text | Key::Data)
                    )
            }
            [root, result, list, item, resource] => {
                keys(root) == (true, Key::Result)
                    && keys(result) == (true, Key::Content)
                    && !list.object
                    && keys(item) == (true, Key::Resource)
                    && resource.object
                    && matches!(resource.key, Key::Text | Key::Blob)
            }
            _ => false,
        }
    }

    /// Whether a value here is one the checks do not read: a list item's
    /// member but `result.tools[i].name` and the like, or
    /// `result.structuredContent` (see the module docs).
    fn at_unread(&self) -> bool {
        match self.frames.get(..self.depth) {
            Some([root, result]) => (root.object, root.key, result.object, result.key) == (true, Key::Result, true, Key::Structured),
            Some([root, result, list, item]) => {
                (root.object, root.key) == (true, Key::Result)
                    && (result.object, result.key) == (true, Key::Items)
                    && !list.object
                    && item.object
                    && !matches!(item.key, Key::Read)
            }
            _ => false,
        }
    }
}

/// [`Eliding`] over `chunks` at once.
pub fn elide<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> Elided {
    let mut eliding = Eliding::default();
    for chunk in chunks {
        eliding.feed(chunk);
    }
    eliding.finish()
}

#[cfg(test)]
#[path = "elide_tests.rs"]
mod tests;
