//! [`Client`]: one connection to one MCP server, its lifecycle, events and
//! the requests that are not a server feature (ping, logging, raw requests).

use super::connect::{Attempt, Wiring};
use super::events::{ClientEvent, EventFilter, EventHub, EventStream, ListenerId};
use super::handlers::Answering;
use super::lifecycle::Offer;
use super::list_changed;
#[cfg(feature = "modern")]
use super::listen;
use super::options::{ClientOptions, Era, RequestOptions};
use super::requests::already_cancelled;
use super::snapshot::Snapshot;
use super::state::{ClientState, Reply, Settings};
use crate::error::Error;
use crate::protocol::capabilities::{check_declared, check_server_supports, client_capabilities};
use crate::protocol::jsonrpc::Params;
use crate::protocol::lifecycle::ServerIdentity;
use crate::protocol::{methods, results};
use crate::session::{Channel, Connector, OpenContext, Runtime};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// How many events a subscription buffers unless asked otherwise.
pub const DEFAULT_EVENT_BUFFER: usize = 1_024;

/// The logging levels, least severe first.
pub const LOGGING_LEVELS: [&str; 8] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/// A connection to one MCP server. Cheap to clone: clones share it.
///
/// Create one with [`Client::connect_with`] (any [`Connector`] and
/// [`Runtime`]); on the web, `mcp_wasm::web::connect` opens the platform's
/// transports. Every call takes [`RequestOptions`]; server notifications
/// arrive as [`ClientEvent`]s through [`Client::events`] or
/// [`Client::on_event`]. Call [`Client::close`] when done: dropping the last
/// clone (once its calls have settled) ends the connection's streams and
/// releases its transport, but leaves the server's session open, as
/// [`Client::suspend`] does.
#[derive(Clone, Debug)]
pub struct Client {
    pub(crate) state: Rc<ClientState>,
}

impl Client {
    /// Connects through `connector`: picks the era and the transport the
    /// options allow, runs the handshake, and starts what the connection
    /// needs (the GET stream, or in 2026-07-28 the `subscriptions/listen`
    /// stream for the list changes the server declares).
    ///
    /// # Errors
    /// [`Error::Cancelled`] if `options.cancel` fires first; the transport's or
    /// the handshake's error: `network`, `http`, `protocol`, `timeout`,
    /// `unsupported-version`, `auth`, or the server's own refusal.
    pub async fn connect_with(connector: Rc<dyn Connector>, runtime: Rc<dyn Runtime>, options: ClientOptions) -> Result<Self, Error> {
        let cancel = options.cancel.clone();
        let client = Self::open(connector, runtime, options, None).await?;
        client.listen_first(cancel).await?;
        Ok(client)
    }

    /// Continues a connection saved with [`Client::snapshot`], for example in
    /// a later Worker invocation, without a new handshake. A session the
    /// server has since forgotten is renewed by the first request that finds
    /// out, with a fresh `initialize`.
    ///
    /// # Errors
    /// As [`Client::connect_with`] for an HTTP+SSE snapshot, which connects anew.
    pub async fn resume_with(
        snapshot: Snapshot,
        connector: Rc<dyn Connector>,
        runtime: Rc<dyn Runtime>,
        options: ClientOptions,
    ) -> Result<Self, Error> {
        let told = (snapshot.log_level.clone(), snapshot.subscriptions.clone());
        let client = Self::open(connector, runtime, options, Some(snapshot)).await?;
        client.state.adopt_told(told);
        // The stream opens without waiting for its acknowledgement, as it did before connecting
        // waited: a Worker that resumes for one request would wait a round trip for changes that
        // it could not have heard between invocations anyway.
        #[cfg(feature = "modern")]
        let _ = client.start_listening();
        Ok(client)
    }

    /// In the modern era, whose change notifications come on a listen stream,
    /// opens one for what the server declares: the acknowledgement to wait
    /// for, if there is anything to listen for.
    #[cfg(feature = "modern")]
    fn start_listening(&self) -> Option<crate::session::oneshot::Receiver<()>> {
        if self.state.era != Era::Modern {
            return None;
        }
        listen::watch_acknowledgements(&self.state);
        self.state.restart_listen()
    }

    /// On a new connection, waits for the acknowledgement of the listen
    /// stream it opens (see `ClientState::first_listen`). Apart from `open`:
    /// an await there cost its future's states 0.4 KB of the first call's
    /// module.
    ///
    /// # Errors
    /// [`Error::Cancelled`] when the connection's `cancel` fires meanwhile;
    /// the client closes then.
    async fn listen_first(&self, cancel: Option<super::options::CancelSource>) -> Result<(), Error> {
        #[cfg(feature = "modern")]
        if let Some(acknowledgement) = self.start_listening() {
            if let Some(reason) = self.state.first_listen(acknowledgement, cancel.map(|source| source())).await {
                self.state.close_later();
                return Err(Error::Cancelled { reason });
            }
        }
        #[cfg(not(feature = "modern"))]
        let _ = cancel;
        Ok(())
    }

    async fn open(
        connector: Rc<dyn Connector>,
        runtime: Rc<dyn Runtime>,
        options: ClientOptions,
        snapshot: Option<Snapshot>,
    ) -> Result<Self, Error> {
        if let Some(reason) = already_cancelled(&RequestOptions { cancel: options.cancel.clone(), ..RequestOptions::default() }) {
            return Err(Error::Cancelled { reason });
        }
        let events = Rc::new(EventHub::default());
        let capabilities = client_capabilities(options.handlers.present(), options.capabilities.as_ref());
        let answering = Rc::new(Answering::new(
            options.handlers.clone(),
            options.limits.schema,
            options.validator.clone(),
            Rc::downgrade(&events),
            &capabilities,
        ));
        let offer = Offer { protocol_version: options.protocol_version, capabilities, client_info: options.client_info.to_json() };
        let context = OpenContext { runtime, default_timeout_ms: options.timeout_ms, tool_schemas: Rc::default() };
        let wiring = Wiring {
            events: events.clone(),
            answering: answering.clone(),
            max_server_requests: options.limits.max_server_requests,
            trace: options.trace.clone(),
            client: Rc::new(RefCell::new(std::rc::Weak::new())),
        };
        connector.prepare().await;
        let attempt = Attempt { connector: connector.as_ref(), context: &context, options: &options, offer: &offer, wiring: &wiring };
        let connected = match snapshot {
            Some(snapshot) => attempt.resume(snapshot).await?,
            None => attempt.establish().await?,
        };
        let settings = Settings {
            strict: options.strict,
            validate_output: options.validate_output,
            validator: options.validator.clone(),
            skill_checker: options.skill_checker.clone(),
            #[cfg(feature = "modern")]
            max_input_rounds: options.max_input_rounds,
            limits: options.limits,
        };
        let state = Rc::new_cyclic(|me| ClientState {
            connector: connector.clone(),
            tool_schemas: context.tool_schemas.clone(),
            context: context.clone(),
            session: connected.session,
            channel: connected.channel,
            era: connected.era,
            #[cfg(feature = "modern")]
            answering,
            settings,
            identity: RefCell::new(connected.identity),
            offer,
            events,
            me: me.clone(),
            renewal: RefCell::default(),
            stream_renewals: Cell::default(),
            told: Cell::default(),
            log_level: RefCell::default(),
            subscriptions: RefCell::default(),
            #[cfg(feature = "modern")]
            listening: listen::Listening::default(),
            #[cfg(feature = "modern")]
            cache: options.cache.map(super::cache::ResponseCache::new),
            output_schemas: RefCell::default(),
            idempotent_tools: RefCell::default(),
            task_tools: RefCell::default(),
            tools_listed: Cell::default(),
            watching_tool_changes: Cell::default(),
            tool_upsets: Cell::default(),
            tool_listings: Cell::default(),
            learned_bytes: Cell::default(),
            #[cfg(feature = "validator")]
            patterns: Default::default(),
        });
        *wiring.client.borrow_mut() = Rc::downgrade(&state);
        list_changed::attach(&state, options.list_changed);
        #[cfg(feature = "modern")]
        list_changed::invalidate_cache_on_changes(&state);
        Ok(Self { state })
    }

    /// The protocol era the connection speaks.
    pub fn era(&self) -> Era {
        self.state.era
    }

    /// Which channel carries the connection.
    pub fn channel(&self) -> Channel {
        self.state.channel
    }

    /// What the server said about itself: revision, capabilities, `serverInfo`, instructions.
    pub fn server(&self) -> ServerIdentity {
        self.state.identity.borrow().clone()
    }

    /// The negotiated revision, e.g. `"2025-11-25"`.
    pub fn protocol_version(&self) -> &'static str {
        self.state.identity.borrow().protocol_version
    }

    /// The `Mcp-Session-Id` the server issued, if any.
    pub fn session_id(&self) -> Option<String> {
        self.state.session.transport().session_id()
    }

    /// Whether the client is closed.
    pub fn is_closed(&self) -> bool {
        self.state.session.is_closed()
    }

    /// A stream of the events `filter` admits, buffering at most `capacity`;
    /// a reader that falls further behind gets [`Error::Lagged`].
    pub fn events(&self, filter: EventFilter, capacity: usize) -> EventStream {
        self.state.events.subscribe(filter, capacity)
    }

    /// Calls `listener` with every event, as it happens.
    pub fn on_event(&self, listener: impl Fn(&ClientEvent) + 'static) -> ListenerId {
        self.state.events.listen(Rc::new(listener))
    }

    /// Removes a listener added with [`Client::on_event`].
    pub fn off_event(&self, id: ListenerId) {
        self.state.events.unlisten(id);
    }

    /// Checks that the server is responsive.
    ///
    /// # Errors
    /// The request's error; `unsupported` in the 2026-07-28 era, which removed `ping`.
    pub async fn ping(&self, options: &RequestOptions) -> Result<(), Error> {
        self.state.request_shaped(methods::PING, None, options, |r| results::check_object(r, methods::PING)).await.map(drop)
    }

    /// Sets the least severe level of the log messages the server sends. In
    /// 2026-07-28, which has no `logging/setLevel`, the level rides in every
    /// request's `_meta` (sent even to a server that does not declare
    /// `logging`, when not strict).
    ///
    /// # Errors
    /// `invalid-argument` for an unknown level; `unsupported` when strict and
    /// the server did not declare `logging`; the request's error.
    pub async fn set_logging_level(&self, level: &str, options: &RequestOptions) -> Result<(), Error> {
        if !LOGGING_LEVELS.contains(&level) {
            return Err(Error::invalid_argument(format!("the logging level must be one of {}", LOGGING_LEVELS.join(", "))));
        }
        let state = &self.state;
        if state.era == Era::Modern {
            if state.settings.strict {
                check_server_supports(&state.identity.borrow().capabilities, "logging/setLevel").map_err(Error::Unsupported)?;
            }
            *state.log_level.borrow_mut() = Some(level.to_owned());
            state.note_told();
            return Ok(());
        }
        // Kept for a renewed session, which starts at the server's own level: before it is
        // sent, so that a renewal this very request meets restores this level and not the last.
        let previous = state.log_level.replace(Some(level.to_owned()));
        state.note_told();
        let set = state
            .request_shaped("logging/setLevel", Some(json!({ "level": level })), options, |r| results::check_object(r, "logging/setLevel"))
            .await;
        if set.is_err() {
            *state.log_level.borrow_mut() = previous;
        }
        set.map(drop)
    }

    /// Tells the server the roots changed, so that it asks for them again. One
    /// refused because the server forgot the session starts a new session.
    ///
    /// # Errors
    /// `unsupported` in the 2026-07-28 era; `invalid-argument` when strict and
    /// the client did not declare `roots.listChanged`; the transport's error.
    pub async fn send_roots_list_changed(&self) -> Result<(), Error> {
        #[cfg(feature = "modern")]
        if self.state.era == Era::Modern {
            return Err(super::modern::removed("notifications/roots/list_changed"));
        }
        if self.state.settings.strict && !crate::protocol::capabilities::declares(&self.state.offer.capabilities, &["roots", "listChanged"])
        {
            return Err(Error::invalid_argument("notifications/roots/list_changed: the client did not declare roots.listChanged".into()));
        }
        self.state.notify_legacy("notifications/roots/list_changed", None).await
    }

    /// Sends a request the library has no method for, with the era's rules
    /// (`_meta` and input rounds in 2026-07-28, session renewal in the legacy
    /// era) and no capability check; the result is not checked.
    ///
    /// # Errors
    /// The request's error.
    pub async fn request(&self, method: &str, params: Option<Value>, options: &RequestOptions) -> Result<Reply, Error> {
        self.request_params(method, params.map(Params::Parsed), options).await
    }

    /// Fails as a method of this client would before sending `method`: with
    /// `unsupported` when the client checks capabilities (`strict`) and the
    /// server did not declare `path`, or, without a path, the capability
    /// `method` needs. A part of the client written on top of
    /// [`Client::request`] (the npm package's tasks) checks with this first.
    ///
    /// # Errors
    /// `unsupported`, as above.
    pub fn require_capability(&self, method: &str, path: Option<&[&str]>) -> Result<(), Error> {
        if !self.state.settings.strict {
            return Ok(());
        }
        let declared = &self.state.identity.borrow().capabilities;
        match path {
            None => check_server_supports(declared, method),
            Some(path) => check_declared(declared, method, path),
        }
        .map_err(Error::Unsupported)
    }

    /// [`Client::request`] with params that may be text
    /// ([`Params::from_text`]), which go out as they are.
    ///
    /// # Errors
    /// The request's error.
    pub async fn request_params(&self, method: &str, params: Option<Params>, options: &RequestOptions) -> Result<Reply, Error> {
        self.state.request_unchecked(method, params, options).await
    }

    /// Sends a notification the library has no method for. In the legacy
    /// era, one refused because the server forgot the session starts a new
    /// session and goes out again in it.
    ///
    /// # Errors
    /// The transport's error; `closed` after [`Client::close`].
    pub async fn notify(&self, method: &str, params: Option<Value>) -> Result<(), Error> {
        let params = params.map(Params::Parsed);
        #[cfg(feature = "modern")]
        if self.state.era == Era::Modern {
            return self.state.session.notify_params(method, Some(self.state.modern_params(params))).await;
        }
        self.state.notify_legacy(method, params).await
    }

    /// The connection as plain JSON to keep and pass to
    /// [`Client::resume_with`] later. It holds no credentials.
    ///
    /// # Errors
    /// `invalid-argument` for a connection that is not over a URL; `closed`;
    /// `limit-exceeded` (limit `snapshot`) when the server's `capabilities`
    /// and `serverInfo` come to more than
    /// [`MAX_DECLARED_BYTES`](super::snapshot::MAX_DECLARED_BYTES) of JSON.
    pub fn snapshot(&self) -> Result<Snapshot, Error> {
        let state = &self.state;
        if state.session.is_closed() {
            return Err(Error::Closed);
        }
        let url = state
            .connector
            .url()
            .ok_or_else(|| Error::invalid_argument("a connection over a custom transport cannot be snapshotted".into()))?;
        let identity = state.identity.borrow().clone();
        super::snapshot::check_declared_size(&identity)?;
        let transport = state.session.transport();
        let mut snapshot = Snapshot {
            url,
            modern: state.era == Era::Modern,
            transport: state.channel.name().to_owned(),
            identity,
            session_id: transport.session_id(),
            last_event_id: transport.last_event_id(),
            log_level: None,
            subscriptions: Vec::new(),
        };
        if state.told.get() {
            state.tell(&mut snapshot);
        }
        Ok(snapshot)
    }

    /// Takes a [`Client::snapshot`] and closes this client without ending
    /// the server's session (no HTTP DELETE), so the snapshot can be resumed.
    ///
    /// # Errors
    /// As [`Client::snapshot`].
    pub async fn suspend(&self) -> Result<Snapshot, Error> {
        let snapshot = self.snapshot()?;
        self.state.session.transport().adopt_session(None, None);
        self.state.close().await;
        Ok(snapshot)
    }

    /// Closes the connection: fails every pending call with `closed`, ends
    /// streams and subscriptions, emits [`ClientEvent::Closed`], and asks the
    /// server to end the session, which it returns after (the calls fail and
    /// the event comes first). Safe to call more than once.
    pub async fn close(&self) {
        self.state.close().await;
    }
}
