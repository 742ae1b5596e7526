//! A message that arrives as a JS string (an `EventSource` event, a custom
//! transport's `onmessage`), read into the module only when it is within
//! `maxMessageBytes`: a larger one is scanned where it lies for what its
//! envelope says (which request it answers or is), so the module never holds
//! the whole text.

use crate::protocol::jsonrpc::envelope::{Envelope, EnvelopeScanner};
use js_sys::JsString;

/// `text` as a `String` if it is at most `limit` UTF-8 bytes; else what it
/// says about itself and its length in bytes.
///
/// # Errors
/// The oversized message's envelope and size.
pub fn text_within(text: &JsString, limit: usize) -> Result<String, (Envelope, usize)> {
    // The limit is in UTF-8 bytes and `length` counts UTF-16 units, of which
    // each makes one to three bytes: more units than the limit is too much for
    // sure, and a third of the limit fits whatever the units are.
    let length = text.length() as usize;
    if length > limit {
        return Err(scan(text));
    }
    if length.saturating_mul(3) <= limit {
        return Ok(String::from(text));
    }
    copy_within(text, limit)
}

/// UTF-16 code units read into the module at a time.
const SLICE: u32 = 64 * 1024;

// Apart from `text_within`: a first call's messages are small, and these stay out of the
// module a page loads first.

/// [`text_within`] for a text that may or may not fit. Its length in UTF-8 is learned a
/// slice at a time first; only a text within `limit` is then copied, into room of its exact
/// size. Copied whole, a text of three-byte characters just under the limit in UTF-16 units
/// would have held three times the limit in the module, which never gives memory back.
#[inline(never)]
fn copy_within(text: &JsString, limit: usize) -> Result<String, (Envelope, usize)> {
    let (envelope, bytes) = scan(text);
    if bytes > limit {
        return Err((envelope, bytes));
    }
    let mut out = String::with_capacity(bytes);
    for slice in slices(text) {
        out.push_str(&slice);
    }
    Ok(out)
}

/// What an oversized text says about itself, and its length in UTF-8 bytes, read a slice at
/// a time.
#[inline(never)]
fn scan(text: &JsString) -> (Envelope, usize) {
    let (mut scanner, mut bytes) = (EnvelopeScanner::default(), 0);
    for slice in slices(text) {
        bytes += slice.len();
        scanner.feed(slice.as_bytes());
    }
    (scanner.finish(), bytes)
}

/// The text in slices of [`SLICE`] UTF-16 units at most, never cut between the halves of a
/// surrogate pair (which would read as two U+FFFD).
fn slices(text: &JsString) -> impl Iterator<Item = String> + '_ {
    let (length, mut at) = (text.length(), 0);
    std::iter::from_fn(move || {
        if at >= length {
            return None;
        }
        let mut end = at.saturating_add(SLICE).min(length);
        if end < length && (0xD800..0xDC00).contains(&(text.char_code_at(end - 1) as u32)) {
            end -= 1;
        }
        let slice = String::from(text.slice(at, end));
        at = end;
        Some(slice)
    })
}
