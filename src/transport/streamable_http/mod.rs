//! The Streamable HTTP transport of the legacy revisions (2025-03-26 to
//! 2025-11-25): every message is a POST; a request's answer comes back as JSON
//! or as an SSE stream; the server may issue an `Mcp-Session-Id` that goes on
//! every later request; `close` sends DELETE.

mod streams;

use super::auth::Authorizer;
use super::headers::HeaderSource;

use super::fetch::{
    error_text, header, js_message, read_text_capped, release, AbortOnDrop, Answered, BodyReader, Fetch, Follow, HttpRequest,
};
use super::http::{self, classify, status_error_with, Readable, ResponseBody};
use super::kept::{Body, KeptBody};
use super::web_runtime::WebRuntime;
use crate::error::Error;
use crate::protocol::jsonrpc::{decode_or_raw, Decoded, Message, RequestId};
use crate::protocol::{methods, modern, version};
use crate::session::id_map::IdMap;
use crate::session::oneshot;
use crate::session::{deliver_text, Inbound, InboundSink, KeptMessage, Runtime, ToolSchemas, Transport};
use futures::future::LocalBoxFuture;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use streams::Purpose;
use wasm_bindgen::prelude::*;
use web_sys::{AbortController, Headers, Response};

/// Where and how to reach the server.
pub struct StreamableHttpConfig {
    /// The MCP endpoint.
    pub url: String,
    /// The `fetch` to use.
    pub fetch: Fetch,
    /// Extra headers.
    pub headers: HeaderSource,
    /// Tool input schemas, for `Mcp-Param-*` headers.
    pub tool_schemas: ToolSchemas,
    /// Authorization (OAuth), when the server requires it.
    pub auth: Option<Rc<dyn Authorizer>>,
    /// The largest JSON body or SSE event read (`maxMessageBytes`).
    pub max_message_bytes: usize,
    /// How long opening the GET stream may take before it is tried again: the
    /// client's default `timeout`.
    pub open_timeout_ms: u32,
}

impl std::fmt::Debug for StreamableHttpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamableHttpConfig").field("url", &self.url).field("headers", &self.headers).finish()
    }
}

/// The transport. Dropping it aborts every request and stream it started, and
/// opens none again.
#[derive(Debug)]
pub struct StreamableHttp {
    inner: Rc<Inner>,
}

pub(super) struct Inner {
    config: StreamableHttpConfig,
    sink: InboundSink,
    session_id: RefCell<Option<String>>,
    protocol_version: Cell<Option<&'static str>>,
    /// Controllers of the fetches and streams in flight, so close can abort them.
    in_flight: RefCell<IdMap<u64, AbortController>>,
    next_key: Cell<u64>,
    closed: Cell<bool>,
    /// Bumped when the session is reset; a GET stream of an older session stops.
    generation: Cell<u64>,
    /// The in-flight key of the current GET stream connection.
    listen_key: Cell<Option<u64>>,
    /// The last event id the GET stream delivered, kept for snapshots.
    pub(super) listen_event_id: RefCell<Option<String>>,
    /// Whether the 2026-07-28 rules apply (set with the protocol version).
    modern: Cell<bool>,
    /// The in-flight key of each request's fetch, to cancel it by aborting (modern).
    by_request: RefCell<IdMap<RequestId, u64>>,
    /// The legacy requests sent that the session still waits for, each with the in-flight key
    /// of its event stream once it has one: a broken stream is resumed only while its request
    /// is among them. Answered on another stream, timed out or let go, it leaves
    /// (`request_ended`), its stream is hung up on, and a server can no longer keep its stream
    /// coming back, nor hold it open.
    pub(super) open_requests: RefCell<Vec<(RequestId, Option<u64>)>>,
    /// The in-flight key of the stream delivering events at this moment.
    pub(super) pumping: Cell<Option<u64>>,
    /// The `Authorization` header last sent.
    authorization: RefCell<Option<String>>,
    /// A POST's headers, kept while nothing they hold can change (see [`Inner::headers`]).
    post_headers: RefCell<Option<PostHeaders>>,
    /// Woken when the transport closes or its session is reset.
    interruptions: RefCell<Vec<oneshot::Sender<()>>>,
}

impl std::fmt::Debug for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamableHttp")
            .field("url", &self.config.url)
            .field("session_id", &self.session_id.borrow())
            .field("in_flight", &self.in_flight.borrow().len())
            .finish()
    }
}

/// The headers of a POST, and what they were built for.
struct PostHeaders {
    session: Option<String>,
    version: Option<&'static str>,
    headers: Headers,
}

/// Keeps a controller registered while its fetch or stream is alive.
pub(super) struct InFlight {
    inner: Rc<Inner>,
    pub(super) key: u64,
    pub(super) controller: AbortOnDrop,
    request: Option<RequestId>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.inner.in_flight.borrow_mut().remove(&self.key);
        if let Some(id) = &self.request {
            self.inner.by_request.borrow_mut().remove(id);
        }
    }
}

impl StreamableHttp {
    /// A transport that delivers what it receives to `sink`.
    pub fn new(config: StreamableHttpConfig, sink: InboundSink) -> Self {
        let inner = Inner {
            config,
            sink,
            session_id: RefCell::new(None),
            protocol_version: Cell::new(None),
            in_flight: RefCell::default(),
            next_key: Cell::new(0),
            closed: Cell::new(false),
            generation: Cell::new(0),
            listen_key: Cell::new(None),
            listen_event_id: RefCell::new(None),
            modern: Cell::new(false),
            interruptions: RefCell::default(),
            by_request: RefCell::default(),
            open_requests: RefCell::default(),
            pumping: Cell::new(None),
            authorization: RefCell::default(),
            post_headers: RefCell::default(),
        };
        Self { inner: Rc::new(inner) }
    }
}

impl Drop for StreamableHttp {
    fn drop(&mut self) {
        self.inner.shut();
    }
}

impl Transport for StreamableHttp {
    fn send(&self, message: Message) -> LocalBoxFuture<'static, Result<(), Error>> {
        Box::pin(self.inner.clone().post(message))
    }

    fn set_protocol_version(&self, version: &'static str) {
        self.inner.protocol_version.set(Some(version));
        self.inner.modern.set(version == crate::protocol::modern::VERSION);
    }

    fn cancel_request(&self, id: &RequestId) -> bool {
        if !self.inner.is_modern() {
            // The session tells the server (`request_ended` already stopped the stream's resuming).
            return false;
        }
        // Closing the request's stream is the cancellation; nothing is sent.
        let key = self.inner.by_request.borrow_mut().remove(id);
        if let Some(controller) = key.and_then(|key| self.inner.in_flight.borrow_mut().remove(&key)) {
            controller.abort();
        }
        true
    }

    fn request_ended(&self, id: &RequestId) {
        let inner = &self.inner;
        let stream = {
            let mut open = inner.open_requests.borrow_mut();
            open.iter().position(|(open, _)| open == id).and_then(|at| open.swap_remove(at).1)
        };
        // Its own event stream, if still open (the request timed out, was let go, or was answered
        // on another stream): nobody waits for what it would bring, and an open stream holds one
        // of the few connections a browser allows an origin. Not the stream delivering its answer
        // now, which ends by itself.
        if let Some(key) = stream.filter(|&key| inner.pumping.get() != Some(key)) {
            let controller = inner.in_flight.borrow_mut().remove(&key);
            if let Some(controller) = controller {
                controller.abort();
            }
        }
    }

    fn listen(&self) {
        wasm_bindgen_futures::spawn_local(self.inner.clone().follow(None, Purpose::Listen));
    }

    fn session_id(&self) -> Option<String> {
        self.inner.session_id.borrow().clone()
    }

    fn authorization(&self) -> LocalBoxFuture<'_, Result<Option<String>, Error>> {
        Box::pin(async move {
            let inner = &self.inner;
            // OAuth's header wins, as it does on a request: its token is the one last sent,
            // which only this client's own grant changes. Else a `headers` function may give
            // each request another caller's, so it is asked now.
            if inner.config.auth.is_some() {
                return Ok(inner.authorization.borrow().clone());
            }
            Ok(inner.config.headers.to_headers().await?.get("authorization").ok().flatten())
        })
    }

    fn user_wait_ms(&self) -> u64 {
        self.inner.config.auth.as_ref().map_or(0, |auth| auth.user_wait_ms())
    }

    fn reset_session(&self) {
        // Only the GET stream belongs to the old session alone; POSTs in
        // flight come back "expired" and are replayed by the client.
        let inner = &self.inner;
        inner.generation.set(inner.generation.get() + 1);
        if let Some(key) = inner.listen_key.take() {
            if let Some(controller) = inner.in_flight.borrow_mut().remove(&key) {
                controller.abort();
            }
        }
        *inner.session_id.borrow_mut() = None;
        *inner.listen_event_id.borrow_mut() = None;
        inner.protocol_version.set(None);
        inner.interrupt();
    }

    fn last_event_id(&self) -> Option<String> {
        self.inner.listen_event_id.borrow().clone()
    }

    fn adopt_session(&self, session_id: Option<String>, last_event_id: Option<String>) {
        *self.inner.session_id.borrow_mut() = session_id;
        *self.inner.listen_event_id.borrow_mut() = last_event_id;
    }

    fn close(&self) -> LocalBoxFuture<'static, ()> {
        let inner = self.inner.clone();
        Box::pin(async move {
            if inner.closed.get() {
                return;
            }
            inner.shut();
            let session = inner.session_id.borrow().clone();
            if let Some(session) = session {
                let delete = Box::pin(inner.clone().delete_session(session));
                let _ = crate::session::within(delete, WebRuntime.sleep(super::GOODBYE_TIMEOUT_MS)).await;
            }
        })
    }
}

impl Inner {
    /// Whether the connection speaks 2026-07-28; constant without the
    /// `modern` feature, so that the era's paths drop out of the build.
    fn is_modern(&self) -> bool {
        cfg!(feature = "modern") && self.modern.get()
    }

    pub(super) fn track(self: &Rc<Self>) -> Result<InFlight, Error> {
        let controller = if self.config.fetch.is_custom() { AbortOnDrop::new()? } else { AbortOnDrop::reusable()? };
        let key = self.next_key.get();
        self.next_key.set(key + 1);
        self.in_flight.borrow_mut().insert(key, controller_handle(&controller));
        Ok(InFlight { inner: self.clone(), key, controller, request: None })
    }

    /// Completes when the transport closes or its session is reset.
    pub(super) fn interruption(&self) -> oneshot::Receiver<()> {
        let (sender, receiver) = oneshot::channel();
        let mut waiting = self.interruptions.borrow_mut();
        waiting.retain(|s| !s.is_canceled());
        waiting.push(sender);
        receiver
    }

    fn interrupt(&self) {
        for sender in self.interruptions.borrow_mut().drain(..) {
            let _ = sender.send(());
        }
    }

    /// Marks the transport closed, then aborts what it has in flight and wakes what
    /// waits to retry: closed first, or a stream's task, which holds this part, would
    /// take its aborted stream for a dropped one and open it again.
    fn shut(&self) {
        self.closed.set(true);
        self.open_requests.borrow_mut().clear();
        self.abort_all();
        self.interrupt();
    }

    fn abort_all(&self) {
        let controllers: Vec<_> = self.in_flight.borrow_mut().drain().map(|(_, c)| c).collect();
        for controller in controllers {
            controller.abort();
        }
    }

    /// The headers of a request: the user's, OAuth's, then ours.
    ///
    /// A POST's headers are built once and reused (`fetch` copies them into
    /// its request) while they cannot change: no user headers, no OAuth, no
    /// per-message headers of the 2026-07-28 era, and the same session and
    /// revision. That spares each call about ten crossings into JS (a
    /// custom `fetch` gets a copy, in one).
    pub(super) async fn headers(&self, method: &str, accept: &str, message: Option<&Message>) -> Result<Headers, Error> {
        let with_body = method == "POST";
        let reusable = with_body && matches!(self.config.headers, HeaderSource::None) && self.config.auth.is_none() && !self.is_modern();
        let fits = |kept: &&PostHeaders| kept.session == *self.session_id.borrow() && kept.version == self.protocol_version.get();
        if let Some(kept) = self.post_headers.borrow().as_ref().filter(|kept| reusable && fits(kept)) {
            // A custom `fetch` may change what it is given: it gets a copy.
            return match self.config.fetch.is_custom() {
                true => Headers::new_with_headers(&kept.headers).map_err(invalid_headers),
                false => Ok(kept.headers.clone()),
            };
        }
        // Our own headers are set afterwards so that they win.
        let headers = self.config.headers.to_headers().await?;
        if let Some(auth) = &self.config.auth {
            self.set_auth_headers(auth, &headers, method).await?;
        }
        *self.authorization.borrow_mut() = headers.get("authorization").ok().flatten();
        headers.set("accept", accept).map_err(invalid_headers)?;
        if with_body {
            headers.set("content-type", "application/json").map_err(invalid_headers)?;
        }
        if let Some(id) = self.session_id.borrow().as_deref() {
            headers.set(http::SESSION_ID, id).map_err(invalid_headers)?;
        }
        if let Some(version) = self.protocol_version.get() {
            headers.set(http::PROTOCOL_VERSION, version).map_err(invalid_headers)?;
        }
        if let (true, Some(message)) = (self.is_modern(), message) {
            for (name, value) in self.standard_headers(message) {
                headers.set(&name, &value).map_err(invalid_headers)?;
            }
        }
        if reusable {
            let (session, version) = (self.session_id.borrow().clone(), self.protocol_version.get());
            // What a custom `fetch` is given now, it may change: keep a copy.
            let kept = match self.config.fetch.is_custom() {
                true => Headers::new_with_headers(&headers).map_err(invalid_headers)?,
                false => headers.clone(),
            };
            *self.post_headers.borrow_mut() = Some(PostHeaders { session, version, headers: kept });
        }
        Ok(headers)
    }

    /// Sets the headers OAuth adds to a request (`authorization`, `dpop`).
    ///
    /// A future of its own, not awaited inline: a page without `auth` never polls it, and
    /// the core's split (scripts/split/) leaves it out of the module a page loads first.
    #[inline(never)]
    fn set_auth_headers<'a>(
        &'a self,
        auth: &'a Rc<dyn Authorizer>,
        headers: &'a Headers,
        method: &'a str,
    ) -> LocalBoxFuture<'a, Result<(), Error>> {
        Box::pin(async move {
            for (name, value) in auth.clone().request_headers(method, &self.config.url).await? {
                headers.set(&name, &value).map_err(invalid_headers)?;
            }
            Ok(())
        })
    }

    /// The 2026-07-28 standard headers: `Mcp-Method`, `Mcp-Name`, and an
    /// `Mcp-Param-*` for each argument the tool's schema annotates.
    fn standard_headers(&self, message: &Message) -> Vec<(String, String)> {
        let (method, params) = match message {
            Message::Request { method, params, .. } | Message::Notification { method, params } => (method, params.as_ref()),
            Message::Response { .. } => return Vec::new(),
        };
        let mut headers = vec![("mcp-method".to_owned(), method.clone())];
        let name = modern::mcp_name(method, params);
        if let Some(name) = &name {
            // Header values must be visible ASCII; names and URIs that are not go encoded.
            let value = modern::encode_header_value(&serde_json::Value::String(name.clone())).unwrap_or_else(|| name.clone());
            headers.push(("mcp-name".to_owned(), value));
        }
        if method == "tools/call" {
            // By `&str`, the key type every other lookup of the first call's module uses: a `&String`
            // lookup is a second copy of the map's search.
            // The client keeps the schemas of the tools that declare header parameters alone, so
            // only their calls have their arguments read.
            let schemas = self.config.tool_schemas.borrow();
            if let Some(schema) = name.and_then(|tool| schemas.get(tool.as_str())) {
                headers.extend(modern::param_headers(schema, params.and_then(|p| p.member("arguments")).as_ref()));
            }
        }
        headers
    }

    /// Sends `message` once, with fresh headers (and a fresh OAuth proof);
    /// a JSON answer comes read (see [`Fetch::send_for_answer`]).
    async fn send_post(&self, message: &Message, body: &str, signal: &web_sys::AbortSignal) -> Result<(Response, Option<Answered>), Error> {
        let headers = self.headers("POST", http::ACCEPT_POST, Some(message)).await?;
        // `headers` has just noted their Authorization (none when they are reused): no second look.
        let follow = if self.authorization.borrow().is_some() { Follow::SameOrigin } else { Follow::Any };
        let request = HttpRequest { method: "POST", url: &self.config.url, headers, body: Some(body), signal, follow };
        self.config.fetch.send_for_answer(request, self.config.max_message_bytes).await
    }

    async fn post(self: Rc<Self>, message: Message) -> Result<(), Error> {
        if self.closed.get() {
            return Err(Error::Closed);
        }
        let request_id = match &message {
            Message::Request { id, .. } => Some(id.clone()),
            _ => None,
        };
        let is_initialize = message.method() == Some(methods::INITIALIZE);
        let sent_session = self.session_id.borrow().is_some();
        let body = message.to_json();
        let mut in_flight = self.track()?;
        match (self.is_modern(), &request_id) {
            (true, Some(id)) => {
                self.by_request.borrow_mut().insert(id.clone(), in_flight.key);
                in_flight.request = Some(id.clone());
            }
            // Sent again after a session reset, a request is open once.
            (false, Some(id)) if !self.is_open(id) => self.open_requests.borrow_mut().push((id.clone(), None)),
            _ => {}
        }
        let signal = in_flight.controller.signal();
        let (response, answered) = {
            let mut retries = AuthRetries::default();
            loop {
                let (response, answered) = match self.send_post(&message, &body, &signal).await {
                    Ok(sent) => sent,
                    // Aborted by close: the call ends as every call does then.
                    Err(_) if self.closed.get() => return Err(Error::Closed),
                    Err(error) => return Err(error),
                };
                let again = match &self.config.auth {
                    Some(auth) => self.authorize_again(auth, &response, &mut retries).await?,
                    None => false,
                };
                if !again {
                    break (response, answered);
                }
            }
        };
        let status = response.status();
        if !(200..300).contains(&status) {
            let text = error_text(&response).await;
            if self.is_modern() && matches!(status, 400 | 404) {
                // 2026-07-28 answers refusals (header mismatch, unknown method,
                // unsupported version) with a JSON-RPC error in a 4xx body.
                if let Some(error) = http::json_rpc_error(&text) {
                    return Err(Error::Rpc(error));
                }
            }
            let missing_session = !self.is_modern() && !is_initialize && !sent_session;
            let readable = Readable { without_session: missing_session, ..readable(&response) };
            return Err(status_error_with(status, &response.status_text(), &text, sent_session, readable));
        }
        if is_initialize && !self.is_modern() {
            self.adopt_session_id(&response)?;
        }
        // The glue reads the body of a JSON answer alone (`fetchAnswer`), so it has read the type.
        let read_type;
        let content_type = match answered {
            Some(_) => Some("application/json"),
            None => {
                read_type = header(&response, "content-type");
                read_type.as_deref()
            }
        };
        match classify(status, content_type, request_id.is_some())? {
            ResponseBody::Empty => {
                release(&response, &in_flight.controller);
                Ok(())
            }
            ResponseBody::Json => {
                let (max, limit) = (self.config.max_message_bytes, "maxMessageBytes");
                let body = match answered {
                    // The modern era rewrites results, which a body left in JS would not see.
                    Some(answered) if !self.is_modern() => answered.body(max, limit)?,
                    Some(answered) => Body::Text(answered.text(max, limit)?),
                    None => Body::Text(read_text_capped(&response, max, limit).await?),
                };
                in_flight.controller.finished();
                let answered = match body {
                    Body::Text(text) => self.deliver(text, request_id.as_ref())?,
                    Body::Kept { text, body } => self.deliver_kept(text, body, request_id.as_ref())?,
                };
                match request_id {
                    Some(id) if !answered => Err(Error::protocol(format!("the JSON response does not answer request {id}"))),
                    _ => Ok(()),
                }
            }
            ResponseBody::EventStream => {
                let reader = BodyReader::new(&response)?;
                let purpose = match request_id {
                    Some(id) => Purpose::Response(id),
                    None => Purpose::Listen,
                };
                wasm_bindgen_futures::spawn_local(self.clone().follow(Some((reader, in_flight)), purpose));
                Ok(())
            }
        }
    }

    fn adopt_session_id(&self, response: &Response) -> Result<(), Error> {
        match header(response, http::SESSION_ID) {
            Some(id) if crate::protocol::lifecycle::valid_session_id(&id) => {
                *self.session_id.borrow_mut() = Some(id);
                Ok(())
            }
            Some(_) => Err(Error::protocol("the server issued an Mcp-Session-Id that is not 1 to 8192 visible ASCII characters".into())),
            None => Ok(()),
        }
    }

    /// Decodes one JSON text and hands its messages to the session. Returns
    /// whether it held the response to `awaited`.
    pub(super) fn deliver(&self, text: String, awaited: Option<&RequestId>) -> Result<bool, Error> {
        let allow_batch = version::allows_batches(self.protocol_version.get());
        deliver_text(&self.sink, text, allow_batch, awaited).map_err(|e| Error::protocol(e.to_string()))
    }

    /// [`Inner::deliver`] for a body left in JS: a successful response goes
    /// on with the text its checks read; anything else (no text holds what
    /// the checks need then) is read in whole and delivered so.
    fn deliver_kept(&self, text: String, body: Rc<KeptBody>, awaited: Option<&RequestId>) -> Result<bool, Error> {
        if let Ok(Decoded::RawResult(id, raw)) = decode_or_raw(text, false) {
            let answered = awaited == Some(&id);
            (self.sink)(Inbound::RawResponse { id, text: Rc::new(raw), kept: Some(body) });
            return Ok(answered);
        }
        let whole = body.read().ok_or_else(|| Error::protocol("the response body can no longer be read".into()))?;
        self.deliver(whole, awaited)
    }

    async fn delete_session(self: Rc<Self>, session: String) {
        let Ok(in_flight) = self.track() else { return };
        let Ok(headers) = self.headers("DELETE", "application/json, text/event-stream", None).await else { return };
        // `headers()` reads the id from the session slot, which close keeps.
        let _ = headers.set(http::SESSION_ID, &session);
        let follow = Follow::for_headers(&headers);
        let request =
            HttpRequest { method: "DELETE", url: &self.config.url, headers, body: None, signal: &in_flight.controller.signal(), follow };
        // Best effort: 405 means the server does not let clients end sessions.
        let _ = self.config.fetch.send(request).await;
    }
}

/// What CORS let us read of a refused response.
fn readable(response: &Response) -> Readable {
    Readable { www_authenticate: header(response, "www-authenticate").is_some(), without_session: false }
}

/// A header the platform refused, as the caller's mistake.
fn invalid_headers(e: JsValue) -> Error {
    Error::invalid_argument(format!("invalid headers: {}", js_message(&e)))
}

fn controller_handle(controller: &AbortOnDrop) -> AbortController {
    controller.handle()
}

/// One re-authorization after a 401, one step-up after a 403
/// insufficient_scope, one retry with a DPoP nonce the server asks for;
/// after that the refusal stands.
#[derive(Default)]
struct AuthRetries {
    reauthorized: bool,
    stepped_up: bool,
    nonced: bool,
}

impl Inner {
    /// Whether `response` is a refusal that authorization has answered, so
    /// that the request should go out again.
    ///
    /// A future of its own, not awaited inline: a page without `auth` never polls it, and
    /// the core's split (scripts/split/) leaves it out of the module a page loads first.
    #[inline(never)]
    fn authorize_again<'a>(
        &'a self,
        auth: &'a Rc<dyn Authorizer>,
        response: &'a Response,
        retries: &'a mut AuthRetries,
    ) -> LocalBoxFuture<'a, Result<bool, Error>> {
        Box::pin(async move {
            let needs_nonce = auth.needs_nonce(&self.config.url, response);
            match response.status() {
                401 if needs_nonce && !retries.nonced => retries.nonced = true,
                401 if !retries.reauthorized => {
                    retries.reauthorized = true;
                    auth.clone().unauthorized(response).await?;
                }
                403 if !retries.stepped_up => {
                    retries.stepped_up = true;
                    return auth.clone().step_up(response).await;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })
    }
}
