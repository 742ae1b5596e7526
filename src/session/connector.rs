//! How a client gets its sessions without knowing how bytes travel: a
//! [`Connector`] opens a channel of the kind asked for (the platform's
//! Streamable HTTP or HTTP+SSE transport, or a transport the user wrote) and
//! hands back a [`Session`] over it. The client decides which to try and in
//! what order; the connector knows URLs, headers, `fetch` and authorization.

use super::{Runtime, Session};
use crate::error::Error;
use futures::future::LocalBoxFuture;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// A kind of channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Streamable HTTP: every revision from 2025-03-26 on, both eras.
    StreamableHttp,
    /// HTTP+SSE (2024-11-05).
    Sse,
    /// A transport the user supplied; it carries the legacy lifecycle.
    Custom,
}

impl Channel {
    /// The name users see (`client.transport`): `"streamable-http"`, `"sse"` or `"custom"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::StreamableHttp => "streamable-http",
            Self::Sse => "sse",
            Self::Custom => "custom",
        }
    }
}

/// The `inputSchema` of each listed tool whose arguments the 2026-07-28
/// revision mirrors into `Mcp-Param-*` headers, by tool name. The client
/// keeps it current; a transport that sends headers reads it. A JSON object's
/// map: the module has its code for `Value` anyway, where a `HashMap` would
/// compile in a hash table of its own.
pub type ToolSchemas = Rc<RefCell<serde_json::Map<String, Value>>>;

/// What every channel of one client is opened with.
#[derive(Clone)]
pub struct OpenContext {
    /// The clock and task runner.
    pub runtime: Rc<dyn Runtime>,
    /// The timeout of requests that set none.
    pub default_timeout_ms: u32,
    /// Tool input schemas, for transports that mirror arguments into headers.
    pub tool_schemas: ToolSchemas,
}

impl std::fmt::Debug for OpenContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenContext").field("default_timeout_ms", &self.default_timeout_ms).finish()
    }
}

/// Opens channels to one server.
pub trait Connector {
    /// The MCP endpoint, when it is a URL (a snapshot keeps it).
    fn url(&self) -> Option<String>;
    /// Whether this connector carries a user's own transport: only
    /// [`Channel::Custom`] then, with no probing.
    fn is_custom(&self) -> bool {
        false
    }
    /// Runs once before the first channel opens: takes up what an earlier
    /// process stored (OAuth tokens, say).
    fn prepare(&self) -> LocalBoxFuture<'static, ()> {
        Box::pin(futures::future::ready(()))
    }
    /// Opens a channel of `kind` and a session over it, ready for its
    /// handshake (for HTTP+SSE: the stream is open and its endpoint known).
    ///
    /// # Errors
    /// Whatever keeps the channel from opening.
    fn open(&self, kind: Channel, context: &OpenContext) -> LocalBoxFuture<'static, Result<Session, Error>>;
    /// Whether a network error may be the platform hiding a refusal (a
    /// browser's CORS preflight), which era detection counts as a sign of
    /// an older server.
    fn hides_refusals(&self) -> bool {
        false
    }
}
