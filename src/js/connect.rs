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
use crate::session::lifecycle::{initialize, HandshakeError, Offer, Stage};
use crate::session::{CallOptions, NotificationListener, Session};
use crate::transport::fetch::Fetch;
use crate::transport::legacy_sse::{LegacySse, LegacySseConfig, SseReader};
use crate::transport::streamable_http::{StatusListener, StreamableHttp, StreamableHttpConfig};
use crate::transport::web_runtime::WebRuntime;
use futures::future::LocalBoxFuture;
use std::rc::Rc;
use wasm_bindgen::JsValue;

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
}

/// An initialized session and what carries it.
#[derive(Debug)]
pub struct Connected {
    /// The session.
    pub session: Session,
    /// `"streamable-http"`, `"sse"` or `"custom"`.
    pub kind: &'static str,
    /// The server's answer to `initialize`.
    pub identity: ServerIdentity,
}

fn prepare(parts: &Parts, session: &Session) {
    session.set_handler(Some(parts.handlers.clone()));
    session.set_notification_listener(Some(parts.listener.clone()));
}

async fn handshake(session: Session, kind: &'static str, parts: &Parts) -> Result<Connected, HandshakeError> {
    let call = CallOptions { cancel: parts.cancel.as_ref().map(|c| c()), ..CallOptions::default() };
    match initialize(&session, &parts.offer, call).await {
        Ok(identity) => Ok(Connected { session, kind, identity }),
        Err(failure) => {
            session.close().await;
            Err(failure)
        }
    }
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
            prepare(parts, &session);
            transport.start().await?;
            return Ok(handshake(session, "custom", parts).await?);
        }
        Target::Url(url) => url,
    };
    if !matches!(options.transport, Choice::Sse) {
        let config = StreamableHttpConfig {
            url: url.clone(),
            fetch: Fetch::new(options.fetch.clone()),
            headers: options.headers.clone(),
            on_status: Some(parts.on_status.clone()),
        };
        let (session, _) = Session::new(Rc::new(WebRuntime), options.timeout_ms, |sink| Rc::new(StreamableHttp::new(config, sink)));
        prepare(parts, &session);
        match handshake(session, "streamable-http", parts).await {
            // Only a refused `initialize` can mean an older server.
            Err(HandshakeError { stage: Stage::Initialize, error: Error::Http { status: 400 | 404 | 405, .. } })
                if matches!(options.transport, Choice::Auto) => {}
            other => return Ok(other?),
        }
    }
    let reader = match options.sse_reader {
        Some(reader) => reader,
        // EventSource cannot send headers, and cannot go through a custom fetch.
        None if is_browser() && options.fetch.is_none() && matches!(options.headers, crate::transport::streamable_http::HeaderSource::None) => {
            SseReader::EventSource
        }
        None => SseReader::Fetch,
    };
    let config = LegacySseConfig { url, fetch: Fetch::new(options.fetch.clone()), headers: options.headers.clone(), reader };
    let (session, transport) = Session::new(Rc::new(WebRuntime), options.timeout_ms, |sink| Rc::new(LegacySse::new(config, sink)));
    prepare(parts, &session);
    transport.open(options.timeout_ms).await?;
    Ok(handshake(session, "sse", parts).await?)
}
