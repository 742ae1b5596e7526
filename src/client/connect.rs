//! Choosing the era and the transport, then the handshake.
//!
//! `auto` follows the spec's recipe. The 2026-07-28 probe, `server/discover`,
//! goes first; only evidence of an older server (a 400, 404 or 405 without a
//! modern error, an answer that is no discover result, or in browsers a
//! network error, which is how a CORS refusal looks) falls back to
//! `initialize`. Then only a refused `initialize` (400, 404, 405) means the
//! 2024-11-05 HTTP+SSE transport. A 5xx, a 401 or 403, or a network error
//! elsewhere is reported as it is.

use super::events::{ClientEvent, EventHub};
use super::handlers::Answering;
use super::lifecycle::{initialize, HandshakeError, Offer, Stage};
use super::options::{ClientOptions, Era, EraChoice, TransportChoice};
use super::snapshot::Snapshot;
use super::state::ClientState;
use crate::error::Error;
use crate::protocol::lifecycle::ServerIdentity;
use crate::protocol::modern;
use crate::session::{CallOptions, Channel, ConnectionStatus, Connector, OpenContext, Session};
use futures::future::{self, LocalBoxFuture};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::task::Poll;

/// An initialized session and what carries it.
pub(crate) struct Connected {
    pub session: Session,
    pub channel: Channel,
    pub era: Era,
    pub identity: ServerIdentity,
}

/// What wires each new session to the client: its handlers, events and limits.
pub(crate) struct Wiring {
    pub events: Rc<EventHub>,
    pub answering: Rc<Answering>,
    pub max_server_requests: usize,
    /// Sees every message of every session.
    pub trace: Option<crate::session::TraceListener>,
    /// The client, once it exists: a session the server ended is renewed through it.
    pub client: Rc<RefCell<Weak<ClientState>>>,
}

impl Wiring {
    fn prepare(&self, session: &Session) {
        session.set_handler(Some(self.answering.clone()));
        session.set_max_server_requests(self.max_server_requests);
        session.set_trace_listener(self.trace.clone());
        let events = Rc::downgrade(&self.events);
        session.set_notification_listener(Some(Rc::new(move |method, params| {
            if let Some(events) = events.upgrade() {
                let notification = super::events::Notification { method: method.to_owned(), params: params.cloned() };
                events.emit(&ClientEvent::Notification(notification));
            }
        })));
        let events = Rc::downgrade(&self.events);
        session.set_problem_listener(Some(Rc::new(move |problem| {
            if let Some(events) = events.upgrade() {
                events.emit(&ClientEvent::Problem(problem));
            }
        })));
        let (events, client) = (Rc::downgrade(&self.events), self.client.clone());
        session.set_status_listener(Some(Rc::new(move |status| {
            let event = match status {
                ConnectionStatus::SessionExpired => {
                    if let Some(state) = client.borrow().upgrade() {
                        state.renew_in_background();
                    }
                    return;
                }
                ConnectionStatus::Reconnecting { attempt, delay_ms } => ClientEvent::Reconnecting { attempt, delay_ms },
                ConnectionStatus::Reconnected => ClientEvent::Reconnected,
            };
            if let Some(events) = events.upgrade() {
                events.emit(&event);
            }
        })));
    }
}

/// Everything one connection attempt needs.
pub(crate) struct Attempt<'a> {
    pub connector: &'a dyn Connector,
    pub context: &'a OpenContext,
    pub options: &'a ClientOptions,
    pub offer: &'a Offer,
    pub wiring: &'a Wiring,
}

impl Attempt<'_> {
    /// Opens `channel`, until `connect()`'s signal aborts: a custom transport's `start()`
    /// or an HTTP+SSE endpoint may take as long as the peer likes.
    async fn open(&self, channel: Channel) -> Result<Session, Error> {
        let mut opening = self.connector.open(channel, self.context);
        let mut cancel = self.options.cancel.as_ref().map(|source| source());
        let session = future::poll_fn(|cx| {
            if let Some(Poll::Ready(reason)) = cancel.as_mut().map(|cancel| cancel.as_mut().poll(cx)) {
                return Poll::Ready(Err(Error::Cancelled { reason }));
            }
            opening.as_mut().poll(cx)
        })
        .await?;
        self.wiring.prepare(&session);
        Ok(session)
    }

    fn call_options(&self) -> CallOptions {
        CallOptions { cancel: self.options.cancel.as_ref().map(|source| source()), ..CallOptions::default() }
    }

    async fn handshake(&self, session: Session, channel: Channel) -> Result<Connected, HandshakeError> {
        match initialize(&session, self.offer, &|| self.call_options()).await {
            Ok(identity) => Ok(Connected { session, channel, era: Era::Legacy, identity }),
            Err(failure) => {
                session.close_in_background();
                Err(failure)
            }
        }
    }

    /// The modern handshake: `server/discover`, sent once more if the server
    /// refuses the revision and then lists it among those it speaks.
    #[cfg(feature = "modern")]
    async fn discover(&self, session: &Session) -> Result<ServerIdentity, Error> {
        let meta = modern::RequestMeta {
            version: modern::VERSION,
            capabilities: &self.offer.capabilities,
            client_info: &self.offer.client_info,
            log_level: None,
        };
        let ask = || session.request("server/discover", Some(modern::with_meta(None, &meta)), self.call_options());
        let result = match ask().await {
            Err(Error::Rpc(refusal)) => match modern::version_answer(&refusal) {
                Some(modern::VersionAnswer::Retry) => ask().await?,
                Some(modern::VersionAnswer::Unsupported(versions)) => return Err(Error::UnsupportedVersion(versions.join(", "))),
                None => return Err(Error::Rpc(refusal)),
            },
            other => other?,
        };
        let modern::Outcome::Complete(result) = modern::classify_result(result).map_err(Error::Protocol)? else {
            return Err(Error::protocol("server/discover did not complete".into()));
        };
        let discovery = modern::read_discovery(&result).map_err(Error::Protocol)?;
        if !discovery.supported_versions.iter().any(|v| v == modern::VERSION) {
            return Err(Error::unsupported_version(discovery.supported_versions.join(", ")));
        }
        Ok(ServerIdentity {
            protocol_version: modern::VERSION,
            capabilities: discovery.capabilities,
            server_info: discovery.server_info.unwrap_or_else(|| crate::protocol::types::Implementation::new("", "").to_json()),
            instructions: discovery.instructions,
        })
    }

    /// Whether a failed `server/discover` probe says "an older server".
    #[cfg(feature = "modern")]
    fn legacy_evidence(&self, error: &Error) -> bool {
        match error {
            // A modern server answers with −32022/−32021/−32020 (its own
            // refusals); anything else is no modern server, −32601 included:
            // every modern server implements server/discover (the TS SDK reads
            // it so too).
            Error::Rpc(e) => modern::recovery(e).is_none(),
            Error::Protocol(_) => true,
            Error::Http { status, code, .. } => modern::verdict(*status, *code) == modern::Verdict::Legacy,
            // A legacy server's CORS allow-list that predates the new headers
            // fails the browser's preflight, which scripts see as a network error.
            Error::Network { .. } => self.connector.hides_refusals(),
            // A server of both eras that refuses 2026-07-28 but lists an
            // `initialize` revision: negotiate that one the legacy way.
            Error::UnsupportedVersion(listed) => lists_a_legacy_revision(listed),
            _ => false,
        }
    }

    /// Opens the transport the options ask for and runs the handshake.
    pub(crate) async fn establish(&self) -> Result<Connected, Error> {
        if self.connector.is_custom() {
            return self.establish_custom().await;
        }
        let (transport, era) = (self.options.transport, self.options.era);
        #[cfg(not(feature = "modern"))]
        if era == EraChoice::Modern {
            return Err(left_out());
        }
        #[cfg(feature = "modern")]
        if transport != TransportChoice::Sse && era != EraChoice::Legacy {
            let session = self.open(Channel::StreamableHttp).await?;
            session.transport().set_protocol_version(modern::VERSION);
            match self.discover(&session).await {
                Ok(identity) => {
                    session.ignore_server_requests();
                    return Ok(Connected { session, channel: Channel::StreamableHttp, era: Era::Modern, identity });
                }
                Err(error) => {
                    session.close_in_background();
                    if era == EraChoice::Modern || !self.legacy_evidence(&error) {
                        return Err(error);
                    }
                }
            }
        }
        if transport != TransportChoice::Sse {
            let session = self.open(Channel::StreamableHttp).await?;
            match self.handshake(session, Channel::StreamableHttp).await {
                // Only a refused `initialize` can mean an older server, and not a
                // refusal in the modern era's own terms.
                Err(HandshakeError { stage: Stage::Initialize, error: Error::Http { status: 400 | 404 | 405, code, .. } })
                    if transport == TransportChoice::Auto && !code.is_some_and(is_modern_refusal) => {}
                // The error names what the server speaks, not its refusal's text.
                Err(HandshakeError {
                    error: Error::Http { code: Some(modern::codes::UNSUPPORTED_PROTOCOL_VERSION), message, .. }, ..
                }) => {
                    return Err(Error::unsupported_version(modern::named_versions(&message).unwrap_or_default().to_owned()));
                }
                Err(HandshakeError { error: Error::Rpc(refusal), .. }) if refusal.code == modern::codes::UNSUPPORTED_PROTOCOL_VERSION => {
                    let listed = match modern::recovery(&refusal) {
                        Some(modern::Recovery::OtherVersions(versions)) => versions.join(", "),
                        _ => String::new(),
                    };
                    return Err(Error::unsupported_version(listed));
                }
                other => return Ok(other?),
            }
        }
        let session = self.open(Channel::Sse).await?;
        Ok(self.handshake(session, Channel::Sse).await?)
    }

    /// Opens a custom transport and runs the handshake. A future of its own, as `resume` is:
    /// a page that connects to a URL never polls it.
    #[inline(never)]
    fn establish_custom(&self) -> LocalBoxFuture<'_, Result<Connected, Error>> {
        Box::pin(async move {
            let session = self.open(Channel::Custom).await?;
            Ok(self.handshake(session, Channel::Custom).await?)
        })
    }

    /// Continues the connection `snapshot` describes, without a handshake:
    /// the legacy era adopts the session id (and resumes the GET stream after
    /// its last event id), the modern era reuses the kept `server/discover`
    /// result. HTTP+SSE sessions end with their stream, so an `sse` snapshot
    /// connects anew.
    ///
    /// A future of its own, not awaited inline: a page that connects anew never polls it,
    /// and the core's split (scripts/split/) leaves it out of the module a page loads first.
    #[inline(never)]
    pub(crate) fn resume(&self, snapshot: Snapshot) -> LocalBoxFuture<'_, Result<Connected, Error>> {
        Box::pin(self.resume_from(snapshot))
    }

    async fn resume_from(&self, snapshot: Snapshot) -> Result<Connected, Error> {
        if snapshot.transport == Channel::Sse.name() {
            let options = ClientOptions { transport: TransportChoice::Sse, era: EraChoice::Legacy, ..self.options.clone() };
            return Attempt { options: &options, ..*self }.establish().await;
        }
        let session = self.open(Channel::StreamableHttp).await?;
        session.transport().set_protocol_version(snapshot.identity.protocol_version);
        #[cfg(not(feature = "modern"))]
        if snapshot.modern {
            return Err(left_out());
        }
        let era = if snapshot.modern { Era::Modern } else { Era::Legacy };
        if era == Era::Legacy {
            session.number_requests_after(resumed_ids_base(self.context.runtime.random()));
            session.transport().adopt_session(snapshot.session_id, snapshot.last_event_id);
            session.transport().listen();
        } else {
            session.ignore_server_requests();
        }
        Ok(Connected { session, channel: Channel::StreamableHttp, era, identity: snapshot.identity })
    }
}

/// Where a resumed session's request ids start, from a random number in
/// `[0, 1)`: anywhere below 2^52, so that two resumptions of one snapshot
/// (each Worker invocation may make one) are all but sure not to meet, and
/// every id stays an integer that a JavaScript server reads exactly.
fn resumed_ids_base(random: f64) -> i64 {
    const SPAN: f64 = 4_503_599_627_370_496.0; // 2^52
    (random.clamp(0.0, 1.0) * SPAN) as i64
}

/// What asking for the 2026-07-28 era gets from a build without it.
#[cfg(not(feature = "modern"))]
fn left_out() -> Error {
    Error::invalid_argument("the 2026-07-28 era is left out of this build (Cargo feature modern)".into())
}

/// −32020, −32021, −32022: a server of the modern era refusing, not an older server.
fn is_modern_refusal(code: i64) -> bool {
    matches!(code, modern::codes::HEADER_MISMATCH | modern::codes::MISSING_CLIENT_CAPABILITY | modern::codes::UNSUPPORTED_PROTOCOL_VERSION)
}

/// Whether a refusal's list of revisions (`", "`-separated) holds one this client speaks the
/// legacy way. Apart: a server of both eras that refuses 2026-07-28 is rare.
#[cfg(feature = "modern")]
#[inline(never)]
fn lists_a_legacy_revision(listed: &str) -> bool {
    listed.split(", ").any(|v| crate::protocol::version::supported(v).is_some())
}
