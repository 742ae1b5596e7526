//! One pass over a JSON text that accepts only JSON that serde_json (and so
//! `jsonrpc::decode`) reads into a tree unchanged: the grammar as strictly as
//! serde_json reads it, numbers well inside `f64`'s range, escapes that are
//! not lone surrogates, nesting well under serde_json's limit. It builds
//! nothing, and it reports where the values of the first three levels lie,
//! so that a large response's envelope, or the members a check reads, come
//! from the same pass.
//!
//! It may refuse more than serde_json does (a number of hundreds of digits,
//! nesting past 100); a caller then takes the parsing way, which gives the
//! exact verdict. It never accepts what serde_json refuses ([`scan_accepted`],
//! for a text already checked, does not check again what it steps over).
//! Whether the JSON is a JSON-RPC message is the caller's question.

use super::wide;

/// Nesting deeper than this is refused here; serde_json refuses 128 levels.
const MAX_DEPTH: u32 = 100;
/// Numbers with more digits than this are refused here.
const MAX_DIGITS: usize = 300;
/// Numbers that may reach 10 to this power are refused here: `f64` ends
/// near 1.8e308, and serde_json refuses an infinite number.
const MAX_MAGNITUDE: usize = 308;

/// Whether `text` is JSON that serde_json reads without refusing or
/// converting anything away (see the module's docs).
///
/// ```
/// use mcp_wasm::protocol::scan::plain;
/// assert!(plain(r#"{"text": "caf\u00e9 \ud83d\ude00", "n": [1.5e-7, 2E+10]}"#));
/// assert!(!plain(r#"{"a": 1,}"#)); // not JSON
/// assert!(!plain(r#"["\ud800"]"#)); // a lone surrogate, which serde_json refuses
/// assert!(!plain("[1e400]")); // out of f64's range
/// ```
pub fn plain(text: &str) -> bool {
    scan(text, |_, _| true)
}

/// How deep [`scan`] reports values: the members of the top-level object,
/// the items of an array among them, and those items' members.
pub const REPORTED_DEPTH: usize = 3;

/// [`plain`], calling `found(path, value)` for each value nested at most
/// [`REPORTED_DEPTH`] levels deep, once it has ended (an object's members
/// before the object itself): `path` says where it lies, a key for each
/// object on the way (the text between its quotes, escapes left as written)
/// and `None` for each array; `value` is its JSON text. The scan stops,
/// refusing the text, as soon as `found` answers `false`.
///
/// ```
/// use mcp_wasm::protocol::scan::scan;
/// let text = r#"{"tools": [{"name": "echo"}, {"name": "add"}], "nextCursor": null}"#;
/// let mut names = Vec::new();
/// let accepted = scan(text, |path, value| {
///     if path == [Some("tools"), None, Some("name")] {
///         names.push(value);
///     }
///     true
/// });
/// assert!(accepted);
/// assert_eq!(names, [r#""echo""#, r#""add""#]);
/// ```
pub fn scan<'a>(text: &'a str, mut found: impl FnMut(&[Option<&'a str>], &'a str) -> bool) -> bool {
    walk(text, None, &mut found)
}

/// [`scan`] for a text that [`scan`] (or serde_json) has accepted already,
/// such as a large result cut from the response it checked: what lies
/// deeper than the reported levels is stepped over by its brackets and
/// strings, without its grammar checked again. Given a text that is not
/// JSON, it stays within the text and may report anything.
///
/// ```
/// use mcp_wasm::protocol::scan::scan_accepted;
/// let mut schemas = Vec::new();
/// let read = scan_accepted(r#"{"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {"x": {}}}}]}"#, |path, value| {
///     if let [Some("tools"), None, Some("inputSchema")] = path {
///         schemas.push(value);
///     }
///     true
/// });
/// assert!(read);
/// assert_eq!(schemas, [r#"{"type": "object", "properties": {"x": {}}}"#]);
/// ```
pub fn scan_accepted<'a>(text: &'a str, mut found: impl FnMut(&[Option<&'a str>], &'a str) -> bool) -> bool {
    walk(text, Some(&|_: &[Option<&str>]| true), &mut found)
}

/// [`scan_accepted`] that enters a container above [`REPORTED_DEPTH`] only
/// where `enter(path)` says so: the others are stepped over by their
/// brackets and strings, as the deeper levels are, and reported whole. A
/// check that reads `content`'s blocks steps over a large
/// `structuredContent` this way instead of walking its first levels.
///
/// ```
/// use mcp_wasm::protocol::scan::scan_accepted_entering;
/// let text = r#"{"content": [{"type": "text"}], "structuredContent": {"items": [1, 2, 3]}}"#;
/// let mut seen = Vec::new();
/// let enter = |path: &[Option<&str>]| matches!(path, [] | [Some("content")] | [Some("content"), None]);
/// assert!(scan_accepted_entering(text, &enter, |path, value| {
///     seen.push((path.len(), value));
///     true
/// }));
/// assert!(seen.contains(&(3, r#""text""#)));
/// assert!(seen.contains(&(1, r#"{"items": [1, 2, 3]}"#)));
/// assert!(!seen.iter().any(|&(_, value)| value == "[1, 2, 3]"), "not entered");
/// ```
pub fn scan_accepted_entering<'a>(text: &'a str, enter: Enter<'_>, mut found: impl FnMut(&[Option<&'a str>], &'a str) -> bool) -> bool {
    walk(text, Some(enter), &mut found)
}

/// Which containers above [`REPORTED_DEPTH`] a pass enters, by their path.
pub type Enter<'e> = &'e dyn Fn(&[Option<&str>]) -> bool;

/// One pass over `text`. `accepted` is `None` for a text not checked yet
/// (every byte is), else which containers to enter. `found` is a trait object
/// so that the four callers share one copy of the walk (3.2 KB of code each).
fn walk<'a>(text: &'a str, accepted: Option<Enter<'_>>, found: &mut dyn FnMut(&[Option<&'a str>], &'a str) -> bool) -> bool {
    let mut scanner = Scanner { bytes: text.as_bytes(), at: 0, objects: 0, depth: 0 };
    // Where each reported level's current value lies: `path[d - 1]` and
    // `starts[d - 1]` for a value nested `d` levels deep.
    let mut path: [Option<&'a str>; REPORTED_DEPTH] = [None; REPORTED_DEPTH];
    let mut starts = [0; REPORTED_DEPTH];
    let level = |scanner: &Scanner<'_>| (scanner.depth as usize).checked_sub(1);
    scanner.skip_space();
    loop {
        // A value begins here.
        if let Some(start) = level(&scanner).and_then(|l| starts.get_mut(l)) {
            *start = scanner.at;
        }
        let Some(opened) = scanner.value() else { return false };
        let depth = scanner.depth as usize;
        let skipped = |enter: Enter<'_>| depth >= REPORTED_DEPTH || !path.get(..depth).is_some_and(enter);
        if opened && accepted.is_some_and(skipped) {
            // Nothing inside is reported, and the text was checked before.
            if scanner.step_over().is_none() {
                return false;
            }
        } else if opened {
            let Some(opened) = scanner.open() else { return false };
            let slot = level(&scanner).and_then(|l| path.get_mut(l));
            match opened {
                Opened::Empty => {}
                Opened::Member((start, end)) => {
                    if let Some(slot) = slot {
                        *slot = text.get(start..end);
                    }
                    continue;
                }
                Opened::Item => {
                    if let Some(slot) = slot {
                        *slot = None;
                    }
                    continue;
                }
            }
        }
        // A value ended here: report it, then go on to the next one,
        // closing what ends.
        loop {
            if let Some(l) = level(&scanner) {
                if let (Some(at), Some(&start)) = (path.get(..=l), starts.get(l)) {
                    if !text.get(start..scanner.at).is_some_and(|value| found(at, value)) {
                        return false;
                    }
                }
            }
            scanner.skip_space();
            if scanner.depth == 0 {
                return scanner.at == scanner.bytes.len();
            }
            match (scanner.next(), scanner.in_object()) {
                (Some(b','), true) => {
                    scanner.skip_space();
                    let Some((start, end)) = scanner.key() else { return false };
                    if let Some(slot) = level(&scanner).and_then(|l| path.get_mut(l)) {
                        *slot = text.get(start..end);
                    }
                    break;
                }
                (Some(b','), false) => {
                    scanner.skip_space();
                    break;
                }
                (Some(b'}'), true) | (Some(b']'), false) => scanner.close(),
                _ => return false,
            }
        }
    }
}

/// What follows an opening bracket.
enum Opened {
    /// It closed at once.
    Empty,
    /// An object's first key (its span), then the value.
    Member((usize, usize)),
    /// An array's first item.
    Item,
}

// The hot helpers are `#[inline(always)]`: at opt-level "z" even `peek`
// stays a call, which made a number-dense result's scan twice as slow.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    /// One bit per open container, the innermost lowest: 1 for an object.
    objects: u128,
    depth: u32,
}

impl Scanner<'_> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    #[inline(always)]
    fn in_object(&self) -> bool {
        self.objects & 1 == 1
    }

    /// Most values follow their comma or colon at once: only a space
    /// found costs a call.
    #[inline(always)]
    fn skip_space(&mut self) {
        if self.peek().is_some_and(is_space) {
            self.skip_spaces();
        }
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(is_space) {
            self.at += 1;
        }
    }

    /// Reads a scalar, or the bracket that opens a container (`Some(true)`).
    fn value(&mut self) -> Option<bool> {
        match self.peek()? {
            b'{' | b'[' => return Some(true),
            b'"' => self.string()?,
            b't' => self.literal(b"true")?,
            b'f' => self.literal(b"false")?,
            b'n' => self.literal(b"null")?,
            b'-' | b'0'..=b'9' => self.number()?,
            _ => return None,
        }
        Some(false)
    }

    /// Enters the container whose bracket is next.
    fn open(&mut self) -> Option<Opened> {
        let object = self.next()? == b'{';
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        self.objects = (self.objects << 1) | u128::from(object);
        self.skip_space();
        match (self.peek()?, object) {
            (b'}', true) | (b']', false) => {
                self.at += 1;
                self.close();
                Some(Opened::Empty)
            }
            (_, true) => self.key().map(Opened::Member),
            (_, false) => Some(Opened::Item),
        }
    }

    /// Moves past the container whose bracket is next, by its brackets and
    /// its strings' quotes and backslashes alone. A block at a time while a
    /// block holds no backslash and cannot close the container: the running
    /// parity of its quotes tells which of its brackets lie inside strings.
    /// Else, and near the end of the text, a byte at a time.
    fn step_over(&mut self) -> Option<()> {
        let mut open = 0u32;
        let mut in_string = false;
        loop {
            if let Some(block) = wide::structure(self.bytes, self.at).filter(|block| block.backslashes == 0) {
                let inside = wide::inside_strings(block.quotes, in_string);
                let opens = block.opens & !inside;
                let closes = block.closes & !inside;
                if closes.count_ones() < open {
                    open = open.checked_add(opens.count_ones())? - closes.count_ones();
                    in_string ^= block.quotes.count_ones() % 2 == 1;
                    self.at += wide::WIDTH;
                    continue;
                }
            }
            match (self.next()?, in_string) {
                (b'\\', true) => self.at += 1,
                (b'"', _) => in_string = !in_string,
                (b'{' | b'[', false) => open += 1,
                (b'}' | b']', false) => {
                    open = open.checked_sub(1)?;
                    if open == 0 {
                        return Some(());
                    }
                }
                _ => {}
            }
        }
    }

    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.objects >>= 1;
    }

    /// A key, its colon and the space after it; the span inside the quotes.
    fn key(&mut self) -> Option<(usize, usize)> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.at + 1;
        self.string()?;
        let end = self.at - 1;
        self.skip_space();
        (self.next()? == b':').then_some(())?;
        self.skip_space();
        Some((start, end))
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        (self.bytes.get(self.at..self.at + word.len())? == word).then_some(())?;
        self.at += word.len();
        Some(())
    }

    /// A string, from its opening quote to past its closing one.
    fn string(&mut self) -> Option<()> {
        self.at += 1;
        loop {
            // A block at a time to the first byte that ends the string,
            // escapes or is a control character (one byte at a time, strings
            // were most of a 5 MiB result's time).
            self.at = wide::plain_run_end(self.bytes, self.at);
            match self.next()? {
                b'"' => return Some(()),
                b'\\' => self.escape()?,
                0..=0x1f => return None,
                _ => {}
            }
        }
    }

    /// The rest of an escape, after its backslash. A `\u` escape of half a
    /// surrogate pair must be the high half, followed at once by the low.
    fn escape(&mut self) -> Option<()> {
        match self.next()? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(()),
            b'u' => {
                let (_, end) = unicode_escape(self.bytes, self.at)?;
                self.at = end;
                Some(())
            }
            _ => None,
        }
    }

    /// A number by JSON's grammar, whose digits and exponent keep it well
    /// inside `f64`'s range.
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let digits = match self.next()? {
            b'0' => 1,
            b'1'..=b'9' => 1 + self.digits(),
            _ => return None,
        };
        let fraction = if self.peek() == Some(b'.') {
            self.at += 1;
            match self.digits() {
                0 => return None,
                n => n,
            }
        } else {
            0
        };
        if digits + fraction > MAX_DIGITS {
            return None;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            let negative = self.peek() == Some(b'-');
            if matches!(self.peek(), Some(b'-' | b'+')) {
                self.at += 1;
            }
            let start = self.at;
            let length = self.digits();
            // Three digits at most: a longer exponent is rare enough to leave
            // to the parser, whatever its sign.
            if !(1..=3).contains(&length) {
                return None;
            }
            let exponent = self.bytes.get(start..self.at)?.iter().fold(0, |value, d| value * 10 + usize::from(d - b'0'));
            if !negative && digits + exponent > MAX_MAGNITUDE {
                return None;
            }
        }
        Some(())
    }

    #[inline(always)]
    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        self.at - start
    }
}

/// The code point of the `\\uXXXX` escape whose hex digits start at `at`, and
/// where the escape ends. Half a surrogate pair must be the high half,
/// followed at once by `\\u` and the low half; `None` for anything else.
#[inline(always)]
pub(crate) fn unicode_escape(bytes: &[u8], at: usize) -> Option<(u32, usize)> {
    match hex4(bytes, at)? {
        high @ 0xd800..=0xdbff => {
            (bytes.get(at + 4..at + 6)? == b"\\u").then_some(())?;
            match hex4(bytes, at + 6)? {
                low @ 0xdc00..=0xdfff => Some((0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00), at + 10)),
                _ => None,
            }
        }
        0xdc00..=0xdfff => None,
        code => Some((code, at + 4)),
    }
}

/// The four hex digits at `at`, as a number.
fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at + 4)?.iter().try_fold(0, |value, &digit| Some(value * 16 + char::from(digit).to_digit(16)?))
}

/// Whether `byte` is JSON whitespace.
#[inline(always)]
pub fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
