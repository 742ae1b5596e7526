//! Layer 2: the JSON-RPC session engine, single-threaded and runtime-agnostic.
//!
//! * [`Session`]: allocates request ids, matches responses to pending
//!   requests, enforces timeouts, sends `notifications/cancelled`, answers the
//!   server's requests through a [`handler::ClientHandler`] (within
//!   [`limits::Limits`]) and hands notifications on.
//! * [`Transport`] and [`Inbound`]: how bytes travel, implemented elsewhere.
//! * [`Runtime`]: the clock, timers and task runner.
//! * [`Connector`]: how a client opens channels without knowing their kind.
//! * [`limits`]: the bounds on what a server can make the client do.
//! * [`oneshot`]: the one-value channel that a request's answer and its
//!   cancellations travel by.
//!
//! It talks to the network only through [`Transport`] and to the clock only
//! through [`Runtime`], so native tests drive it with an in-memory transport
//! and a manual clock.

pub mod backoff;
mod connector;
mod consent;
mod engine;
pub mod handler;
pub(crate) mod id_map;
pub mod limits;
pub mod oneshot;
mod runtime;
#[cfg(test)]
pub(crate) mod testing;
mod transport;

pub use connector::{Channel, Connector, OpenContext, ToolSchemas};
pub use engine::{
    result_unread, Answer, CallOptions, ConsentTime, LargeResult, NotificationListener, ProblemListener, ProgressListener, Session,
    StatusListener, TraceDirection, TraceListener,
};
pub use runtime::{within, Runtime, SteadyClock, Within};
pub use transport::{deliver_text, ConnectionStatus, Inbound, InboundSink, Kept, KeptMessage, ResultText, Transport};

/// The default per-request timeout, as in the official TypeScript SDK.
pub const DEFAULT_TIMEOUT_MS: u32 = 60_000;
