//! A large JSON body left in JS. Its chunks are lexed in wasm a window at a
//! time (`protocol::jsonrpc::elide`), and only the text without its long
//! content strings is copied in for the checks; the caller's `JSON.parse`
//! reads the body once, where it lies. A 5 MiB resource then never takes
//! 5 MiB of wasm memory, which never shrinks.

use super::fetch::{body_text, copy_parts, in_windows, read_parts};
use crate::error::Error;
use crate::protocol::jsonrpc::elide::{Eliding, KEEP_MIN_BYTES};
use crate::session::KeptMessage;
use js_sys::{Array, Uint8Array};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(js_name = parseKept, catch)]
    fn parse_kept(chunks: &Array, total: f64, lossy: bool) -> Result<JsValue, JsValue>;
}

/// Where the lexer stops if it has left nothing out.
const GIVE_UP_BYTES: usize = 64 * 1024;

/// A JSON body as a transport hands it on.
#[derive(Debug)]
pub enum Body {
    /// All of it, in wasm.
    Text(String),
    /// A text without what the checks do not read, and the body itself, in JS.
    Kept {
        /// What the checks read.
        text: String,
        /// The whole body.
        body: Rc<KeptBody>,
    },
}

/// The chunks of a body that stays in JS.
pub struct KeptBody {
    chunks: Array,
    total: usize,
    /// Bytes that are not UTF-8 decode as U+FFFD (an event's data, as the
    /// SSE standard decodes it) instead of failing (a JSON body).
    lossy: bool,
    /// The length of the `result.structuredContent` the checks' text lacks.
    structured: Option<usize>,
}

/// Its size rather than its chunks: printing a JS value would bring the
/// binding's general printer of values into the first call's module, which
/// reaches this through `dyn KeptMessage`.
impl std::fmt::Debug for KeptBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptBody")
            .field("total", &self.total)
            .field("lossy", &self.lossy)
            .field("structured", &self.structured)
            .finish_non_exhaustive()
    }
}

impl KeptBody {
    /// The data of an SSE event, in `chunks` (`Uint8Array`s, `total` bytes
    /// in all), decoded as the SSE standard decodes it; `structured` is the
    /// length of the `result.structuredContent` the parser left out of the
    /// text it dispatched.
    pub fn event_data(chunks: Array, total: usize, structured: Option<usize>) -> Self {
        Self { chunks, total, lossy: true, structured }
    }

    /// The body's `result`, parsed in JS.
    ///
    /// # Errors
    /// What `TextDecoder` (bytes that are not UTF-8) or `JSON.parse` threw.
    pub fn result(&self) -> Result<JsValue, JsValue> {
        parse_kept(&self.chunks, self.total as f64, self.lossy)
    }
}

impl KeptMessage for KeptBody {
    fn read(&self) -> Option<String> {
        let bytes = copy_parts(Some(&self.chunks), self.total as f64).ok()?.ok()?;
        match crate::protocol::wide::into_string(bytes) {
            Ok(text) => Some(text),
            Err(bytes) if self.lossy => Some(String::from_utf8_lossy(&bytes).into_owned()),
            Err(_) => None,
        }
    }

    fn structured_bytes(&self) -> Option<usize> {
        self.structured
    }

    fn bytes(&self) -> usize {
        self.total
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `readChunks`' answer (`[chunks, total]`) as a [`Body`]: a long body whose
/// unread values could be left out stays in JS.
///
/// # Errors
/// As [`super::fetch::Answered::text`].
pub fn body(read: &JsValue, max: usize, limit: &'static str) -> Result<Body, Error> {
    match read_parts(read) {
        (Some(chunks), total) if total >= KEEP_MIN_BYTES as f64 => long_body(chunks, total, max, limit),
        (chunks, total) => body_text(copy_parts(chunks.as_ref(), total)?, max, limit).map(Body::Text),
    }
}

// Apart from `body`: a first call's results are short, and the glue has the rest of the core
// load before a long one reaches here (`restGate` in src/glue.js).
#[inline(never)]
fn long_body(chunks: Array, total: f64, max: usize, limit: &'static str) -> Result<Body, Error> {
    let whole = || body_text(copy_parts(Some(&chunks), total)?, max, limit).map(Body::Text);
    // A body whose first 64 KiB leave nothing out (a long list) is read in
    // as it is: lexing all of it would cost more than it saves.
    let mut eliding = Eliding::for_body(total as usize).give_up_at(GIVE_UP_BYTES);
    let mut buffer = Vec::new();
    for chunk in chunks.iter() {
        if eliding.gave_up() {
            break;
        }
        let Some(chunk) = chunk.dyn_ref::<Uint8Array>() else { return whole() };
        in_windows(chunk, &mut buffer, &mut |window, _| {
            eliding.feed(window);
            !eliding.gave_up()
        });
    }
    let elided = eliding.finish();
    if elided.gave_up {
        return whole();
    }
    let text = crate::protocol::wide::into_string(elided.text).map_err(|_| Error::protocol("the response body is not UTF-8".into()))?;
    if elided.elided == 0 {
        return Ok(Body::Text(text));
    }
    let body = KeptBody { chunks, total: total as usize, lossy: false, structured: elided.structured };
    Ok(Body::Kept { text, body: Rc::new(body) })
}
