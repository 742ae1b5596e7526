use crate::error::Error;
use crate::protocol::jsonrpc::envelope::Envelope;
use crate::protocol::jsonrpc::{Message, RequestId};
use futures::future::LocalBoxFuture;
use std::rc::Rc;

/// What happens to a connection's streams, for the client to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionStatus {
    /// A stream dropped; the transport waits `delay_ms`, then reconnects.
    Reconnecting {
        /// Which attempt this is, from 1.
        attempt: u32,
        /// How long it waits first.
        delay_ms: u32,
    },
    /// The server-to-client stream is back after a drop.
    Reconnected,
    /// The server no longer knows the session (seen on a stream of its own).
    SessionExpired,
}

/// A large result's JSON text, shared by the session, the reply and JS. A
/// `String` rather than a `str`: the transport moves the body it read into
/// it, so a 5 MiB result does not take another 5 MiB of wasm memory.
pub type ResultText = Rc<String>;

/// A large message that the transport keeps outside the session (in JS),
/// having handed on a text without what its checks do not read
/// (`protocol::jsonrpc::elide`): the checks read that text, and whoever needs
/// the full value reads the message in.
pub trait KeptMessage: std::fmt::Debug {
    /// The whole message's text, copied in; `None` if it cannot be read.
    fn read(&self) -> Option<String>;
    /// The length in bytes of the result's `structuredContent`, when the
    /// text the checks read lacks it: for what checks it in its place.
    fn structured_bytes(&self) -> Option<usize>;
    /// The concrete type, for the binding that hands the kept message to its caller.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A [`KeptMessage`], shared by the session, the reply and JS.
pub type Kept = Rc<dyn KeptMessage>;

/// What a transport hands back to the session.
#[derive(Debug)]
pub enum Inbound {
    /// A message from the server.
    Message(Message),
    /// The stream that should have carried the response to request `id` failed
    /// or ended without it.
    RequestFailed {
        /// The request that can no longer be answered.
        id: RequestId,
        /// Why.
        error: Error,
    },
    /// A large successful response to `id`, its result left as the server's
    /// text (`jsonrpc::raw_result` checked the envelope): the session parses
    /// it only for a caller that asks for the value.
    RawResponse {
        /// The request it answers.
        id: RequestId,
        /// The result's JSON text.
        text: ResultText,
        /// The whole message, when `text` lacks what its checks do not read.
        kept: Option<Kept>,
    },
    /// The one channel every response arrives on broke (the HTTP+SSE event
    /// stream, a user transport): no pending request can be answered now.
    ConnectionLost(Error),
    /// Something happened to the connection's streams.
    Status(ConnectionStatus),
    /// A message larger than the client reads was skipped on a shared
    /// stream; its envelope says which request it answered or was.
    Oversized {
        /// What the skipped bytes said about the message.
        envelope: Envelope,
        /// Its size.
        bytes: usize,
        /// The limit it went past (`maxMessageBytes`).
        limit: usize,
    },
    /// A message of more values than the client reads
    /// ([`crate::protocol::json::MAX_VALUES`]) was left unread; its envelope
    /// says which request it answered or was.
    TooManyValues(Envelope),
}

/// Where a transport delivers what it receives. Called synchronously, in order.
pub type InboundSink = Rc<dyn Fn(Inbound)>;

/// Moves JSON-RPC messages to and from one server.
pub trait Transport {
    /// Delivers `message` to the server. The future completes once the server
    /// has accepted it (for HTTP: once the response headers are in); replies
    /// arrive later through the [`InboundSink`] the transport was built with.
    fn send(&self, message: Message) -> LocalBoxFuture<'static, Result<(), Error>>;
    /// Records the negotiated protocol revision, for transports that send it in headers.
    fn set_protocol_version(&self, version: &'static str);
    /// Starts receiving messages the server sends outside any request (the
    /// Streamable HTTP GET stream). Called once the session is initialized;
    /// transports without such a channel do nothing.
    fn listen(&self) {}
    /// Cancels a request by closing what carries it. Returns `false` when the
    /// session must send `notifications/cancelled` instead (the legacy way).
    fn cancel_request(&self, _id: &RequestId) -> bool {
        false
    }
    /// The `Authorization` header the transport last sent, if any: it names
    /// the authorization context that private cached results belong to.
    fn authorization(&self) -> Option<String> {
        None
    }
    /// The server-issued session id, for transports that have one.
    fn session_id(&self) -> Option<String> {
        None
    }
    /// Forgets the server-side session (after it expired), so that the next
    /// `initialize` starts a new one. Aborts the transport's open streams.
    fn reset_session(&self) {}
    /// The id of the last event the GET stream delivered, so that a later
    /// connection can resume it (see `snapshot`).
    fn last_event_id(&self) -> Option<String> {
        None
    }
    /// Takes over a session an earlier connection started: its id, and where
    /// its GET stream left off. Transports without sessions ignore it.
    fn adopt_session(&self, _session_id: Option<String>, _last_event_id: Option<String>) {}
    /// Ends the connection: aborts open streams and releases server state.
    /// Called once.
    fn close(&self) -> LocalBoxFuture<'static, ()>;
}
