//! JSON text into a [`serde_json::Value`]: what `serde_json::from_str` accepts,
//! and the same value, from a reader of our own.
//!
//! serde_json's reader reports a value of the wrong type (a key that is not a
//! string, say) through serde's typed error text, which can print a float; that
//! one message brought core's float printing into the module, 10 KB gzip of the
//! core for a text nobody reads. This reader gives its own messages. Numbers are
//! still read by serde_json ([`Number::from_str`]), so every number comes out as
//! before, and a number out of `f64`'s range is refused as before.

use super::scan;
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// serde_json refuses the 128th level of nesting, and so does this reader:
/// a server's message cannot make it recurse deeper.
const MAX_DEPTH: u32 = 127;

/// How many values one message may hold, containers and what they hold
/// alike ([`parse_message`]). A message's few bytes per value (`0,` is two)
/// become tens of bytes each once read, in wasm memory that never shrinks:
/// 15 million zeros (30 MB) in one notification took Node to 1.9 GB. It
/// bounds notifications, the server's requests and error answers, and the
/// results the client reads into a tree for itself (a handshake, a listing):
/// a million is several times what any holds. A result its caller asked for
/// whole is read by [`parse`], without it.
pub const MAX_VALUES: usize = 1 << 20;
/// The reason of the [`JsonError`] for a text of more than [`MAX_VALUES`].
pub const TOO_MANY_VALUES: &str = "more than 1048576 values";

/// Why a text is not JSON, and the byte offset where that was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonError {
    /// What is wrong, e.g. "expected a value".
    pub reason: &'static str,
    /// The byte offset in the text.
    pub at: usize,
}

impl JsonError {
    /// "`reason` at byte `at`", as `Display` writes it, without core's formatting.
    #[cold]
    #[inline(never)]
    pub fn message(&self) -> String {
        let mut text = self.reason.to_owned();
        text.push_str(" at byte ");
        super::json_write::write_u64(&mut text, self.at as u64);
        text
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for JsonError {}

/// Reads one JSON value, with nothing after it but whitespace.
///
/// # Errors
/// [`JsonError`] where the text is not JSON, where it nests 128 levels deep,
/// where a number is out of `f64`'s range, or where an escape is a lone
/// surrogate: what `serde_json::from_str` refuses.
///
/// ```
/// use mcp_wasm::protocol::json::parse;
/// let value = parse(r#"{"a": [1, -0.5, "\u00e9\ud83d\ude00"], "b": null}"#).unwrap();
/// assert_eq!(value, serde_json::json!({"a": [1, -0.5, "é😀"], "b": null}));
/// assert!(parse("[1,]").is_err());
/// assert!(parse(r#"["\ud800"]"#).is_err());
/// ```
pub fn parse(text: &str) -> Result<Value, JsonError> {
    read(text)
}

/// [`parse`] for a message from the server, or a result the client reads for
/// itself: also refuses a text of more than [`MAX_VALUES`] values, with
/// [`TOO_MANY_VALUES`].
///
/// # Errors
/// As [`parse`]'s, and [`TOO_MANY_VALUES`].
pub fn parse_message(text: &str) -> Result<Value, JsonError> {
    read_message(text)
}

/// What [`read`] builds a JSON text into: a [`Value`], or the validator's own tree, which
/// borrows the text's strings (`schema::instance::Node`).
pub(crate) trait Tree<'a>: Sized {
    /// An object's members while they are read.
    type Members: Default;
    fn null() -> Self;
    fn bool(value: bool) -> Self;
    /// A number's text, by JSON's grammar; `None` past `f64`'s range.
    fn number(text: &'a str) -> Option<Self>;
    /// A string's contents, borrowed from the text when it has no escape.
    fn string(text: Cow<'a, str>) -> Self;
    fn array(items: Vec<Self>) -> Self;
    /// Adds a member; `Err` with the reason when the tree refuses it.
    ///
    /// # Errors
    /// What the tree does not accept.
    fn member(members: &mut Self::Members, key: Cow<'a, str>, value: Self) -> Result<(), &'static str>;
    fn object(members: Self::Members) -> Self;
}

impl<'a> Tree<'a> for Value {
    type Members = Map<String, Value>;
    fn null() -> Self {
        Value::Null
    }
    fn bool(value: bool) -> Self {
        Value::Bool(value)
    }
    fn number(text: &'a str) -> Option<Self> {
        match small_integer(text) {
            Some(n) => Some(Value::Number(n)),
            None => other_number(text),
        }
    }
    fn string(text: Cow<'a, str>) -> Self {
        Value::String(text.into_owned())
    }
    fn array(items: Vec<Self>) -> Self {
        Value::Array(items)
    }
    /// A key given twice keeps its first place and its last value, as serde_json's map does.
    fn member(members: &mut Self::Members, key: Cow<'a, str>, value: Self) -> Result<(), &'static str> {
        members.insert(key.into_owned(), value);
        Ok(())
    }
    fn object(members: Self::Members) -> Self {
        Value::Object(members)
    }
}

/// One JSON value of `text`, with nothing after it but whitespace, as a `T`.
///
/// # Errors
/// As [`parse`]'s, and what `T` refuses.
pub(crate) fn read<'a, T: Tree<'a>>(text: &'a str) -> Result<T, JsonError> {
    read_within(text, usize::MAX)
}

/// [`read`] into any tree, refusing more than [`MAX_VALUES`] values with [`TOO_MANY_VALUES`].
pub(crate) fn read_message<'a, T: Tree<'a>>(text: &'a str) -> Result<T, JsonError> {
    read_within(text, MAX_VALUES)
}

/// [`read`], refusing more than `values` values.
fn read_within<'a, T: Tree<'a>>(text: &'a str, values: usize) -> Result<T, JsonError> {
    let mut reader = Reader { text, bytes: text.as_bytes(), at: 0, values_left: values };
    reader.skip_space();
    let value = reader.value::<T>(0)?;
    reader.skip_space();
    match reader.peek() {
        None => Ok(value),
        Some(_) => Err(reader.error("trailing characters")),
    }
}

/// Moves member `key` out of an object that is read and then dropped,
/// leaving `null` in its place: `Map::remove` also keeps the rest in one
/// piece (indexmap's `swap_remove` and its bookkeeping), which such a map
/// never needs, and which the first call's module would carry for this alone.
pub fn take(map: &mut Map<String, Value>, key: &str) -> Option<Value> {
    map.get_mut(key).map(Value::take)
}

/// An object of one member: by `insert`, which the first call's module has,
/// rather than `Map::from_iter`, whose `extend` it would carry for this alone.
pub fn single(key: &str, value: Value) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert(key.to_owned(), value);
    map
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    /// Values still allowed.
    values_left: usize,
}

// The byte-level steps always inline: the validator reads large instances with them, and
// compiled for size they would each be a call per byte.
impl<'a> Reader<'a> {
    fn error(&self, reason: &'static str) -> JsonError {
        JsonError { reason, at: self.at }
    }

    /// Counts one more value against [`MAX_VALUES`].
    #[inline(always)]
    fn spend(&mut self) -> Result<(), JsonError> {
        self.values_left = self.values_left.checked_sub(1).ok_or_else(|| self.error(TOO_MANY_VALUES))?;
        Ok(())
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// The next byte, consumed; the end of the text is an error.
    #[inline(always)]
    fn next(&mut self) -> Result<u8, JsonError> {
        let byte = self.peek().ok_or_else(|| self.error("unexpected end of the text"))?;
        self.at += 1;
        Ok(byte)
    }

    #[inline(always)]
    fn skip_space(&mut self) {
        while self.peek().is_some_and(scan::is_space) {
            self.at += 1;
        }
    }

    /// A value at `depth` containers deep, at a byte that is not whitespace.
    fn value<T: Tree<'a>>(&mut self, depth: u32) -> Result<T, JsonError> {
        self.spend()?;
        match self.peek() {
            Some(b'{' | b'[') if depth >= MAX_DEPTH => Err(self.error("nested too deeply")),
            Some(b'{') => {
                self.at += 1;
                self.object(depth + 1)
            }
            Some(b'[') => {
                self.at += 1;
                self.array(depth + 1)
            }
            Some(b'"') => {
                self.at += 1;
                self.string().map(T::string)
            }
            Some(b't') => self.literal("true").map(|()| T::bool(true)),
            Some(b'f') => self.literal("false").map(|()| T::bool(false)),
            Some(b'n') => self.literal("null").map(|()| T::null()),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
            None => Err(self.error("unexpected end of the text")),
        }
    }

    fn literal(&mut self, word: &'static str) -> Result<(), JsonError> {
        let end = self.at + word.len();
        if self.bytes.get(self.at..end) != Some(word.as_bytes()) {
            return Err(self.error("expected a value"));
        }
        self.at = end;
        Ok(())
    }

    /// The items after `[`, and the `]`.
    fn array<T: Tree<'a>>(&mut self, depth: u32) -> Result<T, JsonError> {
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(T::array(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.skip_space();
            match self.next()? {
                b',' => self.skip_space(),
                b']' => return Ok(T::array(items)),
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    /// The members after `{`, and the `}`.
    fn object<T: Tree<'a>>(&mut self, depth: u32) -> Result<T, JsonError> {
        let mut members = T::Members::default();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(T::object(members));
        }
        loop {
            if self.next()? != b'"' {
                return Err(self.error("expected a key, which is a string"));
            }
            let key = self.string()?;
            self.skip_space();
            if self.next()? != b':' {
                return Err(self.error("expected `:`"));
            }
            self.skip_space();
            let value = self.value(depth)?;
            T::member(&mut members, key, value).map_err(|reason| self.error(reason))?;
            self.skip_space();
            match self.next()? {
                b',' => self.skip_space(),
                b'}' => return Ok(T::object(members)),
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    /// The text up to the next quote, backslash or control character. Those
    /// are ASCII, so the cut is always at a character boundary.
    fn run(&mut self) -> &'a str {
        let start = self.at;
        self.at = super::wide::plain_run_end(self.bytes, start);
        self.text.get(start..self.at).unwrap_or_default()
    }

    /// A string's contents after its opening quote, and the closing quote:
    /// borrowed from the text when it has no escape.
    fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        let plain = self.run();
        if self.peek() == Some(b'"') {
            self.at += 1;
            return Ok(Cow::Borrowed(plain));
        }
        let mut out = String::from(plain);
        loop {
            match self.next()? {
                b'"' => return Ok(Cow::Owned(out)),
                b'\\' => out.push(self.escape()?),
                _ => {
                    self.at -= 1;
                    return Err(self.error("a control character in a string"));
                }
            }
            let more = self.run();
            out.push_str(more);
        }
    }

    /// The character an escape stands for, after its backslash.
    fn escape(&mut self) -> Result<char, JsonError> {
        let simple = match self.next()? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => return Err(self.error("an invalid escape")),
        };
        Ok(simple)
    }

    /// `\uXXXX`, after its `u`, by the scan's rule: a surrogate pair must
    /// come whole.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let (code, end) = scan::unicode_escape(self.bytes, self.at).ok_or_else(|| self.error("an invalid \\u escape"))?;
        self.at = end;
        // Never `None`: the scan's rule leaves no lone surrogate.
        char::from_u32(code).ok_or_else(|| self.error("an invalid \\u escape"))
    }

    #[inline(always)]
    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    /// A number, its grammar checked here and its value read by serde_json.
    fn number<T: Tree<'a>>(&mut self) -> Result<T, JsonError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("an invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.error("an invalid number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("an invalid number"));
            }
        }
        let text = self.text.get(start..self.at).unwrap_or_default();
        T::number(text).ok_or(JsonError { reason: "a number out of range", at: start })
    }
}

/// An integer of at most 18 digits (ids, counts, sizes), read here as serde_json
/// reads it: a `u64` when positive, an `i64` when negative, except `-0`, which
/// serde_json reads as the float `-0.0`.
pub(crate) fn small_integer(text: &str) -> Option<Number> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, text),
    };
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.bytes().fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
    match (negative, magnitude) {
        (false, n) => Some(Number::from(n)),
        (true, 0) => None,
        (true, n) => Some(Number::from(-(n as i64))),
    }
}

// Apart, so that a page whose first messages hold only small integers never loads
// serde_json's number reader (fractions, exponents, long integers).
#[inline(never)]
fn other_number(text: &str) -> Option<Value> {
    Number::from_str(text).map(Value::Number).ok()
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
