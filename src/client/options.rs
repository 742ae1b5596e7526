//! How a client connects, and how each call runs: timeouts, cancellation
//! and progress.

#[cfg(feature = "modern")]
use super::cache::CacheBounds;
pub use super::era::Era;
use super::handlers::Handlers;
use super::skill_checker::SkillChecker;
use super::validator::SchemaValidator;
use super::watcher::ListWatcher;
use crate::protocol::types::Implementation;
use crate::protocol::version;
use crate::session::limits::Limits;
use crate::session::oneshot;
use crate::session::{ProgressListener, TraceListener, DEFAULT_TIMEOUT_MS};
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// The default cap on a 2026-07-28 request's input rounds, as in the official SDKs.
pub const DEFAULT_MAX_ROUNDS: u32 = 10;

/// Which protocol era to speak.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EraChoice {
    /// Probe with `server/discover`, then fall back to `initialize`.
    #[default]
    Auto,
    /// 2026-07-28 only.
    Modern,
    /// The `initialize` revisions only.
    Legacy,
}

/// Which transport to use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TransportChoice {
    /// Streamable HTTP, falling back to HTTP+SSE for an older server.
    #[default]
    Auto,
    /// Streamable HTTP only.
    StreamableHttp,
    /// HTTP+SSE (2024-11-05) only.
    Sse,
}

/// Gives a fresh future for each attempt of a call, completing with the
/// reason when the caller gives up. See [`CancelToken::source`].
pub type CancelSource = Rc<dyn Fn() -> LocalBoxFuture<'static, String>>;

/// A way to cancel calls from elsewhere, the Rust counterpart of an
/// `AbortController`: clone it into a call's options, cancel it later.
///
/// ```
/// use mcp_wasm::client::{CancelToken, RequestOptions};
/// let token = CancelToken::new();
/// let options = RequestOptions::default().cancel_with(&token);
/// token.cancel("the user navigated away");
/// assert!(token.is_cancelled() && options.cancel.is_some());
/// ```
#[derive(Clone)]
pub struct CancelToken {
    sender: Rc<RefCell<Option<oneshot::Sender<String>>>>,
    cancelled: Shared<LocalBoxFuture<'static, String>>,
    reason: Rc<RefCell<Option<String>>>,
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelToken").field("reason", &self.reason.borrow()).finish()
    }
}

impl Default for CancelToken {
    fn default() -> Self {
        Self::new()
    }
}

impl CancelToken {
    /// A token not cancelled yet.
    pub fn new() -> Self {
        let (sender, receiver) = oneshot::channel::<String>();
        // A token dropped without cancelling never fires.
        let cancelled = async move {
            match receiver.await {
                Ok(reason) => reason,
                Err(_) => futures::future::pending().await,
            }
        }
        .boxed_local()
        .shared();
        Self { sender: Rc::new(RefCell::new(Some(sender))), cancelled, reason: Rc::default() }
    }

    /// Cancels every call that uses the token; later calls fail at once.
    pub fn cancel(&self, reason: impl Into<String>) {
        let reason = reason.into();
        *self.reason.borrow_mut() = Some(reason.clone());
        if let Some(sender) = self.sender.borrow_mut().take() {
            let _ = sender.send(reason);
        }
    }

    /// Whether [`CancelToken::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.reason.borrow().is_some()
    }

    /// Completes with the reason once cancelled.
    pub fn cancelled(&self) -> LocalBoxFuture<'static, String> {
        self.cancelled.clone().boxed_local()
    }

    /// The token as a [`CancelSource`].
    pub fn source(&self) -> CancelSource {
        let token = self.clone();
        Rc::new(move || token.cancelled())
    }
}

/// Options of one call.
///
/// Besides `cancel` and the timeouts, dropping a call's future cancels it:
/// the server is sent `notifications/cancelled` (a task's call also asks it
/// to cancel the task), and on the web the call's fetch is aborted.
#[derive(Clone, Default)]
pub struct RequestOptions {
    /// Overrides the client's default timeout, in milliseconds.
    pub timeout_ms: Option<u32>,
    /// Cancels the call: the client tells the server and the call fails with
    /// [`crate::Error::Cancelled`].
    pub cancel: Option<CancelSource>,
    /// Asks the server for progress and receives each update's params.
    pub on_progress: Option<ProgressListener>,
    /// Restarts the timeout whenever progress arrives.
    pub reset_timeout_on_progress: bool,
    /// A cap on the whole call, however often progress resets the timeout,
    /// and (2026-07-28) however many rounds of input and retries it takes;
    /// for a walk of every page, all its pages; for a task, the whole task.
    pub max_total_timeout_ms: Option<u32>,
}

impl std::fmt::Debug for RequestOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestOptions")
            .field("timeout_ms", &self.timeout_ms)
            .field("cancel", &self.cancel.is_some())
            .field("on_progress", &self.on_progress.is_some())
            .field("reset_timeout_on_progress", &self.reset_timeout_on_progress)
            .field("max_total_timeout_ms", &self.max_total_timeout_ms)
            .finish()
    }
}

impl RequestOptions {
    /// Sets the timeout.
    #[must_use]
    pub fn timeout(mut self, ms: u32) -> Self {
        self.timeout_ms = Some(ms);
        self
    }

    /// Cancels the call when `token` is cancelled.
    #[must_use]
    pub fn cancel_with(mut self, token: &CancelToken) -> Self {
        self.cancel = Some(token.source());
        self
    }

    /// Receives progress; with `reset_timeout`, each update restarts the timeout.
    #[must_use]
    pub fn on_progress(mut self, listener: impl Fn(&Value) + 'static, reset_timeout: bool) -> Self {
        self.on_progress = Some(Rc::new(listener));
        self.reset_timeout_on_progress = reset_timeout;
        self
    }
}

/// How to connect, and how the client behaves.
#[derive(Clone)]
pub struct ClientOptions {
    /// `clientInfo`.
    pub client_info: Implementation,
    /// The default timeout of each request, in milliseconds.
    pub timeout_ms: u32,
    /// The legacy revision to offer in `initialize`.
    pub protocol_version: &'static str,
    /// Which era to speak.
    pub era: EraChoice,
    /// Which transport to use.
    pub transport: TransportChoice,
    /// Extra client capabilities, merged over those the handlers imply.
    pub capabilities: Option<Value>,
    /// The answers to the server's requests.
    pub handlers: Handlers,
    /// Refuse calls the server did not declare support for.
    pub strict: bool,
    /// Check `structuredContent` against the tool's `outputSchema`, and
    /// elicitation answers against the requested schema.
    pub validate_output: bool,
    /// A validator in place of the built-in one (Cargo feature `validator`);
    /// without either, `structuredContent` is passed on unchecked and an
    /// elicitation answer is held to `required` alone.
    pub validator: Option<Rc<dyn SchemaValidator>>,
    /// The checks a skill's files pass, in place of the built-in ones (Cargo
    /// feature `skills`); without either, `read_skill` and `read_skill_file`
    /// refuse with `unsupported` rather than hand over an unchecked file.
    pub skill_checker: Option<Rc<dyn SkillChecker>>,
    /// How many input rounds a 2026-07-28 request may ask for.
    pub max_input_rounds: u32,
    /// Keep list and read results for their `ttlMs` (2026-07-28), within these bounds.
    #[cfg(feature = "modern")]
    pub cache: Option<CacheBounds>,
    /// The bounds on what the server can make the client do.
    pub limits: Limits,
    /// Lists to refresh on `list_changed`.
    pub list_changed: Vec<ListWatcher>,
    /// Cancels the connection attempt.
    pub cancel: Option<CancelSource>,
    /// Sees every JSON-RPC message in and out, the handshake's included.
    pub trace: Option<TraceListener>,
}

impl std::fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientOptions")
            .field("client_info", &self.client_info)
            .field("timeout_ms", &self.timeout_ms)
            .field("protocol_version", &self.protocol_version)
            .field("era", &self.era)
            .field("transport", &self.transport)
            .field("strict", &self.strict)
            .field("trace", &self.trace.is_some())
            .finish()
    }
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            client_info: Implementation::new("mcp-wasm", env!("CARGO_PKG_VERSION")),
            timeout_ms: DEFAULT_TIMEOUT_MS,
            protocol_version: version::LATEST_LEGACY,
            era: EraChoice::Auto,
            transport: TransportChoice::Auto,
            capabilities: None,
            handlers: Handlers::default(),
            strict: true,
            validate_output: true,
            validator: None,
            skill_checker: None,
            max_input_rounds: DEFAULT_MAX_ROUNDS,
            #[cfg(feature = "modern")]
            cache: None,
            limits: Limits::DEFAULT,
            list_changed: Vec::new(),
            cancel: None,
            trace: None,
        }
    }
}

impl ClientOptions {
    /// Sets `clientInfo`.
    #[must_use]
    pub fn client_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.client_info = Implementation::new(name, version);
        self
    }

    /// Sets the default timeout.
    #[must_use]
    pub fn timeout(mut self, ms: u32) -> Self {
        self.timeout_ms = ms;
        self
    }

    /// Sets the handlers.
    #[must_use]
    pub fn handlers(mut self, handlers: Handlers) -> Self {
        self.handlers = handlers;
        self
    }

    /// Shows every JSON-RPC message in and out to `listener`.
    #[must_use]
    pub fn trace(mut self, listener: impl Fn(crate::session::TraceDirection, &crate::protocol::jsonrpc::Message) + 'static) -> Self {
        self.trace = Some(Rc::new(listener));
        self
    }

    /// Chooses the era.
    #[must_use]
    pub fn era(mut self, era: EraChoice) -> Self {
        self.era = era;
        self
    }
}
