//! The HTTP+SSE transport of revision 2024-11-05: a GET opens an event stream
//! whose first event, `endpoint`, names the URL to POST messages to; every
//! server message, responses included, arrives on the stream.
//!
//! The stream is read by the platform's `EventSource` in browsers when no
//! custom header or `fetch` is needed (it cannot send headers), and by our
//! own SSE parser over `fetch` otherwise: Workers, Node, or with `headers`.
//! web-sys's `EventSource` is used directly rather than gloo-net's wrapper,
//! which would add a dependency for three listeners.

use super::fetch::{error_text, js_message, release, AbortOnDrop, BodyReader, Fetch, Follow, HttpRequest};
use super::headers::HeaderSource;
use super::http::status_error;
use super::sse::{Oversize, SseParser};
use super::web_runtime::WebRuntime;
use crate::error::Error;
use crate::protocol::jsonrpc::Message;
use crate::protocol::version;
use crate::session::oneshot;
use crate::session::{deliver_text, Inbound, InboundSink, Runtime, Transport};
use futures::future::{self, LocalBoxFuture};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{EventSource, Headers, MessageEvent, Url};

use super::sse::SseReader;

/// Where and how to reach the server.
#[derive(Debug)]
pub struct LegacySseConfig {
    /// The SSE endpoint (e.g. `…/sse`).
    pub url: String,
    /// The `fetch` to use.
    pub fetch: Fetch,
    /// Extra headers (the fetch reader and POSTs only).
    pub headers: HeaderSource,
    /// Which reader to use.
    pub reader: SseReader,
    /// The largest event read (`maxMessageBytes`); a larger one is skipped.
    pub max_message_bytes: usize,
}

/// The transport. Dropping it closes the event stream.
#[derive(Debug)]
pub struct LegacySse {
    inner: Rc<Inner>,
}

/// What keeps the event stream open; dropping it closes the stream. The
/// fields are never read: holding them is the point.
#[allow(dead_code)]
enum Stream {
    Fetch(AbortOnDrop),
    EventSource(EventSourceGuard),
}

/// A listener on the event source, by event type.
type Listener = (&'static str, Closure<dyn FnMut(web_sys::Event)>);

struct EventSourceGuard {
    source: EventSource,
    _listeners: Vec<Listener>,
}

impl Drop for EventSourceGuard {
    fn drop(&mut self) {
        for (kind, listener) in &self._listeners {
            let _ = self.source.remove_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
        }
        self.source.close();
    }
}

struct Inner {
    config: LegacySseConfig,
    sink: InboundSink,
    endpoint: RefCell<Option<String>>,
    /// Resolved once with the endpoint, or with why there is none.
    endpoint_waiter: RefCell<Option<oneshot::Sender<Result<String, Error>>>>,
    stream: RefCell<Option<Stream>>,
    /// Why the stream broke, for every later send.
    broken: RefCell<Option<Error>>,
    closed: Cell<bool>,
    /// The POSTs in flight, each under its number, so that closing aborts them: a server that
    /// never answers one must not keep a call (or an answer sent in the background) past close.
    posts: RefCell<Vec<(u64, web_sys::AbortController)>>,
    next_post: Cell<u64>,
}

/// A POST's place among [`Inner::posts`], given up when the POST ends.
struct Posting<'a>(&'a Inner, u64);

impl Drop for Posting<'_> {
    fn drop(&mut self) {
        self.0.posts.borrow_mut().retain(|(number, _)| *number != self.1);
    }
}

impl std::fmt::Debug for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LegacySse").field("url", &self.config.url).field("endpoint", &self.endpoint.borrow()).finish()
    }
}

impl LegacySse {
    /// A transport that delivers what it receives to `sink`; call [`LegacySse::open`] before sending.
    pub fn new(config: LegacySseConfig, sink: InboundSink) -> Self {
        let inner = Inner {
            config,
            sink,
            endpoint: RefCell::new(None),
            endpoint_waiter: RefCell::new(None),
            stream: RefCell::new(None),
            broken: RefCell::new(None),
            closed: Cell::new(false),
            posts: RefCell::default(),
            next_post: Cell::new(0),
        };
        Self { inner: Rc::new(inner) }
    }

    /// Opens the event stream and waits for its `endpoint` event.
    ///
    /// # Errors
    /// [`Error::Network`] or [`Error::Http`] if the stream cannot be opened;
    /// [`Error::Protocol`] if no valid same-origin endpoint arrives within
    /// `timeout_ms`.
    pub async fn open(&self, timeout_ms: u32) -> Result<(), Error> {
        let (tx, rx) = oneshot::channel();
        *self.inner.endpoint_waiter.borrow_mut() = Some(tx);
        match self.inner.config.reader {
            SseReader::EventSource => self.inner.start_event_source()?,
            SseReader::Fetch => {
                let controller = AbortOnDrop::new()?;
                let signal = controller.signal();
                *self.inner.stream.borrow_mut() = Some(Stream::Fetch(controller));
                wasm_bindgen_futures::spawn_local(self.inner.clone().read_with_fetch(signal));
            }
        }
        let endpoint = match crate::session::within(rx, WebRuntime.sleep(timeout_ms)).await {
            Some(Ok(outcome)) => outcome?,
            Some(Err(_)) => return Err(Error::Closed),
            None => return Err(Error::protocol(format!("the SSE stream sent no endpoint event within {timeout_ms} ms"))),
        };
        *self.inner.endpoint.borrow_mut() = Some(endpoint);
        Ok(())
    }
}

impl Drop for LegacySse {
    fn drop(&mut self) {
        self.inner.shut();
    }
}

impl Transport for LegacySse {
    fn send(&self, message: Message) -> LocalBoxFuture<'static, Result<(), Error>> {
        Box::pin(self.inner.clone().post(message))
    }

    fn set_protocol_version(&self, _: &'static str) {}

    fn close(&self) -> LocalBoxFuture<'static, ()> {
        self.inner.shut();
        Box::pin(future::ready(()))
    }
}

impl Inner {
    /// Ends the stream and every POST in flight.
    fn shut(&self) {
        self.closed.set(true);
        self.stream.borrow_mut().take();
        let posts = std::mem::take(&mut *self.posts.borrow_mut());
        for (_, controller) in posts {
            controller.abort();
        }
    }

    async fn post(self: Rc<Self>, message: Message) -> Result<(), Error> {
        if self.closed.get() {
            return Err(Error::Closed);
        }
        if let Some(error) = self.broken.borrow().clone() {
            return Err(error);
        }
        let endpoint = self.endpoint.borrow().clone().ok_or_else(|| Error::protocol("no endpoint yet".into()))?;
        let headers = self.headers("application/json, text/event-stream").await?;
        let _ = headers.set("content-type", "application/json");
        let controller = AbortOnDrop::new()?;
        let number = self.next_post.get();
        self.next_post.set(number + 1);
        self.posts.borrow_mut().push((number, controller.handle()));
        let _posting = Posting(&self, number);
        let body = message.to_json();
        let follow = Follow::for_headers(&headers);
        let request = HttpRequest { method: "POST", url: &endpoint, headers, body: Some(&body), signal: &controller.signal(), follow };
        let response = match self.config.fetch.send(request).await {
            Ok(response) => response,
            // Aborted by close: the call ends as every call does then.
            Err(_) if self.closed.get() => return Err(Error::Closed),
            Err(error) => return Err(error),
        };
        let status = response.status();
        if !(200..300).contains(&status) {
            let text = error_text(&response).await;
            return Err(status_error(status, &response.status_text(), &text, false));
        }
        // The answer comes on the event stream; the POST's body ("Accepted") says nothing.
        release(&response, &controller);
        Ok(())
    }

    async fn headers(&self, accept: &str) -> Result<Headers, Error> {
        let invalid = |e: JsValue| Error::invalid_argument(format!("invalid headers: {}", js_message(&e)));
        let headers = self.config.headers.to_headers().await?;
        headers.set("accept", accept).map_err(invalid)?;
        Ok(headers)
    }

    /// Handles one event from either reader.
    fn on_event(&self, kind: &str, data: String) {
        match kind {
            "endpoint" if self.endpoint.borrow().is_none() => {
                let resolved = resolve_endpoint(&self.config.url, data.trim_ascii());
                if let Some(waiter) = self.endpoint_waiter.borrow_mut().take() {
                    let _ = waiter.send(resolved);
                }
            }
            "message" if !data.is_empty() => {
                // A message that does not decode cannot be tied to a request;
                // the request it answered ends in its timeout.
                let _ = deliver_text(&self.sink, data, version::allows_batches(None), None);
            }
            _ => {}
        }
    }

    /// The stream ended or failed: nothing more can arrive.
    fn on_broken(&self, error: Error) {
        if let Some(waiter) = self.endpoint_waiter.borrow_mut().take() {
            let _ = waiter.send(Err(error));
            return;
        }
        if self.closed.get() {
            return;
        }
        *self.broken.borrow_mut() = Some(error.clone());
        (self.sink)(Inbound::ConnectionLost(error));
    }

    async fn read_with_fetch(self: Rc<Self>, signal: web_sys::AbortSignal) {
        let opened = async {
            let headers = self.headers("text/event-stream").await?;
            let follow = Follow::for_headers(&headers);
            let request = HttpRequest { method: "GET", url: &self.config.url, headers, body: None, signal: &signal, follow };
            let response = self.config.fetch.send(request).await?;
            if !(200..300).contains(&response.status()) {
                let text = error_text(&response).await;
                return Err(status_error(response.status(), &response.status_text(), &text, false));
            }
            BodyReader::new(&response)
        };
        let reader = match opened.await {
            Ok(reader) => reader,
            Err(error) => return self.on_broken(error),
        };
        // Every response comes on this one stream: an oversized event is
        // skipped, not a reason to lose the connection.
        let limit = self.config.max_message_bytes;
        let mut parser = SseParser::new(limit, Oversize::Skip);
        let mut events = Vec::new();
        let failure = Rc::new(RefCell::new(None));
        let (inner, failed) = (Rc::clone(&self), Rc::clone(&failure));
        let pumped = reader
            .pump(0, move |chunk, _| {
                if let Err(error) = parser.push(chunk, &mut events) {
                    *failed.borrow_mut() = Some(Error::protocol(error.to_string()));
                    return false;
                }
                for event in events.drain(..) {
                    match event.oversized {
                        Some(skipped) => (inner.sink)(Inbound::Oversized { envelope: skipped.envelope, bytes: skipped.bytes, limit }),
                        None => inner.on_event(&event.event, event.data),
                    }
                }
                true
            })
            .await;
        let failed = failure.borrow_mut().take();
        let ended = match (failed, pumped) {
            (Some(error), _) | (None, Err(error)) => error,
            (None, Ok(())) => Error::Network { message: "the SSE stream closed".into() },
        };
        self.on_broken(ended);
    }

    fn start_event_source(self: &Rc<Self>) -> Result<(), Error> {
        let source = EventSource::new(&self.config.url)
            .map_err(|e| Error::invalid_argument(format!("EventSource refused the URL: {}", js_message(&e))))?;
        let mut listeners = Vec::new();
        for kind in ["endpoint", "message"] {
            let weak = Rc::downgrade(self);
            let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
                let Some(inner) = weak.upgrade() else { return };
                let data = event.dyn_ref::<MessageEvent>().map_or(JsValue::UNDEFINED, MessageEvent::data);
                // The browser has read the whole event already; it need not
                // be copied into the module as well to learn its id.
                let text: js_sys::JsString = data.dyn_into().unwrap_or_else(|_| js_sys::JsString::from(""));
                let limit = inner.config.max_message_bytes;
                match crate::transport::js_text::text_within(&text, limit) {
                    Ok(text) => inner.on_event(kind, text),
                    Err((envelope, bytes)) => (inner.sink)(Inbound::Oversized { envelope, bytes, limit }),
                }
            });
            let _ = source.add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
            listeners.push((kind, listener));
        }
        let weak = Rc::downgrade(self);
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
            // EventSource would reconnect by itself, but a reconnection is a
            // new server session with a new endpoint: end here instead.
            if let Some(inner) = weak.upgrade() {
                inner.stream.borrow_mut().take();
                inner.on_broken(Error::Network {
                    message: "the SSE stream failed (EventSource reports no reason: network, HTTP status or CORS)".into(),
                });
            }
        });
        let _ = source.add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
        listeners.push(("error", on_error));
        *self.stream.borrow_mut() = Some(Stream::EventSource(EventSourceGuard { source, _listeners: listeners }));
        Ok(())
    }
}

/// The longest `endpoint` the client takes. Every POST goes to it, and an
/// event may otherwise be as long as a message.
pub const MAX_ENDPOINT_BYTES: usize = 8 * 1024;

/// Resolves the `endpoint` event's URI against the SSE URL and refuses one on
/// another origin: the endpoint must not send our messages elsewhere.
fn resolve_endpoint(sse_url: &str, endpoint: &str) -> Result<String, Error> {
    if endpoint.len() > MAX_ENDPOINT_BYTES {
        return Err(Error::protocol("the endpoint event names a URL longer than 8 KiB".into()));
    }
    let resolved =
        Url::new_with_base(endpoint, sse_url).map_err(|_| Error::protocol(format!("the endpoint event {endpoint:?} is not a URL")))?;
    let base = Url::new(sse_url).map_err(|_| Error::invalid_argument(format!("{sse_url:?} is not a URL")))?;
    if resolved.origin() != base.origin() {
        return Err(Error::protocol(format!(
            "the endpoint {} is on another origin than the SSE stream ({}); refusing to send messages there",
            resolved.href(),
            base.origin()
        )));
    }
    Ok(resolved.href())
}
