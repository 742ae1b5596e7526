//! HTTP over the platform's `fetch`, or the caller's replacement for it.
//!
//! gloo-net's `Request` binds the global `fetch` only, and we must also call a
//! user-supplied `fetch` function, abort through our own `AbortController`, and
//! read the body as a stream, so this module uses web-sys directly. It never
//! sets `mode`, `credentials` or `cache`: Cloudflare Workers reject them.

use crate::error::Error;
use crate::protocol::jsonrpc::elide::KEEP_MIN_BYTES;
use futures::future::LocalBoxFuture;
use js_sys::{Function, Promise, Reflect, Uint8Array};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal, Headers, ReadableStreamDefaultReader, RequestInit, Response};

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    // The global `fetch` (not `window.fetch`: there is no `window` in Workers or Node), or
    // what the package's Node entry puts in its place.
    #[wasm_bindgen(js_name = sendRequest, catch)]
    fn global_fetch(input: &str, init: &RequestInit) -> Result<Promise, JsValue>;
    // `body.getReader()`, or the Node entry's stand-in for one (pkg-template/node-fetch.js), which
    // has `read()` and `cancel()` only: `BodyReader` must call nothing else on it.
    #[wasm_bindgen(js_name = readerOf, catch)]
    fn reader_of(body: &web_sys::ReadableStream) -> Result<ReadableStreamDefaultReader, JsValue>;
    #[wasm_bindgen(js_name = readChunks)]
    fn read_chunks(reader: &ReadableStreamDefaultReader, max: f64) -> Promise;
    #[wasm_bindgen(js_name = pumpChunks)]
    fn pump_chunks(reader: &ReadableStreamDefaultReader, on_chunk: &Closure<dyn FnMut(Uint8Array) -> bool>, keep_from: f64) -> Promise;
    #[wasm_bindgen(js_name = fetchAnswer)]
    fn fetch_answer(fetch: &JsValue, url: &str, init: &RequestInit, max: f64, keep_from: f64) -> Promise;
    #[wasm_bindgen(js_name = thrownMessage)]
    fn thrown_message(value: &JsValue) -> String;
}

thread_local! {
    // Attached to promises we drop, so a late rejection is never "unhandled"
    // (which terminates a Node process).
    static IGNORE_REJECTION: Closure<dyn FnMut(JsValue)> = Closure::new(|_| {});
}

/// Marks a promise's eventual rejection as handled.
pub fn ignore_rejection(promise: &Promise) {
    IGNORE_REJECTION.with(|ignore| {
        let _ = promise.catch(ignore);
    });
}

/// The message of a thrown JS value: `error.message`, a string itself, else
/// the value as JSON (`undefined` as "undefined").
pub fn js_message(value: &JsValue) -> String {
    thrown_message(value)
}

/// Whether this runs in a browser page (where CORS applies and a blocked
/// request surfaces as a bare `TypeError`). Checked on the global object,
/// never through `window`.
pub fn in_browser() -> bool {
    Reflect::get(&js_sys::global(), &JsValue::from_str("document")).is_ok_and(|d| !d.is_undefined())
}

/// What the network error says in a browser, where CORS failures and
/// unreachable servers look the same to scripts.
fn network_error(thrown: &JsValue, url: &str) -> Error {
    let mut message = js_message(thrown);
    let is_type_error = Reflect::get(thrown, &JsValue::from_str("name")).ok().and_then(|n| n.as_string()).as_deref() == Some("TypeError");
    if !(is_type_error && in_browser()) {
        return Error::Network { message };
    }
    // Pushed rather than formatted or joined (core's formatting, std's generic `concat`): a
    // browser's first call to a server that is down comes here, and the first call's module
    // has `push_str` already.
    message.push_str(": the browser blocked the request to ");
    message.push_str(url);
    message.push_str(
        " or could not reach it. If the server is up, it must allow \
this page's origin with CORS: answer the preflight (OPTIONS) with Access-Control-Allow-Origin, \
Access-Control-Allow-Methods: GET, POST, DELETE, and Access-Control-Allow-Headers: content-type, accept, \
mcp-session-id, mcp-protocol-version, last-event-id (and authorization, if sent)",
    );
    Error::Network { message }
}

/// Which redirects a request may follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Follow {
    /// Any, as `fetch` does by default: for requests that carry nothing secret.
    #[default]
    Any,
    /// Only to the same origin, and only a 307 or 308 that keeps the method
    /// and body: for requests that carry tokens, secrets or PKCE verifiers.
    /// Where the platform hides redirects (browsers), none.
    SameOrigin,
}

impl Follow {
    /// [`Follow::SameOrigin`] when the headers carry credentials (`Authorization`).
    pub fn for_headers(headers: &Headers) -> Self {
        if headers.has("authorization").unwrap_or(true) {
            Self::SameOrigin
        } else {
            Self::Any
        }
    }
}

/// How many same-origin redirects a request with credentials follows.
const MAX_REDIRECTS: u32 = 5;

/// One HTTP request.
#[derive(Debug)]
pub struct HttpRequest<'a> {
    /// The method, e.g. `"POST"`.
    pub method: &'a str,
    /// The absolute URL.
    pub url: &'a str,
    /// The headers to send.
    pub headers: Headers,
    /// The body, if any.
    pub body: Option<&'a str>,
    /// Aborts the request and its response body.
    pub signal: &'a AbortSignal,
    /// Which redirects it may follow.
    pub follow: Follow,
}

/// The `fetch` to use: the global one, or the caller's.
#[derive(Clone, Default)]
pub struct Fetch {
    custom: Option<Function>,
}

/// Whether the caller's `fetch` is in use, not the function: printing a JS
/// value would bring the binding's general printer of values into the module.
impl std::fmt::Debug for Fetch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetch").field("custom", &self.custom.is_some()).finish()
    }
}

impl Fetch {
    /// Whether the caller's `fetch` replaces the global one.
    pub fn is_custom(&self) -> bool {
        self.custom.is_some()
    }

    /// Uses `custom` instead of the global `fetch`, when given.
    pub fn new(custom: Option<Function>) -> Self {
        Self { custom }
    }

    /// Sends a request and waits for the response headers.
    ///
    /// # Errors
    /// [`Error::Network`] when `fetch` rejects or throws (DNS, refused, CORS,
    /// aborted); [`Error::Protocol`] when a custom `fetch` resolves to something
    /// that is not a `Response`, or for a redirect [`Follow`] does not allow.
    pub async fn send(&self, request: HttpRequest<'_>) -> Result<Response, Error> {
        let init = request.init();
        if request.follow == Follow::Any {
            return self.fetch(request.url, &init).await;
        }
        let _ = Reflect::set(&init, &JsValue::from_str("redirect"), &JsValue::from_str("manual"));
        let response = self.fetch(request.url, &init).await?;
        if !is_redirect(&response) {
            return Ok(response);
        }
        self.follow_redirects(request.url, &init, response).await
    }

    /// Follows a redirect of a request that carries credentials by hand: only to the same
    /// origin, and only with 307 or 308, which keep the method and body.
    ///
    /// A future of its own, not awaited inline: a server that does not redirect never
    /// polls it, and the core's split (scripts/split/) leaves it out of the module a page
    /// loads first.
    #[inline(never)]
    fn follow_redirects<'a>(
        &'a self,
        first_url: &'a str,
        init: &'a RequestInit,
        first: Response,
    ) -> LocalBoxFuture<'a, Result<Response, Error>> {
        Box::pin(async move {
            let mut url = first_url.to_owned();
            let mut response = first;
            for followed in 0..=MAX_REDIRECTS {
                let status = response.status();
                let target = header(&response, "location").and_then(|location| web_sys::Url::new_with_base(&location, &url).ok());
                let same_origin = target.as_ref().is_some_and(|t| web_sys::Url::new(&url).is_ok_and(|here| here.origin() == t.origin()));
                match target {
                    Some(target) if same_origin && matches!(status, 307 | 308) => url = target.href(),
                    _ => {
                        let to = target.map(|t| format!(" to {}", t.href())).unwrap_or_default();
                        // The server answered, wrongly: this is no network failure.
                        return Err(Error::protocol(crate::error::cold_format!(
                            "{first_url} redirected a request that carries credentials{to}; the client does not follow it"
                        )));
                    }
                }
                if followed == MAX_REDIRECTS {
                    break;
                }
                response = self.fetch(&url, init).await?;
                if !is_redirect(&response) {
                    return Ok(response);
                }
            }
            Err(Error::protocol(crate::error::cold_format!("{first_url} redirected more than {MAX_REDIRECTS} times")))
        })
    }

    /// [`Fetch::send`] for a request whose answer may be JSON: a 2xx JSON
    /// body no longer than `max` bytes comes with the response, read in the
    /// same JS promise (`fetchAnswer` in `glue.js`) as soon as the headers
    /// come. Any other body is left unread, as [`Fetch::send`] leaves it; so
    /// is every body of a request that may be redirected by hand. A body of
    /// [`KEEP_MIN_BYTES`] or more may stay in JS, by code that is not in the
    /// module a page loads first: the npm package's glue has the rest of the
    /// core loaded before it hands such a body over.
    ///
    /// # Errors
    /// As [`Fetch::send`].
    pub async fn send_for_answer(&self, request: HttpRequest<'_>, max: usize) -> Result<(Response, Option<Answered>), Error> {
        if request.follow != Follow::Any {
            return Ok((self.send(request).await?, None));
        }
        let fetch = self.custom.as_ref().map_or(JsValue::NULL, |f| f.into());
        let network = |e: JsValue| network_error(&e, request.url);
        let parts: js_sys::Array = JsFuture::from(fetch_answer(&fetch, request.url, &request.init(), max as f64, KEEP_MIN_BYTES as f64))
            .await
            .map_err(network)?
            .unchecked_into();
        // fetchAnswer checked that it is a Response, as `as_response` would.
        let response: Response = match parts.length() {
            0 => return Err(not_a_response()),
            _ => parts.get(0).unchecked_into(),
        };
        let answered = match (parts.length(), parts.get(1)) {
            (1, _) => None,
            (_, read) if read.is_undefined() => Some(Answered(Err(stream_broke(&parts.get(2))))),
            (_, read) => Some(Answered(Ok(read))),
        };
        Ok((response, answered))
    }

    async fn fetch(&self, url: &str, init: &RequestInit) -> Result<Response, Error> {
        let started = match &self.custom {
            Some(fetch) => fetch.call2(&JsValue::UNDEFINED, &JsValue::from_str(url), init).map(|value| Promise::resolve(&value)),
            None => global_fetch(url, init),
        };
        let network = |e: JsValue| network_error(&e, url);
        as_response(JsFuture::from(started.map_err(network)?).await.map_err(network)?)
    }
}

impl HttpRequest<'_> {
    fn init(&self) -> RequestInit {
        let init = RequestInit::new();
        init.set_method(self.method);
        init.set_headers(&self.headers);
        init.set_signal(Some(self.signal));
        if let Some(body) = self.body {
            init.set_body(&JsValue::from_str(body));
        }
        init
    }
}

/// Whether `response` redirects: a browser shows a manual redirect as an opaque response,
/// status 0.
fn is_redirect(response: &Response) -> bool {
    let kind = Reflect::get(response, &JsValue::from_str("type")).ok().and_then(|t| t.as_string());
    kind.as_deref() == Some("opaqueredirect") || (300..400).contains(&response.status())
}

/// What `fetch` resolved to, if it is a `Response`: duck-typed, since a
/// polyfilled or cross-realm Response fails `instanceof`.
fn as_response(value: JsValue) -> Result<Response, Error> {
    let is_response = value.is_object()
        && Reflect::has(&value, &JsValue::from_str("status")).unwrap_or(false)
        && Reflect::has(&value, &JsValue::from_str("headers")).unwrap_or(false);
    if !is_response {
        return Err(not_a_response());
    }
    Ok(value.unchecked_into())
}

#[cold]
fn not_a_response() -> Error {
    Error::protocol("fetch resolved to a value that is not a Response".into())
}

/// A JSON answer's body as [`Fetch::send_for_answer`] read it with its
/// response, still in JS (`readChunks`' `[chunks, total]`).
#[derive(Debug)]
pub struct Answered(Result<JsValue, Error>);

impl Answered {
    /// The body as text, as [`read_text_capped`] gives it.
    ///
    /// # Errors
    /// As [`read_text_capped`].
    pub fn text(self, max: usize, limit: &'static str) -> Result<String, Error> {
        body_text(copy_chunks(&self.0?)?, max, limit)
    }

    /// The body as text, or a long one kept in JS but for the text its
    /// checks read ([`super::kept::body`]).
    ///
    /// # Errors
    /// As [`read_text_capped`].
    pub fn body(self, max: usize, limit: &'static str) -> Result<super::kept::Body, Error> {
        super::kept::body(&self.0?, max, limit)
    }
}

/// How much of an error response's body is read for its message.
pub const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// The text of an error response, for its message: at most
/// [`ERROR_BODY_LIMIT`] bytes, and empty if it cannot be read.
// A future of its own rather than an `async fn`: its four callers poll it, instead of each
// holding a copy of the body's reading.
#[inline(never)]
pub fn error_text(response: &Response) -> LocalBoxFuture<'_, String> {
    Box::pin(async move { read_text_capped(response, ERROR_BODY_LIMIT, "errorBodyBytes").await.unwrap_or_default() })
}

/// Reads a response body as text, at most `max` bytes of it: a larger body
/// is cancelled as soon as it passes the limit, not read to its end (a
/// compressed body's `Content-Length` says nothing of its decoded size, so
/// the bytes themselves are counted).
///
/// # Errors
/// [`Error::LimitExceeded`] for a body larger than `max`; [`Error::Network`]
/// if the body cannot be read; [`Error::Protocol`] if it is not UTF-8.
pub async fn read_text_capped(response: &Response, max: usize, limit: &'static str) -> Result<String, Error> {
    let declared = header(response, "content-length").and_then(|v| super::http::decimal(v.trim_ascii().as_bytes()));
    if let Some(length) = declared.filter(|length| *length > max as u64) {
        if let Some(body) = response.body() {
            ignore_rejection(&body.cancel());
        }
        return Err(too_large(length, max, limit));
    }
    let Some(_) = response.body() else { return Ok(String::new()) };
    body_text(BodyReader::new(response)?.read_to_end(max).await?, max, limit)
}

pub(super) fn body_text(read: Result<Vec<u8>, usize>, max: usize, limit: &'static str) -> Result<String, Error> {
    let body = read.map_err(|length| too_large(length as u64, max, limit))?;
    crate::protocol::wide::into_string(body).map_err(|_| Error::protocol("the response body is not UTF-8".into()))
}

fn too_large(bytes: u64, max: usize, limit: &'static str) -> Error {
    Error::LimitExceeded { limit, message: crate::error::cold_format!("the response body is larger than {max} bytes (at least {bytes})") }
}

/// A response header, if present.
pub fn header(response: &Response, name: &str) -> Option<String> {
    response.headers().get(name).ok().flatten()
}

/// How much of a streamed chunk is in wasm at once.
pub const WINDOW_BYTES: u32 = 64 * 1024;

/// Reads a response body chunk by chunk; cancels the stream if dropped early.
#[derive(Debug)]
pub struct BodyReader {
    reader: ReadableStreamDefaultReader,
    done: bool,
}

impl BodyReader {
    /// A reader over the response's body stream.
    ///
    /// # Errors
    /// [`Error::Protocol`] if the response has no readable body.
    pub fn new(response: &Response) -> Result<Self, Error> {
        let body = response.body().ok_or_else(|| Error::protocol("the response has no body".into()))?;
        let reader = reader_of(&body).map_err(|_| Error::protocol("the response body cannot be read as a stream".into()))?;
        Ok(Self { reader, done: false })
    }

    /// Hands each chunk of the rest of the body to `on_chunk` as it arrives,
    /// all in one JS promise (`pumpChunks` in `glue.js`), until the body
    /// ends or `on_chunk` answers `false` (the stream is then cancelled).
    /// A long chunk goes in windows of at most 64 KiB, each as its bytes
    /// (valid only during the call) and as the JS view they were copied
    /// from: a browser may hand over megabytes at once, and the copy is the
    /// wasm memory a stream takes. `keep_from` is the length of an event that
    /// `on_chunk` may leave in JS (0: none): once the stream has brought that
    /// many bytes, the npm package's glue has the rest of the core loaded
    /// before the next chunk, since that code is not in the module a page
    /// loads first.
    ///
    /// # Errors
    /// [`Error::Network`] if the stream breaks; [`Error::Protocol`] if it
    /// yields something other than bytes.
    pub async fn pump(mut self, keep_from: usize, mut on_chunk: impl FnMut(&[u8], &Uint8Array) -> bool + 'static) -> Result<(), Error> {
        let mut buffer = Vec::new();
        let on_chunk =
            Closure::<dyn FnMut(Uint8Array) -> bool>::new(move |chunk: Uint8Array| in_windows(&chunk, &mut buffer, &mut on_chunk));
        let pumped = JsFuture::from(pump_chunks(&self.reader, &on_chunk, keep_from as f64)).await.map_err(|e| stream_broke(&e))?;
        // The JS side read the stream to its end or cancelled it.
        self.done = true;
        match pumped.as_bool() {
            Some(false) => Err(not_bytes()),
            _ => Ok(()),
        }
    }

    /// The rest of the body, read in one JS promise (`readChunks` in
    /// `glue.js`) and copied in once it is all there; `Err(length)` as soon
    /// as it passes `max` bytes, the stream then cancelled.
    ///
    /// # Errors
    /// [`Error::Network`] if the stream breaks; [`Error::Protocol`] if it
    /// yields something other than bytes.
    pub async fn read_to_end(mut self, max: usize) -> Result<Result<Vec<u8>, usize>, Error> {
        let read = JsFuture::from(read_chunks(&self.reader, max as f64)).await.map_err(|e| stream_broke(&e))?;
        // The JS side read the stream to its end or cancelled it.
        self.done = true;
        copy_chunks(&read)
    }
}

/// Hands `chunk` to `on_window` [`WINDOW_BYTES`] at a time, each as its bytes
/// (copied into `buffer`) and as its JS view, until `on_window` answers
/// `false`; answers whether it went to the end.
pub fn in_windows(chunk: &Uint8Array, buffer: &mut Vec<u8>, on_window: &mut impl FnMut(&[u8], &Uint8Array) -> bool) -> bool {
    let length = chunk.length();
    if length <= WINDOW_BYTES {
        buffer.clear();
        append(buffer, chunk);
        return on_window(buffer, chunk);
    }
    let mut at = 0;
    while at < length {
        let window = chunk.subarray(at, length.min(at.saturating_add(WINDOW_BYTES)));
        buffer.clear();
        append(buffer, &window);
        if !on_window(buffer, &window) {
            return false;
        }
        at = at.saturating_add(WINDOW_BYTES);
    }
    true
}

/// A body's stream failed while it was read (the `glue.js` readers reject with its error).
fn stream_broke(thrown: &JsValue) -> Error {
    let mut message = String::from("the response stream broke: ");
    message.push_str(&js_message(thrown));
    Error::Network { message }
}

/// A body's stream gave something other than a `Uint8Array`.
fn not_bytes() -> Error {
    Error::protocol("the response stream yielded something other than bytes".into())
}

/// `readChunks`' answer (`[chunks, total]`) taken apart: the chunks (none
/// past the limit, or for a chunk that is not bytes) and their length in all
/// (-1 for a chunk that is not bytes). The glue always answers with that pair,
/// so it is read as an array where it lies, not copied by `Array.from`.
pub(super) fn read_parts(read: &JsValue) -> (Option<js_sys::Array>, f64) {
    let read = read.unchecked_ref::<js_sys::Array>();
    (read.get(0).dyn_into::<js_sys::Array>().ok(), read.get(1).as_f64().unwrap_or(-1.0))
}

/// `readChunks`' answer (`[chunks, total]`) as the body's bytes, or
/// `Err(length)` past the limit.
pub(super) fn copy_chunks(read: &JsValue) -> Result<Result<Vec<u8>, usize>, Error> {
    let (chunks, total) = read_parts(read);
    copy_parts(chunks.as_ref(), total)
}

/// [`copy_chunks`] of the answer [`read_parts`] took apart.
pub(super) fn copy_parts(chunks: Option<&js_sys::Array>, total: f64) -> Result<Result<Vec<u8>, usize>, Error> {
    let Some(chunks) = chunks else {
        return match total {
            t if t < 0.0 => Err(not_bytes()),
            t => Ok(Err(t as usize)),
        };
    };
    let mut body = Vec::with_capacity(total as usize);
    for chunk in chunks.iter() {
        append(&mut body, chunk.unchecked_ref::<Uint8Array>());
    }
    Ok(Ok(body))
}

/// Copies `chunk` onto the end of `body`, straight into its spare room: a
/// safe `resize` first would clear room the copy overwrites (1 ms of a 5 MiB
/// read), and a copy into a buffer of its own would sit beside the body.
#[allow(unsafe_code)]
fn append(body: &mut Vec<u8>, chunk: &Uint8Array) {
    let length = chunk.length() as usize;
    body.reserve(length);
    if let Some(room) = body.spare_capacity_mut().get_mut(..length) {
        let copied = chunk.copy_to_uninit(room).len();
        // SAFETY: `copy_to_uninit` initialised the `copied` bytes that follow
        // the vector's length, within its capacity.
        unsafe { body.set_len(body.len() + copied) };
    }
}

impl Drop for BodyReader {
    fn drop(&mut self) {
        if !self.done {
            ignore_rejection(&self.reader.cancel());
        }
    }
}

/// Lets go of a response whose body says nothing (an `Accepted`, an
/// empty 202): the body is cancelled, which frees the connection, and the
/// fetch is not aborted, which would cost a `DOMException`, stack and all.
pub fn release(response: &Response, controller: &AbortOnDrop) {
    if let Some(body) = response.body() {
        ignore_rejection(&body.cancel());
    }
    controller.finished();
}

/// How many controllers wait for reuse at most ([`AbortOnDrop::reusable`]).
const SPARE_MAX: usize = 16;
/// How many exchanges one controller serves at most: each `fetch` that
/// follows a signal leaves a listener on it until the garbage collector
/// takes that fetch, and Node warns past 1,500 on one signal.
const USES_MAX: u16 = 32;

thread_local! {
    /// Controllers whose exchange ended without an abort, for the next ones.
    static SPARE: RefCell<Vec<(AbortController, u16)>> = const { RefCell::new(Vec::new()) };
}

/// An `AbortController` that aborts when dropped, so no fetch outlives its
/// owner, unless the exchange was read to its end ([`AbortOnDrop::finished`]).
#[derive(Debug)]
pub struct AbortOnDrop {
    controller: AbortController,
    finished: Cell<bool>,
    /// The exchanges this controller has served, this one included; `None`
    /// for one that is never reused.
    uses: Option<u16>,
}

impl AbortOnDrop {
    /// A fresh controller.
    ///
    /// # Errors
    /// [`Error::Network`] if the platform has no `AbortController`.
    pub fn new() -> Result<Self, Error> {
        Self::created(None)
    }

    fn created(uses: Option<u16>) -> Result<Self, Error> {
        AbortController::new()
            .map(|controller| Self { controller, finished: Cell::new(false), uses })
            .map_err(|e| Error::Network { message: crate::error::cold_format!("AbortController is unavailable: {}", js_message(&e)) })
    }

    /// A controller that a finished exchange gives back for the next one,
    /// when nobody but this crate sees its signal (not with a custom
    /// `fetch`, which may keep it). Node 20 makes every new `AbortSignal`
    /// transferable, a cost on every call (bench/analysis.md, eleventh
    /// round: Node's sequential calls 4 % nearer a raw `fetch`).
    ///
    /// # Errors
    /// As [`AbortOnDrop::new`].
    pub fn reusable() -> Result<Self, Error> {
        match SPARE.with(|spare| spare.borrow_mut().pop()) {
            Some((controller, uses)) => Ok(Self { controller, finished: Cell::new(false), uses: Some(uses + 1) }),
            None => Self::created(Some(1)),
        }
    }

    /// The controller's signal, to pass to `fetch`.
    pub fn signal(&self) -> AbortSignal {
        self.controller.signal()
    }

    /// A second handle on the same controller, which does not abort on drop.
    /// It must not outlive this value: a reusable controller serves another
    /// exchange next.
    pub fn handle(&self) -> AbortController {
        self.controller.clone()
    }

    /// The response was read to its end: there is nothing left to abort.
    /// Aborting anyway costs every call a `DOMException`, stack and all.
    pub fn finished(&self) {
        self.finished.set(true);
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if !self.finished.get() {
            self.controller.abort();
            return;
        }
        // A handle may have aborted it meanwhile (a cancelled request).
        let Some(uses) = self.uses.filter(|&uses| uses < USES_MAX && !self.controller.signal().aborted()) else { return };
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < SPARE_MAX {
                spare.push((self.controller.clone(), uses));
            }
        });
    }
}
