//! The `McpClient` class: connection, lifecycle, events and the request path
//! every method shares. The server features are in `features.rs`.

use super::abort::aborted;
use super::connect::{connect, resume, Era, Parts, Target};
use super::convert::to_js;
use super::custom_transport::is_transport;
use super::error::to_js_error;
use super::events::Events;
use super::handlers::JsHandlers;
use super::list_changed::ListWatchers;
use super::options::{connect_options, endpoint_url, request_options, RequestOptions};
use crate::error::Error;
use crate::protocol::capabilities::{check_server_supports, client_capabilities};
use crate::protocol::lifecycle::ServerIdentity;
use crate::protocol::{methods, results};
use crate::session::lifecycle::{initialize, Offer};
use crate::session::snapshot::Snapshot;
use crate::session::{CallOptions, ProgressListener, Session};
use crate::transport::streamable_http::{ConnectionStatus, ToolSchemas};
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use js_sys::{Function, Promise};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

/// How many notifications a `notifications()` iterator buffers before it
/// ends with a `lagged` error, unless the caller asks for another size.
const DEFAULT_NOTIFICATION_BUFFER: usize = 1_024;

/// A connection to one MCP server over HTTP.
///
/// Create one with {@link McpClient.connect}; it is ready to use when the
/// promise resolves. Every method returns a Promise and takes an optional
/// `options` bag with an `AbortSignal`, a timeout and a progress callback.
/// Server notifications arrive as events ({@link McpClient.addEventListener})
/// or through {@link McpClient.notifications}. Call {@link McpClient.close}
/// when done, so the server can release the session.
///
/// @example
/// ```ts
/// const client = await McpClient.connect("https://example.com/mcp");
/// const { tools } = await client.listTools();
/// const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
/// await client.close();
/// ```
#[wasm_bindgen]
pub struct McpClient {
    pub(super) state: Rc<ClientState>,
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("protocol_version", &self.state.identity.borrow().protocol_version)
            .field("session", &self.state.session)
            .finish()
    }
}

pub(super) struct ClientState {
    /// The MCP endpoint (`None` for a custom transport).
    pub url: Option<String>,
    pub session: Session,
    /// `"streamable-http"`, `"sse"` or `"custom"`.
    pub transport_kind: &'static str,
    /// The protocol era the connection speaks.
    pub era: Era,
    /// The sampling, elicitation and roots handlers (also used for modern input).
    pub handlers: Rc<JsHandlers>,
    /// Tool input schemas, shared with the transport for `Mcp-Param-*` headers.
    pub tool_schemas: ToolSchemas,
    /// The level set with `setLoggingLevel`, sent in `_meta` in the modern era.
    pub log_level: RefCell<Option<String>>,
    /// The cap on multi-round-trip input.
    pub max_input_rounds: u32,
    /// Subscribed resources (modern era: carried by `subscriptions/listen`).
    pub subscriptions: RefCell<std::collections::BTreeSet<String>>,
    /// The `subscriptions/listen` stream (modern era).
    pub listening: super::listen::Listening,
    /// Cached list and read results (the `cache` option, modern era).
    pub cache: Option<crate::session::cache::ResponseCache>,
    /// What `initialize` said; replaced when an expired session is renewed.
    pub identity: RefCell<ServerIdentity>,
    /// What the client offered, to offer it again on renewal.
    pub offer: Offer,
    /// A renewal in progress, shared by every request that hit the expiry.
    renewal: RefCell<Option<Renewal>>,
    pub me: Weak<ClientState>,
    pub events: Rc<Events>,
    /// Refuse calls the server did not declare support for.
    pub strict: bool,
    /// Check `structuredContent` against the tool's `outputSchema`.
    pub validate_output: bool,
    /// The `outputSchema` of every tool seen in a `tools/list` result.
    pub output_schemas: RefCell<HashMap<String, Value>>,
    /// The tools whose last listing declared `idempotentHint: true`: the only
    /// calls sent again after a broken stream.
    pub idempotent_tools: RefCell<std::collections::HashSet<String>>,
    /// The bounds on what the server can make the client do.
    pub limits: crate::session::limits::Limits,
    /// Evaluates `pattern` keywords; keeps the compiled patterns across calls.
    pub patterns: crate::protocol::schema::LinearPatterns,
}

/// A session renewal, awaited by every request that found the session gone.
type Renewal = Shared<LocalBoxFuture<'static, Result<(), Error>>>;

/// The reason to reject with after `signal` fired: `signal.reason` itself, as
/// the web platform's own APIs do.
fn abort_reason(signal: Option<&AbortSignal>) -> JsValue {
    signal.map_or(JsValue::UNDEFINED, AbortSignal::reason)
}

/// What a promise rejects with, as an error type that can also carry an
/// abort reason through Rust code.
pub(super) struct Rejection(pub JsValue);

impl From<Error> for Rejection {
    fn from(error: Error) -> Self {
        Self(to_js_error(&error))
    }
}

/// A result and, for a large legacy result, the server's own text of it.
pub(super) struct Reply {
    /// The parsed result, as checked.
    pub value: Value,
    raw: Option<Rc<str>>,
}

impl Reply {
    fn new(value: Value, raw: Option<Rc<str>>) -> Self {
        Self { value, raw }
    }

    /// The value to change, which makes the kept text stale: it is dropped.
    pub fn value_mut(&mut self) -> &mut Value {
        self.raw = None;
        &mut self.value
    }

    /// The result for JS: `JSON.parse` of the server's text when it was
    /// kept (one pass, the server's key order), else the value converted.
    pub fn to_js(&self) -> Result<JsValue, Rejection> {
        match &self.raw {
            Some(text) => js_sys::JSON::parse(text).map_err(|_| Error::Protocol("cannot convert a result to JS".into()).into()),
            None => js(&self.value),
        }
    }
}

/// What every method's promise runs.
pub(super) type Work = futures::future::LocalBoxFuture<'static, Result<JsValue, Rejection>>;

/// Runs `work` as the Promise a method returns. Not generic on purpose: one
/// `future_to_promise` instance serves every method instead of one copy each.
pub(super) fn promise(work: Work) -> Promise {
    future_to_promise(async move { work.await.map_err(|Rejection(value)| value) })
}

impl ClientState {
    /// Sends a request; fails with `unsupported` before sending when the
    /// server did not declare the capability, and rejects with the abort
    /// signal's reason when aborted.
    pub async fn request(&self, method: &str, params: Option<Value>, options: &RequestOptions) -> Result<Value, Rejection> {
        self.request_reply(method, params, options).await.map(|reply| reply.value)
    }

    /// [`ClientState::request`], keeping a large legacy result's text for JS.
    pub async fn request_reply(&self, method: &str, params: Option<Value>, options: &RequestOptions) -> Result<Reply, Rejection> {
        if self.strict {
            check_server_supports(&self.identity.borrow().capabilities, method).map_err(Error::Unsupported)?;
        }
        self.request_unchecked(method, params, options).await
    }

    /// [`ClientState::request_reply`] without the capability check.
    pub async fn request_unchecked(&self, method: &str, params: Option<Value>, options: &RequestOptions) -> Result<Reply, Rejection> {
        if let Some(signal) = options.signal.as_ref().filter(|s| s.aborted()) {
            // Nothing is sent for a request that was aborted before it started.
            return Err(Rejection(signal.reason()));
        }
        if self.era == Era::Modern {
            let Some(cache) = self.cache.as_ref().filter(|_| crate::session::cache::CACHEABLE.contains(&method)) else {
                return self.request_modern(method, params, options).await.map(|value| Reply::new(value, None));
            };
            let auth = crate::session::cache::auth_context(self.session.transport().authorization().as_deref());
            let now = js_sys::Date::now();
            if let Some(hit) = cache.get(method, params.as_ref(), &auth, now) {
                return Ok(Reply::new(hit, None));
            }
            let result = self.request_modern(method, params.clone(), options).await?;
            cache.put(method, params.as_ref(), &auth, &result, now);
            return Ok(Reply::new(result, None));
        }
        let on_progress = self.progress_listener(options);
        let call = || self.call_options(options, on_progress.clone());
        self.wait_for_renewal().await;
        let session_used = self.session.transport().session_id();
        let mut outcome = self.session.request_raw(method, params.clone(), call()).await;
        if let Err(Error::SessionExpired { .. }) = outcome {
            // The server forgot the session: start a new one (unless another
            // request already did) and replay once.
            if self.session.transport().session_id() == session_used {
                self.renew_session().await?;
            } else {
                self.wait_for_renewal().await;
            }
            outcome = self.session.request_raw(method, params, call()).await;
        }
        match outcome {
            Ok((value, raw)) => Ok(Reply::new(value, raw)),
            Err(Error::Cancelled { .. }) => Err(Rejection(abort_reason(options.signal.as_ref()))),
            Err(error) => Err(error.into()),
        }
    }

    /// The `onprogress` callback as the session wants it; a throwing callback
    /// is reported as an `error` event, never allowed to break the request.
    pub fn progress_listener(&self, options: &RequestOptions) -> Option<ProgressListener> {
        options.on_progress.clone().map(|callback: Function| {
            let events = Rc::downgrade(&self.events);
            Rc::new(move |params: &Value| {
                let value = to_js(params).unwrap_or(JsValue::UNDEFINED);
                if let (Err(thrown), Some(events)) = (callback.call1(&JsValue::UNDEFINED, &value), events.upgrade()) {
                    events.dispatch_error(&thrown);
                }
            }) as ProgressListener
        })
    }

    /// The session's options for one attempt of a request.
    pub fn call_options(&self, options: &RequestOptions, on_progress: Option<ProgressListener>) -> CallOptions {
        CallOptions {
            timeout_ms: options.timeout_ms,
            cancel: options.signal.as_ref().map(aborted),
            on_progress,
            reset_timeout_on_progress: options.reset_timeout_on_progress,
            max_total_timeout_ms: options.max_total_timeout_ms,
            unbounded: false,
        }
    }

    /// Waits for a renewal in progress, so that no request goes out without a session.
    async fn wait_for_renewal(&self) {
        let pending = self.renewal.borrow().clone();
        if let Some(renewal) = pending {
            let _ = renewal.await;
        }
    }

    /// Runs the handshake again after the server ended the session, once for
    /// every request that noticed, and tells listeners.
    pub async fn renew_session(&self) -> Result<(), Error> {
        let pending = self.renewal.borrow().clone();
        let renewal = match pending {
            Some(renewal) => renewal,
            None => {
                let me = self.me.clone();
                let renewal = async move {
                    let Some(state) = me.upgrade() else { return Err(Error::Closed) };
                    let previous = state.session.transport().session_id();
                    state.session.transport().reset_session();
                    let renewed = initialize(&state.session, &state.offer, CallOptions::default()).await;
                    state.renewal.borrow_mut().take();
                    let identity = renewed.map_err(Error::from)?;
                    *state.identity.borrow_mut() = identity;
                    state.events.dispatch_session_renewed(previous.as_deref(), state.session.transport().session_id().as_deref());
                    Ok(())
                }
                .boxed_local()
                .shared();
                *self.renewal.borrow_mut() = Some(renewal.clone());
                renewal
            }
        };
        renewal.await
    }

    /// Closes the session, and the first time tells listeners and ends the
    /// notification iterators.
    async fn close(&self) {
        let first = !self.session.is_closed();
        self.session.close().await;
        if first {
            self.events.dispatch_plain("close");
            self.events.shut();
        }
    }

    /// Sends a request and checks its result's shape before handing it to JS.
    pub async fn call(
        &self,
        method: &str,
        params: Option<Value>,
        options: &RequestOptions,
        check: fn(&Value) -> Result<(), String>,
    ) -> Result<Value, Rejection> {
        self.call_reply(method, params, options, check).await.map(|reply| reply.value)
    }

    /// [`ClientState::call`], keeping a large legacy result's text for JS.
    pub async fn call_reply(
        &self,
        method: &str,
        params: Option<Value>,
        options: &RequestOptions,
        check: fn(&Value) -> Result<(), String>,
    ) -> Result<Reply, Rejection> {
        let reply = self.request_reply(method, params, options).await?;
        check(&reply.value).map_err(Error::Protocol)?;
        Ok(reply)
    }
}

/// Converts a result for JS.
pub(super) fn js(value: &Value) -> Result<JsValue, Rejection> {
    to_js(value).map_err(Rejection::from)
}

/// Reads `options` for a request.
pub(super) fn read_options(options: &JsValue) -> Result<RequestOptions, Rejection> {
    request_options(options).map_err(Rejection::from)
}

#[wasm_bindgen]
impl McpClient {
    /// Connects to the MCP server at `url` and performs the `initialize`
    /// handshake, offering protocol revision 2025-11-25 and accepting the
    /// server's counter-offer of 2025-06-18, 2025-03-26 or 2024-11-05.
    ///
    /// The client's capabilities follow from the `handlers` given: a
    /// `sampling` handler declares `sampling`, and so on.
    ///
    /// @throws {McpClientError} `invalid-argument` for a bad URL or option;
    /// `network`, `http`, `protocol` or `timeout` when the server cannot be
    /// reached or answers wrongly; `unsupported-version` when it insists on a
    /// revision this client does not speak.
    /// @throws {McpError} when the server refuses `initialize`.
    pub async fn connect(
        #[wasm_bindgen(unchecked_param_type = "string | URL | McpTransport")] target: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "McpClientOptions")] options: JsValue,
    ) -> Result<McpClient, JsValue> {
        let fail = |e: Error| to_js_error(&e);
        let target = if is_transport(&target) { Target::Custom(target) } else { Target::Url(endpoint_url(&target).map_err(fail)?) };
        Self::open(target, &options, None).await
    }

    /// Continues a connection saved with {@link McpClient.snapshot} or
    /// {@link McpClient.suspend}, for example in a later Worker invocation,
    /// without a new handshake: a legacy session is taken over by its id
    /// (its GET stream resumes after the last event id), a modern connection
    /// reuses the kept `server/discover` result. If the server has forgotten
    /// the session, the first request starts a new one with `initialize`
    /// (a `sessionrenewed` event tells). HTTP+SSE sessions end with their
    /// stream, so an `sse` snapshot connects anew. Pass the same `options` as
    /// to `connect` (headers, auth, handlers): they are not in the snapshot.
    ///
    /// @throws {McpClientError} `invalid-argument` for a value that is not a
    /// snapshot, naming the bad field.
    pub async fn resume(
        #[wasm_bindgen(unchecked_param_type = "McpSnapshot")] snapshot: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "McpClientOptions")] options: JsValue,
    ) -> Result<McpClient, JsValue> {
        let fail = |e: Error| to_js_error(&e);
        let value = super::convert::from_js(&snapshot, "snapshot").map_err(fail)?;
        let snapshot = Snapshot::from_value(&value).map_err(|why| fail(Error::InvalidArgument(why)))?;
        Self::open(Target::Url(snapshot.url.clone()), &options, Some(snapshot)).await
    }

    /// The connection as a small JSON object to keep (KV, a Durable Object,
    /// `sessionStorage`) and pass to {@link McpClient.resume} later: the
    /// URL, era, transport, protocol version, session id, the GET stream's
    /// last event id, and what the server declared. It holds no credentials.
    ///
    /// @throws {McpClientError} `invalid-argument` for a custom transport,
    /// which cannot be re-created from data; `closed` after `close()`.
    #[wasm_bindgen(unchecked_return_type = "McpSnapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        let state = &self.state;
        let fail = |e: Error| to_js_error(&e);
        if state.session.is_closed() {
            return Err(fail(Error::Closed));
        }
        let Some(url) = state.url.clone() else {
            return Err(fail(Error::InvalidArgument("a connection over a custom transport cannot be snapshotted".into())));
        };
        let transport = state.session.transport();
        let snapshot = Snapshot {
            url,
            modern: state.era == Era::Modern,
            transport: state.transport_kind.to_owned(),
            identity: state.identity.borrow().clone(),
            session_id: transport.session_id(),
            last_event_id: transport.last_event_id(),
        };
        to_js(&snapshot.to_value()).map_err(fail)
    }

    /// Takes a {@link McpClient.snapshot} and then closes this client
    /// locally without ending the server's session (no HTTP DELETE), so the
    /// snapshot can be resumed. What a Worker calls at the end of a request.
    #[wasm_bindgen(unchecked_return_type = "Promise<McpSnapshot>")]
    pub fn suspend(&self) -> Result<Promise, JsValue> {
        let snapshot = self.snapshot()?;
        let state = self.state.clone();
        Ok(promise(Box::pin(async move {
            state.session.transport().adopt_session(None, None);
            state.close().await;
            Ok(snapshot)
        })))
    }
}

impl McpClient {
    /// `connect` and `resume`: everything but the handshake is shared.
    async fn open(target: Target, options: &JsValue, snapshot: Option<Snapshot>) -> Result<McpClient, JsValue> {
        let fail = |e: Error| to_js_error(&e);
        let options = connect_options(options).map_err(fail)?;
        if let Some(signal) = options.signal.as_ref().filter(|s| s.aborted()) {
            return Err(signal.reason());
        }
        let events = Rc::new(Events::default());
        let handlers = Rc::new(JsHandlers::from_js(&options.handlers, Rc::downgrade(&events), options.limits.schema).map_err(fail)?);
        let watchers = ListWatchers::from_js(&options.list_changed).map_err(fail)?;
        let capabilities = client_capabilities(handlers.present(), options.capabilities.as_ref());
        // The status listener needs the client state, which exists only after the handshake.
        let state_slot: Rc<RefCell<Weak<ClientState>>> = Rc::default();
        let on_status = {
            let state_slot = state_slot.clone();
            Rc::new(move |status: ConnectionStatus| {
                let Some(state) = state_slot.borrow().upgrade() else { return };
                match status {
                    ConnectionStatus::SessionExpired => {
                        wasm_bindgen_futures::spawn_local(async move {
                            if let Err(error) = state.renew_session().await {
                                state.events.dispatch_error(&to_js_error(&error));
                            }
                        });
                    }
                    other => state.events.dispatch_connection(other),
                }
            }) as Rc<dyn Fn(ConnectionStatus)>
        };
        let listener_events = Rc::downgrade(&events);
        let listener = Rc::new(move |method: &str, params: Option<&Value>| {
            if let Some(events) = listener_events.upgrade() {
                events.notify(method, params);
            }
        });
        let signal = options.signal.clone();
        let tool_schemas: ToolSchemas = Rc::default();
        let auth = match (&target, &options.auth) {
            (Target::Url(url), Some(config)) => {
                // Tokens travel to this URL: it must not be readable on the way.
                if !crate::protocol::oauth::endpoint_allowed(url) {
                    return Err(fail(Error::InvalidArgument(format!(
                        "with auth, the MCP URL must be https, or http on a loopback host: {url}"
                    ))));
                }
                let config = crate::transport::oauth::OAuthConfig { mcp_url: url.clone(), ..config.clone() };
                Some(Rc::new(crate::transport::oauth::OAuth::new(config, crate::transport::fetch::Fetch::new(options.fetch.clone()))))
            }
            _ => None,
        };
        if let Some(auth) = &auth {
            auth.restore().await;
        }
        let problem_events = Rc::downgrade(&events);
        let problems = Rc::new(move |problem: Error| {
            if let Some(events) = problem_events.upgrade() {
                events.dispatch_error(&to_js_error(&problem));
            }
        });
        let parts = Parts {
            problems,
            auth,
            tool_schemas: tool_schemas.clone(),
            handlers,
            listener,
            on_status,
            offer: Offer { protocol_version: options.protocol_version, capabilities, client_info: options.client_info.clone() },
            cancel: signal
                .clone()
                .map(|s| Rc::new(move || aborted(&s)) as Rc<dyn Fn() -> futures::future::LocalBoxFuture<'static, String>>),
        };
        let url = match &target {
            Target::Url(url) => Some(url.clone()),
            Target::Custom(_) => None,
        };
        let attempt = match snapshot {
            Some(snapshot) => resume(snapshot, &options, &parts).await,
            None => connect(target, &options, &parts).await,
        };
        let connected = match attempt {
            Ok(connected) => connected,
            Err(Error::Cancelled { .. }) => return Err(abort_reason(signal.as_ref())),
            Err(other) => return Err(fail(other)),
        };
        let state = Rc::new_cyclic(|me| ClientState {
            url,
            session: connected.session,
            transport_kind: connected.kind,
            era: connected.era,
            handlers: parts.handlers.clone(),
            tool_schemas,
            log_level: RefCell::new(None),
            max_input_rounds: options.max_input_rounds,
            subscriptions: RefCell::default(),
            listening: Default::default(),
            cache: options.cache.map(crate::session::cache::ResponseCache::new),
            limits: options.limits,
            patterns: crate::protocol::schema::LinearPatterns::default(),
            identity: RefCell::new(connected.identity),
            offer: parts.offer,
            renewal: RefCell::default(),
            me: me.clone(),
            events,
            strict: options.strict,
            validate_output: options.validate_output,
            output_schemas: RefCell::default(),
            idempotent_tools: RefCell::default(),
        });
        *state_slot.borrow_mut() = Rc::downgrade(&state);
        watchers.attach(&state);
        if state.cache.is_some() {
            let weak = Rc::downgrade(&state);
            state.events.add_hook(Rc::new(move |method: &str| {
                if let Some(cache) = weak.upgrade().as_ref().and_then(|s| s.cache.as_ref()) {
                    cache.invalidate(method);
                }
            }));
        }
        if state.era == Era::Modern {
            // The modern era's change notifications come on a listen stream.
            super::listen::watch_acknowledgements(&state);
            let _ = state.restart_listen();
        }
        Ok(McpClient { state })
    }
}

#[wasm_bindgen]
impl McpClient {
    /// The protocol era the connection speaks: `"legacy"` (2024-11-05 to
    /// 2025-11-25, with `initialize`) or `"modern"` (2026-07-28). Pass it back
    /// as the `era` option to skip the probe next time.
    #[wasm_bindgen(getter, unchecked_return_type = "ProtocolEra")]
    pub fn era(&self) -> String {
        match self.state.era {
            Era::Legacy => "legacy".into(),
            Era::Modern => "modern".into(),
        }
    }

    /// Which transport carries the connection: `"streamable-http"`, `"sse"`
    /// (HTTP+SSE, 2024-11-05) or `"custom"`. Pass it back as the
    /// `transport` option to skip the probe next time.
    #[wasm_bindgen(getter, unchecked_return_type = "\"streamable-http\" | \"sse\" | \"custom\"")]
    pub fn transport(&self) -> String {
        self.state.transport_kind.to_owned()
    }

    /// The server's `serverInfo`: its name, version and optional title.
    #[wasm_bindgen(getter, js_name = serverInfo, unchecked_return_type = "Implementation")]
    pub fn server_info(&self) -> JsValue {
        to_js(&self.state.identity.borrow().server_info).unwrap_or(JsValue::UNDEFINED)
    }

    /// The capabilities the server declared in `initialize`.
    #[wasm_bindgen(getter, js_name = serverCapabilities, unchecked_return_type = "ServerCapabilities")]
    pub fn server_capabilities(&self) -> JsValue {
        to_js(&self.state.identity.borrow().capabilities).unwrap_or(JsValue::UNDEFINED)
    }

    /// The negotiated protocol revision, e.g. `"2025-11-25"`.
    #[wasm_bindgen(getter, js_name = protocolVersion, unchecked_return_type = "SupportedProtocolVersion")]
    pub fn protocol_version(&self) -> String {
        self.state.identity.borrow().protocol_version.to_owned()
    }

    /// The `Mcp-Session-Id` the server issued, or `undefined` for a stateless server.
    #[wasm_bindgen(getter, js_name = sessionId)]
    pub fn session_id(&self) -> Option<String> {
        self.state.session.transport().session_id()
    }

    /// The server's `instructions` for the model, if it sent any.
    #[wasm_bindgen(getter)]
    pub fn instructions(&self) -> Option<String> {
        self.state.identity.borrow().instructions.clone()
    }

    /// Checks that the server is responsive.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn ping(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let options = read_options(&options)?;
            state.call(methods::PING, None, &options, |r| results::check_object(r, methods::PING)).await?;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// Sets the minimum level of the log messages the server sends as
    /// `notifications/message` events.
    #[wasm_bindgen(js_name = setLoggingLevel, unchecked_return_type = "Promise<void>")]
    pub fn set_logging_level(
        &self,
        #[wasm_bindgen(unchecked_param_type = "LoggingLevel")] level: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            const LEVELS: [&str; 8] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
            let level = level
                .as_string()
                .filter(|l| LEVELS.contains(&l.as_str()))
                .ok_or_else(|| Error::InvalidArgument(format!("the logging level must be one of {}", LEVELS.join(", "))))?;
            let options = read_options(&options)?;
            if state.era == Era::Modern {
                // 2026-07-28 has no logging/setLevel: the level rides in every
                // request's _meta. Without strict checks it is sent even to a
                // server that logs without declaring `logging`.
                if state.strict {
                    check_server_supports(&state.identity.borrow().capabilities, "logging/setLevel").map_err(Error::Unsupported)?;
                }
                *state.log_level.borrow_mut() = Some(level);
                return Ok(JsValue::UNDEFINED);
            }
            let params = json!({ "level": level });
            state.call("logging/setLevel", Some(params), &options, |r| results::check_object(r, "logging/setLevel")).await?;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// Sends a request the library has no method for (an extension's, a
    /// newer revision's) and resolves with its result as the server sent it.
    /// It takes the same options, cancellation and errors as every other
    /// call, and the era's rules apply (`_meta` and input rounds in
    /// 2026-07-28, session renewal in the legacy era); no capability check
    /// is made and the result is not validated.
    ///
    /// @example
    /// ```ts
    /// const { items } = await client.request<{ items: string[] }>("acme/search", { q: "mcp" }, { timeout: 5_000 });
    /// ```
    #[wasm_bindgen(skip_typescript)]
    pub fn request(&self, method: JsValue, params: JsValue, options: JsValue) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let method =
                method.as_string().filter(|m| !m.is_empty()).ok_or_else(|| Error::InvalidArgument("request needs a method name".into()))?;
            let params = super::convert::params_from_js(&params, "params")?;
            let options = read_options(&options)?;
            state.request_unchecked(&method, params, &options).await?.to_js()
        }))
    }

    /// Sends a notification the library has no method for.
    #[wasm_bindgen(skip_typescript)]
    pub fn notify(&self, method: JsValue, params: JsValue) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let method =
                method.as_string().filter(|m| !m.is_empty()).ok_or_else(|| Error::InvalidArgument("notify needs a method name".into()))?;
            let params = super::convert::params_from_js(&params, "params")?;
            let params = if state.era == Era::Modern { Some(state.modern_params(params)) } else { params };
            state.session.notify(&method, params).await?;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// Tells the server that the roots changed, so it asks for them again.
    /// The client must have a `roots` handler.
    #[wasm_bindgen(js_name = sendRootsListChanged, unchecked_return_type = "Promise<void>")]
    pub fn send_roots_list_changed(&self) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            if state.era == Era::Modern {
                return Err(super::modern::removed("notifications/roots/list_changed").into());
            }
            state.session.notify("notifications/roots/list_changed", None).await?;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// Adds an event listener: a notification method such as
    /// `"notifications/message"`, `"notification"` for every notification,
    /// or `"close"` and `"error"`. Options as for `EventTarget`: `once` and
    /// `signal`. A listener that throws is reported as an `error` event and
    /// never breaks the client.
    #[wasm_bindgen(js_name = addEventListener, skip_typescript)]
    pub fn add_event_listener(&self, kind: &str, listener: JsValue, options: JsValue) {
        self.state.events.add(kind, listener, &options);
    }

    /// Removes an event listener added with {@link McpClient.addEventListener}.
    #[wasm_bindgen(js_name = removeEventListener, skip_typescript)]
    pub fn remove_event_listener(&self, kind: &str, listener: JsValue) {
        self.state.events.remove(kind, &listener);
    }

    /// An async iterator over the server's notifications, optionally only
    /// those of one `method`. It buffers up to `bufferSize` (default 1024)
    /// notifications; a consumer that falls further behind gets an
    /// `McpClientError` of kind `lagged` and the iteration ends. `break`, or
    /// aborting `signal`, unsubscribes.
    #[wasm_bindgen(skip_typescript)]
    pub fn notifications(&self, filter: JsValue) -> Result<JsValue, JsValue> {
        let fail = |e: Error| to_js_error(&e);
        let (method, buffer, signal) = if filter.is_undefined() || filter.is_null() {
            (None, DEFAULT_NOTIFICATION_BUFFER, None)
        } else {
            if !filter.is_object() {
                return Err(fail(Error::InvalidArgument("the filter must be an object".into())));
            }
            let method = match js_sys::Reflect::get(&filter, &"method".into()) {
                Ok(m) if m.is_undefined() || m.is_null() => None,
                Ok(m) => Some(m.as_string().ok_or_else(|| fail(Error::InvalidArgument("filter.method must be a string".into())))?),
                Err(_) => None,
            };
            let buffer = match js_sys::Reflect::get(&filter, &"bufferSize".into()).ok().and_then(|b| b.as_f64()) {
                Some(b) if (1.0..=1_000_000.0).contains(&b) => b as usize,
                Some(_) => return Err(fail(Error::InvalidArgument("bufferSize must be between 1 and 1000000".into()))),
                None => DEFAULT_NOTIFICATION_BUFFER,
            };
            let options = request_options(&filter).map_err(fail)?;
            (method, buffer, options.signal)
        };
        if self.state.session.is_closed() {
            return Err(fail(Error::Closed));
        }
        Ok(self.state.events.iterator(method, buffer, signal))
    }

    /// Closes the connection: rejects every pending request with an
    /// `McpClientError` of kind `closed`, aborts open streams, ends
    /// notification iterators, dispatches `close`, and asks the server to end
    /// the session (HTTP DELETE). Safe to call more than once.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            state.close().await;
            Ok(JsValue::UNDEFINED)
        }))
    }
}
