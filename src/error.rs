//! The crate's one error type. Wire errors (the server said no) and local
//! errors (we could not get an answer) are different variants, because callers
//! handle them differently: branch on `code` for the first, on `kind` for the rest.

use crate::protocol::jsonrpc::ErrorObject;

/// Everything that can go wrong between a call and its result.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server answered with a JSON-RPC error.
    #[error("MCP error {}: {}", .0.code, .0.message)]
    Rpc(ErrorObject),
    /// No response within the request's timeout.
    #[error("request timed out after {ms} ms")]
    Timeout {
        /// The timeout that elapsed.
        ms: u32,
    },
    /// The caller cancelled the request (in JS: its `AbortSignal` fired).
    #[error("request cancelled: {reason}")]
    Cancelled {
        /// The reason, as sent in `notifications/cancelled`.
        reason: String,
    },
    /// The client was closed, or closed itself after a fatal error, while the request was pending.
    #[error("the client is closed")]
    Closed,
    /// The server answered with an HTTP status that is not a success.
    #[error("HTTP {status}: {message}")]
    Http {
        /// The HTTP status code.
        status: u16,
        /// What the response said, or the status text.
        message: String,
        /// The JSON-RPC error code in the body, if it had one.
        code: Option<i64>,
    },
    /// The server ended the MCP session (HTTP 404 for our `Mcp-Session-Id`).
    #[error("the server ended the MCP session (HTTP {status})")]
    SessionExpired {
        /// The HTTP status that said so.
        status: u16,
    },
    /// The request did not reach the server or the response did not arrive
    /// (DNS, refused connection, CORS, a dropped stream).
    #[error("network error: {message}")]
    Network {
        /// What the platform reported.
        message: String,
    },
    /// The peer broke the protocol: malformed JSON, a wrong content type, a
    /// result of the wrong shape, a stream that ended before its response.
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The server wants a protocol revision this client does not speak.
    #[error("the server answered with protocol version {0:?}, which this client does not support")]
    UnsupportedVersion(String),
    /// A notification subscriber fell further behind than its buffer allows.
    #[error("the notification subscriber lagged more than {capacity} notifications behind")]
    Lagged {
        /// The subscriber's buffer size.
        capacity: usize,
    },
    /// The server did not declare the capability this call needs.
    #[error("the server does not support {0}")]
    Unsupported(String),
    /// A result failed validation against the schema it must follow.
    #[error("{0}")]
    Invalid(String),
    /// The server kept asking for input (2026-07-28 multi-round-trip
    /// requests) past the client's limit.
    #[error("the server asked for input more than {rounds} times")]
    InputRoundsExceeded {
        /// The limit.
        rounds: u32,
    },
    /// The server needs a client capability this client did not declare.
    #[error("the server requires client capabilities this client lacks: {0}")]
    MissingCapability(String),
    /// Authorization failed: discovery, registration, the user's consent, or
    /// the token exchange. The message says which step and why.
    #[error("authorization failed: {0}")]
    Auth(String),
    /// A value passed in by the caller is not valid.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// What the server sent or asked for goes beyond one of the client's
    /// limits: a message larger than `maxMessageBytes`, a schema, pattern or
    /// URI template that would take too much work, too many requests at once.
    /// The client stays usable.
    #[error("{message} (limit: {limit})")]
    LimitExceeded {
        /// The option that sets the limit, e.g. `"maxMessageBytes"`.
        limit: &'static str,
        /// What went over it.
        message: String,
    },
}

impl Error {
    // The constructors of the errors most paths may give are cold and never inlined: with
    // LLVM's hot/cold splitting (scripts/build.sh), a branch that ends in one, its message's
    // formatting included, leaves the function that has it, and the split of the core
    // (scripts/split/) keeps it out of the module a page loads first.
    /// [`Error::Protocol`], built where the peer broke the protocol.
    #[cold]
    #[inline(never)]
    pub(crate) fn protocol(message: String) -> Self {
        Self::Protocol(message)
    }

    /// [`Error::InvalidArgument`], built where a caller passed a wrong value.
    #[cold]
    #[inline(never)]
    pub(crate) fn invalid_argument(message: String) -> Self {
        Self::InvalidArgument(message)
    }

    /// A stable, machine-readable name for the variant, used as `kind` in JS.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Rpc(_) => "rpc",
            Self::Timeout { .. } => "timeout",
            Self::Cancelled { .. } => "cancelled",
            Self::Closed => "closed",
            Self::Http { .. } => "http",
            Self::SessionExpired { .. } => "session-expired",
            Self::Network { .. } => "network",
            Self::Protocol(_) => "protocol",
            Self::UnsupportedVersion(_) => "unsupported-version",
            Self::InvalidArgument(_) => "invalid-argument",
            Self::Lagged { .. } => "lagged",
            Self::Unsupported(_) => "unsupported",
            Self::Invalid(_) => "invalid-result",
            Self::InputRoundsExceeded { .. } => "input-rounds-exceeded",
            Self::MissingCapability(_) => "missing-capability",
            Self::Auth(_) => "auth",
            Self::LimitExceeded { .. } => "limit-exceeded",
        }
    }

    /// The HTTP status behind the error, where there is one.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Http { status, .. } | Self::SessionExpired { status } => Some(*status),
            _ => None,
        }
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
