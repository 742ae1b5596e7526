//! The `McpClient` class: connecting, lifecycle and events. It is a thin
//! binding over [`Client`]: it reads JS options, adapts JS functions, turns
//! the client's events into JS events and its errors into JS errors. The
//! server features are in `features.rs`.

use super::convert::{from_js, optional_params_text_from_js, params_from_js, text_to_js, to_js};
use super::custom_transport::{is_transport, JsConnector};
use super::error::to_js_error;
use super::events::Events;
use super::handlers::handlers_from_js;
use super::list_watchers::watchers_from_js;
use super::options::{connect_options, endpoint_url, request_options, ConnectSettings, JsRequestOptions};
use crate::client::{Client, ClientOptions, Reply, RequestOptions, Snapshot, DEFAULT_EVENT_BUFFER};
use crate::error::Error;
use crate::protocol::jsonrpc::Message;
use crate::protocol::wide::ascii_prefix;
use crate::session::{Connector, TraceDirection};
use crate::transport::fetch::{js_message, Fetch};
use crate::transport::kept::KeptBody;
use crate::transport::web_runtime::WebRuntime;
use crate::web::WebOptions;
use futures::future::LocalBoxFuture;
use js_sys::{Function, Promise};
use serde_json::Value;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

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
#[derive(Debug)]
pub struct McpClient {
    pub(super) client: Client,
    pub(super) events: Rc<Events>,
}

/// What every method's promise runs.
pub(super) type Work = LocalBoxFuture<'static, Result<JsValue, JsValue>>;

/// Runs `work` as the Promise a method returns. Not generic on purpose: one
/// `future_to_promise` instance serves every method instead of one copy each.
pub(super) fn promise(work: Work) -> Promise {
    future_to_promise(work)
}

/// The JS error for `error`.
pub(super) fn fail(error: Error) -> JsValue {
    to_js_error(&error)
}

/// A call's options as the client wants them, and the signal that may cancel it.
pub(super) struct Call {
    pub options: RequestOptions,
    signal: Option<AbortSignal>,
}

impl Call {
    /// What the call's promise rejects with: the signal's own reason when the
    /// signal cancelled it, as the web platform's APIs do.
    pub fn reject(&self, error: Error) -> JsValue {
        match (&error, &self.signal) {
            (Error::Cancelled { .. }, Some(signal)) => signal.reason(),
            _ => fail(error),
        }
    }
}

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(js_name = fastAscii)]
    fn fast_ascii() -> bool;
    #[wasm_bindgen(js_name = parseAscii, catch)]
    fn parse_ascii(bytes: &[u8]) -> Result<JsValue, JsValue>;
}

/// Results this long and longer, when ASCII, go to `parseAscii` where it is
/// faster (Node): below, the check and the call cost more than they save.
const ASCII_FAST_MIN: usize = 8 * 1024;

/// A result for JS: `JSON.parse` of the server's text when it was kept (one
/// pass, the server's key order), in JS when the body stayed there, else the
/// value converted. A large ASCII
/// text is decoded by Node's `Buffer` where there is one, from wasm memory
/// without a copy (`bench/analysis.md`, eleventh round).
pub(super) fn reply_to_js(reply: &Reply) -> Result<JsValue, Error> {
    let unconvertible = |_| Error::protocol("cannot convert a result to JS".into());
    // A body the transport left in JS: parsed there, once.
    if let Some(body) = reply.kept().and_then(|kept| kept.as_any().downcast_ref::<KeptBody>()) {
        return body.result().map_err(|thrown| Error::protocol(format!("the result: {}", js_message(&thrown))));
    }
    match reply.text() {
        Some(text) if text.len() >= ASCII_FAST_MIN && fast_ascii() && ascii_prefix(text.as_bytes()) == text.len() => {
            parse_ascii(text.as_bytes()).map_err(unconvertible)
        }
        Some(text) => text_to_js(text),
        None => to_js(reply.value()),
    }
}

/// The `onprogress` callback as the client wants it; a callback that throws
/// (or rejects) is reported as an `error` event, never allowed to break the request.
fn progress_listener(callback: Function, events: Weak<Events>) -> crate::session::ProgressListener {
    Rc::new(move |params: &Value| {
        let value = to_js(params).unwrap_or(JsValue::UNDEFINED);
        let called = callback.call1(&JsValue::UNDEFINED, &value);
        if let Some(events) = events.upgrade() {
            events.heed(called);
        }
    })
}

/// The `trace` option as the session wants it: each message becomes
/// `{ direction, json, bytes, method?, id? }`. A throwing callback is
/// reported as an `error` event and changes nothing else.
fn trace_listener(callback: Function, events: Weak<Events>) -> crate::session::TraceListener {
    Rc::new(move |direction: TraceDirection, message: &Message| {
        let json = message.to_json();
        let entry = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| {
            let _ = js_sys::Reflect::set(&entry, &JsValue::from_str(key), value);
        };
        set("direction", &JsValue::from_str(if direction == TraceDirection::In { "in" } else { "out" }));
        set("bytes", &JsValue::from_f64(json.len() as f64));
        if let Some(method) = message.method() {
            set("method", &JsValue::from_str(method));
        }
        let id = match message {
            Message::Request { id, .. } | Message::Response { id: Some(id), .. } => Some(id.to_value()),
            _ => None,
        };
        if let Some(id) = id.and_then(|id| to_js(&id).ok()) {
            set("id", &id);
        }
        set("json", &JsValue::from_str(&json));
        let called = callback.call1(&JsValue::UNDEFINED, &entry);
        if let Some(events) = events.upgrade() {
            events.heed(called);
        }
    })
}

/// The client `snapshot` describes, resumed.
///
/// A future of its own, not awaited inline: `resume` waits for the rest of the core
/// anyway (pkg-template/rest-gate.js), and the core's split (scripts/split/) leaves what a
/// first call never runs out of the module a page loads first.
#[inline(never)]
fn resumed(snapshot: Snapshot, connector: Rc<dyn Connector>, options: ClientOptions) -> LocalBoxFuture<'static, Result<Client, Error>> {
    Box::pin(Client::resume_with(snapshot, connector, Rc::new(WebRuntime), options))
}

impl McpClient {
    /// Reads a call's options, with `onprogress` wired to this client's events.
    pub(super) fn call(&self, options: &JsValue) -> Result<Call, JsValue> {
        let JsRequestOptions { mut options, signal, on_progress } = request_options(options).map_err(fail)?;
        options.on_progress = on_progress.map(|callback| progress_listener(callback, Rc::downgrade(&self.events)));
        Ok(Call { options, signal })
    }

    /// The connector for `url` with the web transport's options.
    fn web_connector(url: String, settings: &ConnectSettings) -> Result<Rc<dyn Connector>, Error> {
        let options = WebOptions {
            client: settings.client.clone(),
            headers: settings.headers.clone(),
            fetch: Fetch::new(settings.fetch.clone()),
            #[cfg(feature = "oauth")]
            auth: settings.auth.clone(),
            authorizer: None,
            sse_reader: settings.sse_reader,
        };
        crate::web::connector(&url, &options)
    }

    /// `connect` and `resume`: everything but the handshake is shared.
    async fn open(target: JsValue, options: &JsValue, snapshot: Option<Snapshot>) -> Result<McpClient, JsValue> {
        let settings = connect_options(options).map_err(fail)?;
        if let Some(signal) = settings.signal.as_ref().filter(|s| s.aborted()) {
            return Err(signal.reason());
        }
        let events = Rc::new(Events::default());
        let client_options = ClientOptions {
            handlers: handlers_from_js(&settings.handlers).map_err(fail)?,
            list_changed: watchers_from_js(&settings.list_changed, Rc::downgrade(&events)).map_err(fail)?,
            trace: settings.trace.clone().map(|callback| trace_listener(callback, Rc::downgrade(&events))),
            ..settings.client.clone()
        };
        let connector: Rc<dyn Connector> = if is_transport(&target) {
            Rc::new(JsConnector { target, max_message_bytes: settings.client.limits.max_message_bytes })
        } else {
            Self::web_connector(endpoint_url(&target).map_err(fail)?, &settings).map_err(fail)?
        };
        let connected = match snapshot {
            Some(snapshot) => resumed(snapshot, connector, client_options).await,
            None => Client::connect_with(connector, Rc::new(WebRuntime), client_options).await,
        };
        let client = connected.map_err(|error| match (&error, &settings.signal) {
            (Error::Cancelled { .. }, Some(signal)) => signal.reason(),
            _ => fail(error),
        })?;
        events.attach(&client);
        Ok(McpClient { client, events })
    }
}

#[wasm_bindgen]
impl McpClient {
    /// Connects to the MCP server at `url`: picks the protocol era (probing
    /// with `server/discover`, falling back to `initialize` for an older
    /// server) and the transport (Streamable HTTP, or HTTP+SSE for a
    /// 2024-11-05 server), then runs the handshake.
    ///
    /// The client's capabilities follow from the `handlers` given: a
    /// `sampling` handler declares `sampling`, and so on.
    ///
    /// @throws {McpClientError} `invalid-argument` for a bad URL or option;
    /// `network`, `http`, `protocol` or `timeout` when the server cannot be
    /// reached or answers wrongly; `unsupported-version` when it insists on a
    /// revision this client does not speak; `auth` when authorization fails.
    /// @throws {McpError} when the server refuses the handshake.
    pub async fn connect(
        #[wasm_bindgen(unchecked_param_type = "string | URL | McpTransport")] target: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "McpClientOptions")] options: JsValue,
    ) -> Result<McpClient, JsValue> {
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
        let value = from_js(&snapshot, "snapshot").map_err(fail)?;
        let snapshot = Snapshot::from_value(&value).map_err(|why| fail(Error::invalid_argument(why)))?;
        Self::open(JsValue::from_str(&snapshot.url), &options, Some(snapshot)).await
    }

    /// The connection as a small JSON object to keep (KV, a Durable Object,
    /// `sessionStorage`) and pass to {@link McpClient.resume} later: the
    /// URL, era, transport, protocol version, session id, the GET stream's
    /// last event id, and what the server declared. It holds no credentials.
    ///
    /// @throws {McpClientError} `invalid-argument` for a custom transport,
    /// which cannot be re-created from data; `closed` after `close()`;
    /// `limit-exceeded` when the server's `capabilities` and `serverInfo`
    /// come to more than 64 KiB of JSON, too much to keep in every snapshot.
    #[wasm_bindgen(unchecked_return_type = "McpSnapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        text_to_js(&self.client.snapshot().map_err(fail)?.to_text()).map_err(fail)
    }

    /// Takes a {@link McpClient.snapshot} and then closes this client
    /// locally without ending the server's session (no HTTP DELETE), so the
    /// snapshot can be resumed. What a Worker calls at the end of a request.
    ///
    /// @throws {McpClientError} at once, not as a rejection, as
    /// {@link McpClient.snapshot} does: `invalid-argument` for a custom
    /// transport; `closed` after `close()` or a first `suspend()`.
    #[wasm_bindgen(unchecked_return_type = "Promise<McpSnapshot>")]
    pub fn suspend(&self) -> Result<Promise, JsValue> {
        // Checked now, so that a closed client throws rather than rejects.
        self.client.snapshot().map_err(fail)?;
        let client = self.client.clone();
        Ok(promise(Box::pin(async move {
            let snapshot = client.suspend().await.map_err(fail)?;
            text_to_js(&snapshot.to_text()).map_err(fail)
        })))
    }

    /// The protocol era the connection speaks: `"legacy"` (2024-11-05 to
    /// 2025-11-25, with `initialize`) or `"modern"` (2026-07-28). Pass it back
    /// as the `era` option to skip the probe next time.
    #[wasm_bindgen(getter, unchecked_return_type = "ProtocolEra")]
    pub fn era(&self) -> String {
        self.client.era().name().to_owned()
    }

    /// Which transport carries the connection: `"streamable-http"`, `"sse"`
    /// (HTTP+SSE, 2024-11-05) or `"custom"`. Pass it back as the
    /// `transport` option to skip the probe next time.
    #[wasm_bindgen(getter, unchecked_return_type = "\"streamable-http\" | \"sse\" | \"custom\"")]
    pub fn transport(&self) -> String {
        self.client.channel().name().to_owned()
    }

    /// The server's `serverInfo`: its name, version and optional title.
    #[wasm_bindgen(getter, js_name = serverInfo, unchecked_return_type = "Implementation")]
    pub fn server_info(&self) -> JsValue {
        to_js(&self.client.server().server_info).unwrap_or(JsValue::UNDEFINED)
    }

    /// The capabilities the server declared.
    #[wasm_bindgen(getter, js_name = serverCapabilities, unchecked_return_type = "ServerCapabilities")]
    pub fn server_capabilities(&self) -> JsValue {
        to_js(&self.client.server().capabilities).unwrap_or(JsValue::UNDEFINED)
    }

    /// The negotiated protocol revision, e.g. `"2025-11-25"`.
    #[wasm_bindgen(getter, js_name = protocolVersion, unchecked_return_type = "SupportedProtocolVersion")]
    pub fn protocol_version(&self) -> String {
        self.client.protocol_version().to_owned()
    }

    /// The `Mcp-Session-Id` the server issued, or `undefined` for a stateless server.
    #[wasm_bindgen(getter, js_name = sessionId)]
    pub fn session_id(&self) -> Option<String> {
        self.client.session_id()
    }

    /// The server's `instructions` for the model, if it sent any.
    #[wasm_bindgen(getter)]
    pub fn instructions(&self) -> Option<String> {
        self.client.server().instructions
    }

    /// Checks that the server is responsive.
    ///
    /// @throws {McpClientError} kind `unsupported` in the 2026-07-28 era,
    /// which removed `ping` (any request shows the server answers).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn ping(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            client.ping(&call.options).await.map_err(|e| call.reject(e))?;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// Sets the minimum level of the log messages the server sends as
    /// `notifications/message` events. In the 2026-07-28 era the level rides
    /// in every request's `_meta`.
    #[wasm_bindgen(js_name = setLoggingLevel, unchecked_return_type = "Promise<void>")]
    pub fn set_logging_level(
        &self,
        #[wasm_bindgen(unchecked_param_type = "LoggingLevel")] level: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let level = level.as_string().unwrap_or_default();
            client.set_logging_level(&level, &call.options).await.map_err(|e| call.reject(e))?;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// Tells the server that the roots changed, so it asks for them again.
    /// The client must have a `roots` handler (which declares
    /// `roots.listChanged`): else, with `strictCapabilities`, it rejects with
    /// `invalid-argument` and sends nothing. In the 2026-07-28 era, which
    /// removed the notification (roots ride on each request), it rejects
    /// with `unsupported`.
    #[wasm_bindgen(js_name = sendRootsListChanged, unchecked_return_type = "Promise<void>")]
    pub fn send_roots_list_changed(&self) -> Promise {
        let client = self.client.clone();
        promise(Box::pin(async move {
            client.send_roots_list_changed().await.map_err(fail)?;
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
    /// The package's own JS parts (tasks) pass `requires`, which is not in the
    /// typings: `true` for the capability check `method`'s own method makes,
    /// or the path of the capability to check (`["tasks", "list"]`).
    #[wasm_bindgen(skip_typescript)]
    pub fn request(&self, method: JsValue, params: JsValue, options: JsValue, requires: JsValue) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let method = method
                .as_string()
                .filter(|m| !m.is_empty())
                .ok_or_else(|| fail(Error::invalid_argument("request needs a method name".into())))?;
            if requires.is_truthy() {
                let steps: Option<Vec<String>> =
                    requires.dyn_ref::<js_sys::Array>().map(|steps| steps.iter().filter_map(|step| step.as_string()).collect());
                let path: Option<Vec<&str>> = steps.as_ref().map(|steps| steps.iter().map(String::as_str).collect());
                client.require_capability(&method, path.as_deref()).map_err(fail)?;
            }
            let params = optional_params_text_from_js(&params).map_err(fail)?;
            let reply = client.request_params(&method, params, &call.options).await.map_err(|e| call.reject(e))?;
            reply_to_js(&reply).map_err(fail)
        }))
    }

    /// Reports `error` as an `error` event, as a throwing callback of the
    /// client's own is reported: for the package's JS parts (a task's
    /// `ontaskstatus`), not in the typings.
    #[wasm_bindgen(js_name = __reportError, skip_typescript)]
    pub fn report_error(&self, error: JsValue) {
        self.events.dispatch_error(&error);
    }

    /// Checks `result` as tool `name`'s `tools/call` result, as `callTool`
    /// checks one (its shape, then its `outputSchema`): for the package's JS
    /// parts (a tool call run as a task), not in the typings.
    #[wasm_bindgen(js_name = __checkToolResult, skip_typescript)]
    pub fn check_tool_result(&self, name: JsValue, result: JsValue) -> Promise {
        let client = self.client.clone();
        promise(Box::pin(async move {
            let result = from_js(&result, "result").map_err(fail)?;
            client.check_call_tool_result(&name.as_string().unwrap_or_default(), result).await.map_err(fail)?;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// How tool `name` may be called, as the tools' listings said (see
    /// `Client::task_support`): `"required"`, `"optional"` or `"forbidden"`
    /// (its `execution.taskSupport`), or `undefined` when nothing tells. For
    /// the package's JS parts (`callTool` runs a tool that needs a task as one,
    /// `callToolAsTask` calls one that forbids them plainly), not in the typings.
    #[wasm_bindgen(js_name = __taskSupport, skip_typescript)]
    pub fn task_support(&self, name: JsValue) -> JsValue {
        use crate::protocol::task_support::TaskSupport;
        match name.as_string().and_then(|name| self.client.task_support(&name)) {
            Some(TaskSupport::Required) => "required".into(),
            Some(TaskSupport::Optional) => "optional".into(),
            Some(TaskSupport::Forbidden) => "forbidden".into(),
            None => JsValue::UNDEFINED,
        }
    }

    /// Sends a notification the library has no method for.
    #[wasm_bindgen(skip_typescript)]
    pub fn notify(&self, method: JsValue, params: JsValue) -> Promise {
        let client = self.client.clone();
        promise(Box::pin(async move {
            let method = method
                .as_string()
                .filter(|m| !m.is_empty())
                .ok_or_else(|| fail(Error::invalid_argument("notify needs a method name".into())))?;
            let params = params_from_js(&params, "params").map_err(fail)?;
            client.notify(&method, params).await.map_err(fail)?;
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
        self.events.add(kind, &listener, &options);
    }

    /// Removes an event listener added with {@link McpClient.addEventListener}.
    #[wasm_bindgen(js_name = removeEventListener, skip_typescript)]
    pub fn remove_event_listener(&self, kind: &str, listener: JsValue) {
        self.events.remove(kind, &listener);
    }

    /// An async iterator over the server's notifications, optionally only
    /// those of one `method`. It buffers up to `bufferSize` (default 1024)
    /// notifications; a consumer that falls further behind gets an
    /// `McpClientError` of kind `lagged` and the iteration ends. `break`, or
    /// aborting `signal`, unsubscribes.
    #[wasm_bindgen(skip_typescript)]
    pub fn notifications(&self, filter: JsValue) -> Result<JsValue, JsValue> {
        let (method, buffer, signal) = if filter.is_undefined() || filter.is_null() {
            (None, DEFAULT_EVENT_BUFFER, None)
        } else {
            if !filter.is_object() {
                return Err(fail(Error::invalid_argument("the filter must be an object".into())));
            }
            let method = match js_sys::Reflect::get(&filter, &"method".into()) {
                Ok(m) if m.is_undefined() || m.is_null() => None,
                Ok(m) => Some(m.as_string().ok_or_else(|| fail(Error::invalid_argument("filter.method must be a string".into())))?),
                Err(_) => None,
            };
            let buffer = match js_sys::Reflect::get(&filter, &"bufferSize".into()).ok().and_then(|b| b.as_f64()) {
                Some(b) if (1.0..=1_000_000.0).contains(&b) => b as usize,
                Some(_) => return Err(fail(Error::invalid_argument("bufferSize must be between 1 and 1000000".into()))),
                None => DEFAULT_EVENT_BUFFER,
            };
            let options = request_options(&filter).map_err(fail)?;
            (method, buffer, options.signal)
        };
        if self.client.is_closed() {
            return Err(fail(Error::Closed));
        }
        Ok(self.events.iterator(method, buffer, signal))
    }

    /// Closes the connection: rejects every pending request with an
    /// `McpClientError` of kind `closed`, aborts open streams, ends
    /// notification iterators, dispatches `close`, and asks the server to end
    /// the session (HTTP DELETE). Safe to call more than once.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> Promise {
        let client = self.client.clone();
        promise(Box::pin(async move {
            client.close().await;
            Ok(JsValue::UNDEFINED)
        }))
    }
}
