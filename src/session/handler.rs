//! Requests from the server to the client (sampling, elicitation, roots), as
//! the session sees them: a method, params, and a way to learn that the server
//! gave up. The JS layer implements [`ClientHandler`] with the user's functions.

use crate::protocol::jsonrpc::{ErrorObject, RequestId};
use futures::future::LocalBoxFuture;
use serde_json::Value;

/// What a handler's answer is: a result, or an error to send back.
pub type HandlerResult = LocalBoxFuture<'static, Result<Value, ErrorObject>>;

/// The context of one server request.
pub struct InboundContext {
    /// The server's id for the request.
    pub id: RequestId,
    /// Completes, with the server's reason, if the server sends
    /// `notifications/cancelled` for this request or the client closes.
    pub cancelled: LocalBoxFuture<'static, String>,
}

impl std::fmt::Debug for InboundContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InboundContext").field("id", &self.id).finish()
    }
}

/// Answers the server's requests.
pub trait ClientHandler {
    /// Starts handling `method`, or returns `None` when the client has no
    /// handler for it (the session then answers −32601).
    fn handle(&self, method: &str, params: Option<Value>, ctx: InboundContext) -> Option<HandlerResult>;
}
