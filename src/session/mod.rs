//! Layer 2: the JSON-RPC session engine, single-threaded and runtime-agnostic.
//!
//! It allocates request ids, matches responses to pending requests, enforces
//! timeouts, sends `notifications/cancelled`, answers the server's requests and
//! fans notifications out. It talks to the network only through the
//! [`Transport`] trait and to the clock only through [`Runtime`], so native
//! tests drive it with an in-memory transport and a manual clock.

pub mod cache;
mod engine;
pub mod handler;
pub mod hub;
pub mod lifecycle;
pub mod limits;
pub mod mrtr;
pub mod paging;
mod runtime;
pub mod snapshot;
#[cfg(test)]
pub(crate) mod testing;
mod transport;

pub use engine::{CallOptions, NotificationListener, ProblemListener, ProgressListener, Session};
pub use runtime::Runtime;
pub use transport::{Inbound, InboundSink, Transport};

/// The default per-request timeout, as in the official TypeScript SDK.
pub const DEFAULT_TIMEOUT_MS: u32 = 60_000;
