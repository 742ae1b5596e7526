//! The crate's one error type. Wire errors (the server said no) and local
//! errors (we could not get an answer) are different variants, because callers
//! handle them differently: branch on `code` for the first, on `kind` for the rest.

use crate::protocol::json_write::{write_i64, write_u64};
use crate::protocol::jsonrpc::ErrorObject;
use crate::protocol::version;
use std::fmt;

/// Everything that can go wrong between a call and its result.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Error {
    /// The server answered with a JSON-RPC error.
    Rpc(ErrorObject),
    /// No response within the request's timeout.
    Timeout {
        /// The timeout that elapsed.
        ms: u32,
    },
    /// The caller cancelled the request (in JS: its `AbortSignal` fired).
    Cancelled {
        /// The reason, as sent in `notifications/cancelled`.
        reason: String,
    },
    /// The client was closed, or closed itself after a fatal error, while the request was pending.
    Closed,
    /// The server answered with an HTTP status that is not a success.
    Http {
        /// The HTTP status code.
        status: u16,
        /// What the response said, or the status text.
        message: String,
        /// The JSON-RPC error code in the body, if it had one.
        code: Option<i64>,
    },
    /// The server ended the MCP session (HTTP 404 for our `Mcp-Session-Id`).
    SessionExpired {
        /// The HTTP status that said so.
        status: u16,
    },
    /// The request did not reach the server or the response did not arrive
    /// (DNS, refused connection, CORS, a dropped stream).
    Network {
        /// What the platform reported.
        message: String,
    },
    /// The peer broke the protocol: malformed JSON, a wrong content type, a
    /// result of the wrong shape, a stream that ended before its response.
    Protocol(String),
    /// The server wants a protocol revision this client does not speak.
    UnsupportedVersion(String),
    /// A notification subscriber fell further behind than its buffer allows.
    Lagged {
        /// The subscriber's buffer size.
        capacity: usize,
    },
    /// The server did not declare the capability this call needs.
    Unsupported(String),
    /// A result failed validation against the schema it must follow.
    Invalid(String),
    /// The server kept asking for input (2026-07-28 multi-round-trip
    /// requests) past the client's limit.
    InputRoundsExceeded {
        /// The limit.
        rounds: u32,
    },
    /// The server needs a client capability this client did not declare.
    MissingCapability(String),
    /// Authorization failed: discovery, registration, the user's consent, or
    /// the token exchange. The message says which step and why.
    Auth(String),
    /// A value passed in by the caller is not valid.
    InvalidArgument(String),
    /// What the server sent or asked for goes beyond one of the client's
    /// limits: a message larger than `maxMessageBytes`, a schema, pattern or
    /// URI template that would take too much work, too many requests at once.
    /// The client stays usable.
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

    /// Why a JSON text the client reads for itself (`what`: a result, a
    /// `structuredContent`) was not read: past the bound on values
    /// ([`crate::protocol::json::MAX_VALUES`]), [`Error::LimitExceeded`]
    /// (`message values`); else not JSON the reader accepts, [`Error::Protocol`].
    #[cold]
    #[inline(never)]
    pub(crate) fn unread(what: &str, error: &crate::protocol::json::JsonError) -> Self {
        let mut message = what.to_owned();
        message.push_str(": ");
        message.push_str(&error.message());
        if error.reason == crate::protocol::json::TOO_MANY_VALUES {
            return Self::LimitExceeded { limit: "message values", message };
        }
        Self::Protocol(message)
    }

    /// [`Error::InvalidArgument`], built where a caller passed a wrong value.
    #[cold]
    #[inline(never)]
    pub(crate) fn invalid_argument(message: String) -> Self {
        Self::InvalidArgument(message)
    }

    /// [`Error::UnsupportedVersion`], built where the server speaks no revision this client does.
    #[cold]
    #[inline(never)]
    pub(crate) fn unsupported_version(versions: String) -> Self {
        Self::UnsupportedVersion(versions)
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

    /// The error's text, as `Display` writes it and JS's `error.message` holds it.
    ///
    /// ```
    /// use mcp_wasm::Error;
    /// assert_eq!(Error::Timeout { ms: 1500 }.message(), "request timed out after 1500 ms");
    /// assert_eq!(Error::Http { status: 503, message: "busy".into(), code: None }.to_string(), "HTTP 503: busy");
    /// ```
    // Written piece by piece rather than with `format!`: core's formatting machinery then stays
    // out of the module a page loads first, which builds an error's text for JS.
    pub fn message(&self) -> String {
        let mut text = String::new();
        let mut put = |parts: &[&str]| parts.iter().for_each(|part| text.push_str(part));
        match self {
            Self::Rpc(error) => {
                put(&["MCP error "]);
                write_i64(&mut text, error.code);
                text.push_str(": ");
                text.push_str(&error.message);
            }
            Self::Timeout { ms } => {
                put(&["request timed out after "]);
                write_u64(&mut text, u64::from(*ms));
                text.push_str(" ms");
            }
            Self::Cancelled { reason } => put(&["request cancelled: ", reason]),
            Self::Closed => put(&["the client is closed"]),
            Self::Http { status, message, .. } => {
                put(&["HTTP "]);
                write_u64(&mut text, u64::from(*status));
                text.push_str(": ");
                text.push_str(message);
            }
            Self::Network { message } => put(&["network error: ", message]),
            Self::Protocol(message) => put(&["protocol error: ", message]),
            Self::InvalidArgument(message) => put(&["invalid argument: ", message]),
            _ => return self.rarer_message(),
        }
        text
    }

    // Apart from `message`, with the errors a first call is not expected to meet.
    #[inline(never)]
    fn rarer_message(&self) -> String {
        let mut text = String::new();
        let mut put = |parts: &[&str]| parts.iter().for_each(|part| text.push_str(part));
        match self {
            Self::SessionExpired { status } => {
                put(&["the server ended the MCP session (HTTP "]);
                write_u64(&mut text, u64::from(*status));
                text.push(')');
            }
            Self::UnsupportedVersion(version) if version.is_empty() => {
                put(&["the server refused the protocol version this client offered, and named none it speaks"]);
            }
            Self::UnsupportedVersion(versions) => {
                // A revision the client knows was kept out of this connection: by its `era` option,
                // mostly, or by a session already in the other era.
                let why = if versions.split(", ").any(version::speaks) {
                    ", which this connection did not offer (see the era option)"
                } else {
                    ", which this client does not support"
                };
                put(&["the server answered with protocol version ", &quoted(versions), why]);
            }
            Self::Lagged { capacity } => {
                put(&["the notification subscriber lagged more than "]);
                write_u64(&mut text, *capacity as u64);
                text.push_str(" notifications behind");
            }
            Self::Unsupported(what) => put(&["the server does not support ", what]),
            Self::Invalid(message) => put(&[message]),
            Self::InputRoundsExceeded { rounds } => {
                put(&["the server asked for input more than "]);
                write_u64(&mut text, u64::from(*rounds));
                text.push_str(" times");
            }
            Self::MissingCapability(what) => put(&["the server requires client capabilities this client lacks: ", what]),
            Self::Auth(message) => put(&["authorization failed: ", message]),
            Self::LimitExceeded { limit, message } => put(&[message, " (limit: ", limit, ")"]),
            // `message` writes these.
            Self::Rpc(_)
            | Self::Timeout { .. }
            | Self::Cancelled { .. }
            | Self::Closed
            | Self::Http { .. }
            | Self::Network { .. }
            | Self::Protocol(_)
            | Self::InvalidArgument(_) => return self.message(),
        }
        text
    }
}

// A version as Rust quotes a string (`{:?}`), apart: a server that answers with a
// version this client does not speak is rare.
#[inline(never)]
fn quoted(text: &str) -> String {
    format!("{text:?}")
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for Error {}

/// `format!` for the text of an error. The formatting is a cold call: with hot/cold
/// splitting (scripts/build.sh), the branch that builds the text leaves the function it is
/// in, and core's formatting stays out of the module a page loads first unless a first call
/// builds such a text.
macro_rules! cold_format {
    ($($arg:tt)*) => {
        $crate::error::format_cold(format_args!($($arg)*))
    };
}
pub(crate) use cold_format;

#[cold]
#[inline(never)]
pub(crate) fn format_cold(args: fmt::Arguments<'_>) -> String {
    fmt::format(args)
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::Error;
    use crate::protocol::jsonrpc::ErrorObject;

    #[test]
    fn every_variant_has_its_text() {
        let cases = [
            (Error::Rpc(ErrorObject::new(-32601, "no such method")), "MCP error -32601: no such method"),
            (Error::Timeout { ms: 60_000 }, "request timed out after 60000 ms"),
            (Error::Cancelled { reason: "user".into() }, "request cancelled: user"),
            (Error::Closed, "the client is closed"),
            (Error::Http { status: 500, message: "boom".into(), code: Some(1) }, "HTTP 500: boom"),
            (Error::SessionExpired { status: 404 }, "the server ended the MCP session (HTTP 404)"),
            (Error::Network { message: "refused".into() }, "network error: refused"),
            (Error::Protocol("bad".into()), "protocol error: bad"),
            (
                Error::UnsupportedVersion("1999-\"01\"".into()),
                r#"the server answered with protocol version "1999-\"01\"", which this client does not support"#,
            ),
            (
                Error::UnsupportedVersion("2026-07-28".into()),
                r#"the server answered with protocol version "2026-07-28", which this connection did not offer (see the era option)"#,
            ),
            (
                Error::UnsupportedVersion("2030-01-01, 2025-06-18".into()),
                r#"the server answered with protocol version "2030-01-01, 2025-06-18", which this connection did not offer (see the era option)"#,
            ),
            (Error::Lagged { capacity: 16 }, "the notification subscriber lagged more than 16 notifications behind"),
            (Error::Unsupported("prompts".into()), "the server does not support prompts"),
            (Error::Invalid("no match".into()), "no match"),
            (Error::InputRoundsExceeded { rounds: 4 }, "the server asked for input more than 4 times"),
            (Error::MissingCapability("sampling".into()), "the server requires client capabilities this client lacks: sampling"),
            (Error::Auth("denied".into()), "authorization failed: denied"),
            (Error::InvalidArgument("x".into()), "invalid argument: x"),
            (Error::LimitExceeded { limit: "maxMessageBytes", message: "too big".into() }, "too big (limit: maxMessageBytes)"),
        ];
        for (error, text) in cases {
            assert_eq!(error.message(), text);
            assert_eq!(error.to_string(), text);
        }
    }
}
