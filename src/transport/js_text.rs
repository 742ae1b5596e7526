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
    // sure; otherwise the text is at most three times the limit, and its own
    // length decides.
    if text.length() as usize > limit {
        return Err(scan_js_string(text));
    }
    let text = String::from(text);
    if text.len() > limit {
        let bytes = text.len();
        return Err((scan_text(&text), bytes));
    }
    Ok(text)
}

// Apart from `text_within`: a first call's messages are small, and these stay out of the
// module a page loads first.

/// What an oversized text says about itself, once in the module.
#[inline(never)]
fn scan_text(text: &str) -> Envelope {
    let mut scanner = EnvelopeScanner::default();
    scanner.feed(text.as_bytes());
    scanner.finish()
}

/// What an oversized text says about itself, read a slice at a time (UTF-16
/// code units).
#[inline(never)]
fn scan_js_string(text: &JsString) -> (Envelope, usize) {
    const SLICE: u32 = 64 * 1024;
    let mut scanner = EnvelopeScanner::default();
    let (length, mut at, mut bytes) = (text.length(), 0, 0);
    while at < length {
        let slice = String::from(text.slice(at, at.saturating_add(SLICE).min(length)));
        bytes += slice.len();
        scanner.feed(slice.as_bytes());
        at = at.saturating_add(SLICE);
    }
    (scanner.finish(), bytes)
}
