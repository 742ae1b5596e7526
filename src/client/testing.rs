//! A scripted server, a connector to it and a manual clock, so the client's
//! behaviour (era and transport choice, renewal, replay, caching, input
//! rounds, tasks) is tested natively, message by message.
//!
//! The server is a function from what it receives ([`Seen`]) to an
//! [`Answer`]; [`legacy_peer`] and [`modern_peer`] answer the handshake and
//! the long-lived requests, and tests add the methods they exercise.

use super::connection::Client;
use super::options::ClientOptions;
use crate::error::Error;
use crate::protocol::jsonrpc::{ErrorObject, Message, RequestId};
use crate::protocol::modern;
use crate::session::testing::ManualRuntime;
use crate::session::{Channel, Connector, Inbound, InboundSink, Kept, KeptMessage, OpenContext, Session, Transport};
use futures::executor::{LocalPool, LocalSpawner};
use futures::future::{self, LocalBoxFuture};
use futures::task::LocalSpawnExt;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::future::Future;
use std::rc::Rc;

/// One message the server received.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    /// The channel it came over (only the test of the HTTP+SSE fallback after a probe asks).
    #[cfg_attr(not(all(feature = "modern", feature = "legacy-sse")), allow(dead_code))]
    pub channel: Channel,
    pub message: Message,
    /// The session id the transport sent it under.
    pub session: Option<String>,
}

impl Seen {
    pub fn method(&self) -> &str {
        self.message.method().unwrap_or("<response>")
    }

    pub fn params(&self) -> Value {
        match &self.message {
            Message::Request { params, .. } | Message::Notification { params, .. } => params.as_ref().map_or(Value::Null, |p| p.to_value()),
            Message::Response { .. } => Value::Null,
        }
    }

    pub fn id(&self) -> Option<RequestId> {
        match &self.message {
            Message::Request { id, .. } => Some(id.clone()),
            _ => None,
        }
    }
}

/// What the server does with a request.
pub(crate) enum Answer {
    /// Responds with this result.
    Result(Value),
    /// Responds with a JSON-RPC error.
    Error(ErrorObject),
    /// Refuses the HTTP request.
    Http(u16, Option<i64>),
    /// The request does not get through.
    Network,
    /// Says nothing; the test answers later with [`Server::respond`].
    Hold,
    /// Sends these messages (notifications, its own requests) first.
    After(Vec<Value>, Box<Answer>),
}

impl Answer {
    pub fn error(code: i64, message: &str) -> Self {
        Self::Error(ErrorObject::new(code, message))
    }
}

type Script = Rc<dyn Fn(&Seen) -> Answer>;

/// The scripted server, shared by every channel the connector opens.
pub(crate) struct Server {
    script: RefCell<Script>,
    pub seen: RefCell<Vec<Seen>>,
    pub opened: RefCell<Vec<Channel>>,
    sinks: RefCell<Vec<InboundSink>>,
    live_sessions: RefCell<HashSet<String>>,
    sessions_issued: Cell<u32>,
    /// Refuses requests other than `initialize` that carry no session id,
    /// with a 400, as a stateful server does (see [`Server::require_sessions`]).
    sessions_required: Cell<bool>,
    /// Every stream the client opens finds its session gone (see [`Server::expire_streams`]).
    streams_expire: Cell<bool>,
    /// What the transports' `user_wait_ms` answers: a test moves it on with the
    /// clock while a person is "signing in".
    pub user_wait_ms: Cell<u64>,
    /// The transports' `close` never completes, as an HTTP `DELETE` the server holds.
    pub holds_close: Cell<bool>,
    /// How many transports closed while still held, so with a goodbye (the web
    /// transports, dropped first, hang up without one).
    pub goodbyes: Cell<usize>,
    spawner: LocalSpawner,
}

impl Server {
    /// Forgets every session, as a restarted server does.
    pub fn forget_sessions(&self) {
        self.live_sessions.borrow_mut().clear();
    }

    /// Answers with `script` from now on.
    pub fn rescript(&self, script: impl Fn(&Seen) -> Answer + 'static) {
        *self.script.borrow_mut() = Rc::new(script);
    }

    /// From now on refuses a Streamable HTTP request without a session id
    /// (except `initialize`) with HTTP 400, as the official SDKs' stateful
    /// servers do; by default such requests are answered, as a stateless server does.
    pub fn require_sessions(&self) {
        self.sessions_required.set(true);
    }

    /// From now on every server-to-client stream the client opens finds its session
    /// gone at once, as a GET answered 404 does; the newest one finds it now.
    pub fn expire_streams(&self) {
        self.streams_expire.set(true);
        if let Some(sink) = self.sinks.borrow().last().cloned() {
            self.expire_later(sink);
        }
    }

    fn expire_later(&self, sink: InboundSink) {
        let _ = self.spawner.spawn_local(async move { sink(Inbound::Status(crate::session::ConnectionStatus::SessionExpired)) });
    }

    /// Sends `message` on the newest channel.
    pub fn push(&self, message: Value) {
        let sink = self.sinks.borrow().last().cloned();
        if let (Some(sink), Ok(message)) = (sink, crate::protocol::jsonrpc::decode_value(message)) {
            sink(Inbound::Message(message));
        }
    }

    /// Answers a held request.
    pub fn respond(&self, id: &RequestId, result: Value) {
        self.push(json!({"jsonrpc": "2.0", "id": id.to_value(), "result": result}));
    }

    /// Answers a held request with a JSON-RPC error.
    #[cfg(feature = "modern")]
    pub fn refuse(&self, id: &RequestId, code: i64, message: &str) {
        self.push(json!({"jsonrpc": "2.0", "id": id.to_value(), "error": {"code": code, "message": message}}));
    }

    /// The methods received, in order (responses as `<response>`).
    pub fn methods(&self) -> Vec<String> {
        self.seen.borrow().iter().map(|s| s.method().to_owned()).collect()
    }

    /// How many times `method` was received.
    pub fn count(&self, method: &str) -> usize {
        self.seen.borrow().iter().filter(|s| s.method() == method).count()
    }

    /// The last message of `method`.
    pub fn last(&self, method: &str) -> Option<Seen> {
        self.seen.borrow().iter().rev().find(|s| s.method() == method).cloned()
    }

    /// The responses the client sent to the server's requests.
    pub fn responses(&self) -> Vec<Value> {
        self.seen.borrow().iter().filter(|s| s.message.method().is_none()).map(|s| s.message.to_value()).collect()
    }

    /// Delivers `messages` as the Streamable HTTP transport does: a result
    /// as its text alone (`Inbound::RawResponse`), the rest parsed.
    fn deliver_later(&self, sink: &InboundSink, messages: Vec<Value>) {
        let sink = sink.clone();
        let _ = self.spawner.spawn_local(async move {
            for message in messages {
                let text = message.to_string();
                if let Some((id, raw, kept)) = kept(&text) {
                    sink(Inbound::RawResponse { id, text: Rc::new(raw), kept: Some(kept) });
                    continue;
                }
                match crate::protocol::jsonrpc::raw_result(&text) {
                    Some((id, raw)) => sink(Inbound::RawResponse { id, text: Rc::new(raw.to_owned()), kept: None }),
                    None => {
                        if let Ok(message) = crate::protocol::jsonrpc::decode_value(message) {
                            sink(Inbound::Message(message));
                        }
                    }
                }
            }
        });
    }
}

/// A large message kept "outside wasm", as the web transport keeps a JSON
/// body in JS: the session gets the text without what its checks do not read.
#[derive(Debug)]
pub struct KeptText(pub String, pub Option<usize>);

impl KeptMessage for KeptText {
    fn read(&self) -> Option<String> {
        Some(self.0.clone())
    }

    fn structured_bytes(&self) -> Option<usize> {
        self.1
    }

    fn bytes(&self) -> usize {
        self.0.len()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// What the web transport hands on for a body it keeps: the result's text
/// with what its checks do not read left out, and the whole message.
fn kept(text: &str) -> Option<(RequestId, String, Kept)> {
    use crate::protocol::jsonrpc::elide::{elide, KEEP_MIN_BYTES};
    if text.len() < KEEP_MIN_BYTES {
        return None;
    }
    let elided = elide([text.as_bytes()]);
    let compact = String::from_utf8(elided.text).ok().filter(|_| elided.elided > 0)?;
    let (id, raw) = crate::protocol::jsonrpc::raw_result(&compact)?;
    Some((id, raw.to_owned(), Rc::new(KeptText(text.to_owned(), elided.structured))))
}

struct FakeTransport {
    server: Rc<Server>,
    channel: Channel,
    sink: InboundSink,
    session: RefCell<Option<String>>,
    dropped: Rc<Cell<bool>>,
}

impl Drop for FakeTransport {
    fn drop(&mut self) {
        self.dropped.set(true);
    }
}

impl FakeTransport {
    fn answer(&self, id: &RequestId, method: &str, answer: Answer, mut before: Vec<Value>) -> Result<(), Error> {
        match answer {
            Answer::After(messages, then) => {
                before.extend(messages);
                self.answer(id, method, *then, before)
            }
            Answer::Http(status, code) => Err(Error::Http { status, message: "refused".into(), code }),
            Answer::Network => Err(Error::Network { message: "connection reset".into() }),
            Answer::Hold => {
                self.server.deliver_later(&self.sink, before);
                Ok(())
            }
            Answer::Error(error) => {
                before.push(json!({"jsonrpc": "2.0", "id": id.to_value(), "error": error.to_value()}));
                self.server.deliver_later(&self.sink, before);
                Ok(())
            }
            Answer::Result(result) => {
                if method == "initialize" && self.channel == Channel::StreamableHttp {
                    let n = self.server.sessions_issued.get() + 1;
                    self.server.sessions_issued.set(n);
                    let id = format!("session-{n}");
                    self.server.live_sessions.borrow_mut().insert(id.clone());
                    *self.session.borrow_mut() = Some(id);
                }
                before.push(json!({"jsonrpc": "2.0", "id": id.to_value(), "result": result}));
                self.server.deliver_later(&self.sink, before);
                Ok(())
            }
        }
    }
}

impl Transport for FakeTransport {
    fn send(&self, message: Message) -> LocalBoxFuture<'static, Result<(), Error>> {
        let session = self.session.borrow().clone();
        if let Some(id) = &session {
            if !self.server.live_sessions.borrow().contains(id) {
                return Box::pin(future::ready(Err(Error::SessionExpired { status: 404 })));
            }
        }
        let sessionless = session.is_none() && self.channel == Channel::StreamableHttp;
        if sessionless && self.server.sessions_required.get() && !matches!(message.method(), None | Some("initialize")) {
            return Box::pin(future::ready(Err(Error::Http { status: 400, message: "no valid session id".into(), code: None })));
        }
        let seen = Seen { channel: self.channel, message: message.clone(), session };
        self.server.seen.borrow_mut().push(seen.clone());
        let outcome = match &message {
            Message::Request { id, method, .. } => {
                let script = self.server.script.borrow().clone();
                self.answer(id, method, script(&seen), Vec::new())
            }
            _ => Ok(()),
        };
        Box::pin(future::ready(outcome))
    }
    fn set_protocol_version(&self, _version: &'static str) {}
    fn listen(&self) {
        if self.server.streams_expire.get() {
            self.server.expire_later(self.sink.clone());
        }
    }
    fn session_id(&self) -> Option<String> {
        self.session.borrow().clone()
    }
    fn reset_session(&self) {
        *self.session.borrow_mut() = None;
    }
    fn adopt_session(&self, session_id: Option<String>, _last_event_id: Option<String>) {
        *self.session.borrow_mut() = session_id;
    }
    fn close(&self) -> LocalBoxFuture<'static, ()> {
        if self.server.holds_close.get() {
            return Box::pin(future::pending());
        }
        let (server, dropped) = (self.server.clone(), self.dropped.clone());
        Box::pin(async move {
            if !dropped.get() {
                server.goodbyes.set(server.goodbyes.get() + 1);
            }
        })
    }
    fn user_wait_ms(&self) -> u64 {
        self.server.user_wait_ms.get()
    }
}

/// Opens channels to the scripted server.
pub(crate) struct FakeConnector {
    server: Rc<Server>,
    custom: bool,
    hides_refusals: bool,
}

impl FakeConnector {
    pub fn new(server: Rc<Server>, custom: bool, hides_refusals: bool) -> Self {
        Self { server, custom, hides_refusals }
    }
}

impl Connector for FakeConnector {
    fn url(&self) -> Option<String> {
        (!self.custom).then(|| "http://127.0.0.1:1/mcp".to_owned())
    }
    fn is_custom(&self) -> bool {
        self.custom
    }
    fn open(&self, kind: Channel, context: &OpenContext) -> LocalBoxFuture<'static, Result<Session, Error>> {
        self.server.opened.borrow_mut().push(kind);
        let server = self.server.clone();
        let (session, _) = Session::new(context.runtime.clone(), context.default_timeout_ms, |sink| {
            server.sinks.borrow_mut().push(sink.clone());
            Rc::new(FakeTransport { server: server.clone(), channel: kind, sink, session: RefCell::default(), dropped: Rc::default() })
        });
        Box::pin(future::ready(Ok(session)))
    }
    fn hides_refusals(&self) -> bool {
        self.hides_refusals
    }
}

/// The outcome of work started with [`World::start`], once it finishes.
pub(crate) type Pending<T> = Rc<RefCell<Option<T>>>;

/// A scripted server, a manual clock and the pool that runs everything.
pub(crate) struct World {
    pub pool: LocalPool,
    pub runtime: Rc<ManualRuntime>,
    pub server: Rc<Server>,
}

impl World {
    pub fn new(script: impl Fn(&Seen) -> Answer + 'static) -> Self {
        let pool = LocalPool::new();
        let runtime = Rc::new(ManualRuntime::new(pool.spawner()));
        let server = Rc::new(Server {
            script: RefCell::new(Rc::new(script)),
            seen: RefCell::default(),
            opened: RefCell::default(),
            sinks: RefCell::default(),
            live_sessions: RefCell::default(),
            sessions_issued: Cell::new(0),
            sessions_required: Cell::new(false),
            streams_expire: Cell::new(false),
            user_wait_ms: Cell::new(0),
            holds_close: Cell::new(false),
            goodbyes: Cell::new(0),
            spawner: pool.spawner(),
        });
        Self { pool, runtime, server }
    }

    pub fn connector(&self) -> Rc<dyn Connector> {
        Rc::new(FakeConnector::new(self.server.clone(), false, false))
    }

    /// Starts `work`, runs everything that can run, and returns its outcome slot.
    pub fn start<T: 'static>(&mut self, work: impl Future<Output = T> + 'static) -> Pending<T> {
        let slot: Pending<T> = Rc::default();
        let out = slot.clone();
        self.pool.spawner().spawn_local(async move { *out.borrow_mut() = Some(work.await) }).unwrap();
        self.pool.run_until_stalled();
        slot
    }

    /// Runs `work` to its end, which must come without the clock moving.
    pub fn run<T: 'static>(&mut self, work: impl Future<Output = T> + 'static) -> T {
        let slot = self.start(work);
        let outcome = slot.borrow_mut().take();
        outcome.expect("the work finished without the clock moving")
    }

    /// Moves the clock and runs what that wakes.
    pub fn advance(&mut self, ms: u64) {
        self.runtime.advance(ms);
        self.pool.run_until_stalled();
    }

    /// Runs what can run.
    pub fn settle(&mut self) {
        self.pool.run_until_stalled();
    }

    pub fn connect_with(&mut self, connector: Rc<dyn Connector>, options: ClientOptions) -> Result<Client, Error> {
        let runtime = self.runtime.clone();
        self.run(async move { Client::connect_with(connector, runtime, options).await })
    }

    pub fn connect(&mut self, options: ClientOptions) -> Result<Client, Error> {
        self.connect_with(self.connector(), options)
    }
}

/// A 2025-11-25 server with `capabilities`: it refuses `server/discover`
/// before a session as the official SDK does (HTTP 400), answers
/// `initialize`, `ping` and `logging/setLevel`, and knows no other method.
pub(crate) fn legacy_peer(seen: &Seen, capabilities: &Value) -> Answer {
    match seen.method() {
        "server/discover" => Answer::Http(400, Some(-32000)),
        "initialize" => Answer::Result(json!({
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "serverInfo": {"name": "legacy", "version": "1.0.0"},
        })),
        "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => Answer::Result(json!({})),
        _ => Answer::error(-32601, "Method not found"),
    }
}

/// A 2026-07-28 server with `capabilities`: it answers `server/discover`,
/// acknowledges `subscriptions/listen` and holds it open, and knows no other
/// method.
pub(crate) fn modern_peer(seen: &Seen, capabilities: &Value) -> Answer {
    match seen.method() {
        "server/discover" => Answer::Result(json!({
            "supportedVersions": [modern::VERSION],
            "capabilities": capabilities,
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern", "version": "2.0.0"}},
        })),
        "subscriptions/listen" => Answer::After(vec![notification("notifications/subscriptions/acknowledged")], Box::new(Answer::Hold)),
        "initialize" => Answer::error(-32601, "Method not found"),
        _ => Answer::error(-32601, "Method not found"),
    }
}

/// A 2026-07-28 server that declares tool list changes and holds every
/// `subscriptions/listen` open without acknowledging it.
#[cfg(feature = "modern")]
pub(crate) fn never_acknowledging() -> World {
    World::new(|s| match s.method() {
        "subscriptions/listen" => Answer::Hold,
        _ => modern_peer(s, &json!({"tools": {"listChanged": true}})),
    })
}

/// A tool listing of `names`, each with an empty input schema.
pub(crate) fn tools(names: &[&str]) -> Value {
    let tools: Vec<Value> = names.iter().map(|name| json!({"name": name, "inputSchema": {"type": "object"}})).collect();
    json!({ "tools": tools })
}

/// A text result.
pub(crate) fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

/// A client connected to a server that runs `script` first and, where it
/// returns `None`, [`legacy_peer`] when `options` pin
/// [`EraChoice::Legacy`](super::EraChoice::Legacy), else [`modern_peer`].
pub(crate) fn connected(
    script: impl Fn(&Seen) -> Option<Answer> + 'static,
    capabilities: Value,
    options: ClientOptions,
) -> (World, Client) {
    let legacy = options.era == super::EraChoice::Legacy;
    let mut w = World::new(move |s| {
        script(s).unwrap_or_else(|| if legacy { legacy_peer(s, &capabilities) } else { modern_peer(s, &capabilities) })
    });
    let client = w.connect(options).unwrap();
    (w, client)
}

/// What a server declares that takes resource subscriptions and a logging level.
pub(crate) fn telling_capabilities() -> Value {
    json!({"tools": {}, "resources": {"subscribe": true}, "logging": {}})
}

/// Subscribes `client` to each of `uris`, in order, then sets logging level `level`.
pub(crate) fn tell(w: &mut World, client: &Client, uris: &'static [&'static str], level: &'static str) {
    let c = client.clone();
    w.run(async move {
        let options = super::RequestOptions::default();
        for uri in uris {
            c.subscribe_resource(uri, &options).await.unwrap();
        }
        c.set_logging_level(level, &options).await.unwrap();
    });
}

/// `params`-less notification `method` as the server sends it.
pub(crate) fn notification(method: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": method})
}

/// A validator from the options (`ClientOptions::validator`) made of a
/// function of the schema and the instance, as a lazily loaded module would
/// answer.
pub(crate) struct FnValidator<F>(pub F);

impl<F> super::SchemaValidator for FnValidator<F>
where
    F: Fn(&Value, &Value) -> Result<(), crate::protocol::schema::SchemaError>,
{
    fn validate(
        &self,
        schema: &Value,
        instance: &Value,
        _: &crate::protocol::schema::Limits,
    ) -> LocalBoxFuture<'static, Result<Result<(), crate::protocol::schema::SchemaError>, Error>> {
        let verdict = (self.0)(schema, instance);
        Box::pin(async move { Ok(verdict) })
    }
}

/// A result padded past 16 KiB: large results are checked from their text
/// without a tree, as small ones are, and these tests hold them to that.
pub(crate) fn padded(mut result: Value) -> Value {
    if let Some(map) = result.as_object_mut() {
        map.insert("padding".into(), json!("x".repeat(20_000)));
    }
    result
}

/// A scripted answer with its result [`padded`].
pub(crate) fn padded_answer(answer: Answer) -> Answer {
    match answer {
        Answer::Result(result) => Answer::Result(padded(result)),
        other => other,
    }
}
