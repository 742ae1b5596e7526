//! Choosing and opening the transport, then the handshake.
//!
//! `auto` follows the spec's backwards-compatibility recipe: POST
//! `initialize` (Streamable HTTP); only a 400, 404 or 405 means an older
//! server, and then a GET that must answer with an `endpoint` event selects
//! HTTP+SSE (2024-11-05). A 5xx, a 401 or 403, or a network error is never
//! read as "legacy": it is reported as it is.

use super::custom_transport::JsTransport;
use super::handlers::JsHandlers;
use super::options::ConnectOptions;
use crate::error::Error;
use crate::protocol::lifecycle::ServerIdentity;
use crate::protocol::modern;
use crate::session::lifecycle::{initialize, HandshakeError, Offer, Stage};
use crate::session::snapshot::Snapshot;
use crate::session::{CallOptions, NotificationListener, ProblemListener, Session, Transport};
use crate::transport::fetch::Fetch;
use crate::transport::legacy_sse::{LegacySse, LegacySseConfig, SseReader};
use crate::transport::streamable_http::{StatusListener, StreamableHttp, StreamableHttpConfig, ToolSchemas};
use crate::transport::web_runtime::WebRuntime;
use futures::future::LocalBoxFuture;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// Which protocol era to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EraChoice {
    /// Probe with `server/discover`, then fall back to `initialize`.
    Auto,
    /// 2026-07-28 only.
    Modern,
    /// The `initialize` revisions only.
    Legacy,
}

/// The era a connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2024-11-05 to 2025-11-25.
    Legacy,
    /// 2026-07-28.
    Modern,
}

/// Which transport to use.
#[derive(Debug, Clone)]
pub enum Choice {
    /// Streamable HTTP, falling back to HTTP+SSE for an older server.
    Auto,
    /// Streamable HTTP only.
    StreamableHttp,
    /// HTTP+SSE (2024-11-05) only.
    Sse,
}

/// Where to connect: an HTTP endpoint, or the user's transport object.
#[derive(Debug)]
pub enum Target {
    /// An MCP URL.
    Url(String),
    /// A JS transport object.
    Custom(JsValue),
}

/// What every attempt shares.
#[allow(missing_debug_implementations)]
pub struct Parts {
    /// The sampling, elicitation and roots handlers.
    pub handlers: Rc<JsHandlers>,
    /// Where notifications go.
    pub listener: NotificationListener,
    /// Where connection changes go.
    pub on_status: StatusListener,
    /// What `initialize` offers.
    pub offer: Offer,
    /// Aborts the attempt.
    pub cancel: Option<Rc<dyn Fn() -> LocalBoxFuture<'static, String>>>,
    /// Tool input schemas, shared with the transport for `Mcp-Param-*` headers.
    pub tool_schemas: ToolSchemas,
    /// The authorization context, shared by every attempt.
    pub auth: Option<Rc<crate::transport::oauth::OAuth>>,
    /// Hears problems that belong to no request (limits the server ran into).
    pub problems: ProblemListener,
}

/// An initialized session and what carries it.
#[derive(Debug)]
pub struct Connected {
    /// The session.
    pub session: Session,
    /// `"streamable-http"`, `"sse"` or `"custom"`.
    pub kind: &'static str,
    /// The era it speaks.
    pub era: Era,
    /// What the server said about itself (`initialize` or `server/discover`).
    pub identity: ServerIdentity,
}

fn prepare(parts: &Parts, session: &Session, options: &ConnectOptions) {
    session.set_handler(Some(parts.handlers.clone()));
    session.set_notification_listener(Some(parts.listener.clone()));
    session.set_problem_listener(Some(parts.problems.clone()));
    session.set_max_server_requests(options.limits.max_server_requests);
}

async fn handshake(session: Session, kind: &'static str, parts: &Parts) -> Result<Connected, HandshakeError> {
    let call = CallOptions { cancel: parts.cancel.as_ref().map(|c| c()), ..CallOptions::default() };
    match initialize(&session, &parts.offer, call).await {
        Ok(identity) => Ok(Connected { session, kind, era: Era::Legacy, identity }),
        Err(failure) => {
            session.close().await;
            Err(failure)
        }
    }
}

/// A session over a Streamable HTTP transport to `url`, ready for its handshake.
fn streamable_session(url: String, options: &ConnectOptions, parts: &Parts) -> (Session, Rc<StreamableHttp>) {
    let config = StreamableHttpConfig {
        url,
        fetch: Fetch::new(options.fetch.clone()),
        headers: options.headers.clone(),
        on_status: Some(parts.on_status.clone()),
        tool_schemas: parts.tool_schemas.clone(),
        auth: parts.auth.clone(),
        max_message_bytes: options.limits.max_message_bytes,
    };
    let (session, transport) = Session::new(Rc::new(WebRuntime), options.timeout_ms, |sink| Rc::new(StreamableHttp::new(config, sink)));
    prepare(parts, &session, options);
    (session, transport)
}

/// Whether a failed `server/discover` probe says "an older server": a 400,
/// 404 or 405 without a modern JSON-RPC error; a JSON-RPC error in a success
/// response (a modern server answers an unknown method with HTTP 404, and
/// must implement `server/discover` anyway); an answer that is no discover
/// result; or, in browsers only, a network error (a legacy server's CORS
/// allow-list that predates the new headers fails the preflight, which
/// scripts see as a bare `TypeError`).
fn legacy_evidence(error: &Error) -> bool {
    match error {
        // A modern server answers with -32022/-32021/-32020 (its own refusals)
        // or -32601 in a 404; anything else is no modern server.
        Error::Rpc(e) => modern::recovery(e).is_none() && e.code != -32601,
        Error::Protocol(_) => true,
        Error::Http { status, code, .. } => modern::verdict(*status, *code) == modern::Verdict::Legacy,
        Error::Network { .. } => crate::transport::fetch::in_browser(),
        _ => false,
    }
}

/// The modern handshake: `server/discover`, sent once more if the server
/// refuses the revision and then lists it among those it speaks.
async fn discover(session: &Session, parts: &Parts) -> Result<ServerIdentity, Error> {
    let meta = modern::RequestMeta {
        version: modern::VERSION,
        capabilities: &parts.offer.capabilities,
        client_info: &parts.offer.client_info,
        log_level: None,
    };
    let ask = || {
        let call = CallOptions { cancel: parts.cancel.as_ref().map(|c| c()), ..CallOptions::default() };
        session.request("server/discover", Some(modern::with_meta(None, &meta)), call)
    };
    let result = match ask().await {
        Err(Error::Rpc(refusal)) => match modern::version_answer(&refusal) {
            Some(modern::VersionAnswer::Retry) => ask().await?,
            Some(modern::VersionAnswer::Unsupported(versions)) => return Err(Error::UnsupportedVersion(versions.join(", "))),
            None => return Err(Error::Rpc(refusal)),
        },
        other => other?,
    };
    let modern::Outcome::Complete(result) = modern::classify_result(result).map_err(Error::Protocol)? else {
        return Err(Error::Protocol("server/discover did not complete".into()));
    };
    let discovery = modern::read_discovery(&result).map_err(Error::Protocol)?;
    if !discovery.supported_versions.iter().any(|v| v == modern::VERSION) {
        return Err(Error::UnsupportedVersion(discovery.supported_versions.join(", ")));
    }
    Ok(ServerIdentity {
        protocol_version: modern::VERSION,
        capabilities: discovery.capabilities,
        server_info: discovery.server_info.unwrap_or_else(|| serde_json::json!({ "name": "", "version": "" })),
        instructions: discovery.instructions,
    })
}

/// −32020, −32021, −32022: a server of the modern era refusing, not an older server.
fn is_modern_refusal(code: i64) -> bool {
    matches!(code, modern::codes::HEADER_MISMATCH | modern::codes::MISSING_CLIENT_CAPABILITY | modern::codes::UNSUPPORTED_PROTOCOL_VERSION)
}

fn is_browser() -> bool {
    let global = js_sys::global();
    let defined = |name: &str| js_sys::Reflect::get(&global, &name.into()).is_ok_and(|v| !v.is_undefined());
    defined("document") && defined("EventSource")
}

/// Opens the transport the options ask for and runs the handshake.
///
/// # Errors
/// The handshake's or the transport's error; for `auto`, the Streamable HTTP
/// error unless it was a 400, 404 or 405.
pub async fn connect(target: Target, options: &ConnectOptions, parts: &Parts) -> Result<Connected, Error> {
    let url = match target {
        Target::Custom(object) => {
            let (session, transport) =
                Session::new(Rc::new(WebRuntime), options.timeout_ms, |sink| Rc::new(JsTransport::new(object, sink)));
            prepare(parts, &session, options);
            transport.start().await?;
            return Ok(handshake(session, "custom", parts).await?);
        }
        Target::Url(url) => url,
    };
    if !matches!(options.transport, Choice::Sse) && options.era != EraChoice::Legacy {
        let (session, transport) = streamable_session(url.clone(), options, parts);
        transport.set_protocol_version(modern::VERSION);
        match discover(&session, parts).await {
            Ok(identity) => return Ok(Connected { session, kind: "streamable-http", era: Era::Modern, identity }),
            Err(error) => {
                session.close().await;
                if options.era == EraChoice::Modern || !legacy_evidence(&error) {
                    return Err(error);
                }
            }
        }
    }
    if !matches!(options.transport, Choice::Sse) {
        let (session, _) = streamable_session(url.clone(), options, parts);
        match handshake(session, "streamable-http", parts).await {
            // Only a refused `initialize` can mean an older server, and not a
            // refusal in the modern era's own terms.
            Err(HandshakeError { stage: Stage::Initialize, error: Error::Http { status: 400 | 404 | 405, code, .. } })
                if matches!(options.transport, Choice::Auto) && !code.is_some_and(is_modern_refusal) => {}
            Err(HandshakeError { error: Error::Http { code: Some(modern::codes::UNSUPPORTED_PROTOCOL_VERSION), message, .. }, .. }) => {
                return Err(Error::UnsupportedVersion(message));
            }
            Err(HandshakeError { error: Error::Rpc(refusal), .. }) if refusal.code == modern::codes::UNSUPPORTED_PROTOCOL_VERSION => {
                return Err(Error::UnsupportedVersion(refusal.message));
            }
            other => return Ok(other?),
        }
    }
    let reader = match options.sse_reader {
        Some(reader) => reader,
        // EventSource cannot send headers, and cannot go through a custom fetch.
        None if is_browser()
            && options.fetch.is_none()
            && matches!(options.headers, crate::transport::streamable_http::HeaderSource::None) =>
        {
            SseReader::EventSource
        }
        None => SseReader::Fetch,
    };
    let config = LegacySseConfig {
        url,
        fetch: Fetch::new(options.fetch.clone()),
        headers: options.headers.clone(),
        reader,
        max_message_bytes: options.limits.max_message_bytes,
    };
    let (session, transport) = Session::new(Rc::new(WebRuntime), options.timeout_ms, |sink| Rc::new(LegacySse::new(config, sink)));
    prepare(parts, &session, options);
    transport.open(options.timeout_ms).await?;
    Ok(handshake(session, "sse", parts).await?)
}

/// Continues the connection `snapshot` describes, without a handshake: the
/// legacy era adopts the session id (and resumes the GET stream after its
/// last event id), the modern era reuses the kept `server/discover` result.
/// A session the server has since forgotten is renewed by the client on the
/// first 404, with a fresh `initialize`. HTTP+SSE sessions end with their
/// event stream, so an `sse` snapshot connects anew.
///
/// # Errors
/// As [`connect`] for an `sse` snapshot; otherwise none until the first request.
pub async fn resume(snapshot: Snapshot, options: &ConnectOptions, parts: &Parts) -> Result<Connected, Error> {
    if snapshot.transport == "sse" {
        let options = ConnectOptions { transport: Choice::Sse, era: EraChoice::Legacy, ..options.clone() };
        return connect(Target::Url(snapshot.url), &options, parts).await;
    }
    let (session, transport) = streamable_session(snapshot.url, options, parts);
    transport.set_protocol_version(snapshot.identity.protocol_version);
    let era = if snapshot.modern { Era::Modern } else { Era::Legacy };
    if era == Era::Legacy {
        transport.adopt_session(snapshot.session_id, snapshot.last_event_id);
        transport.listen();
    }
    Ok(Connected { session, kind: "streamable-http", era, identity: snapshot.identity })
}
