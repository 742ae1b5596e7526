//! The bounds on what a server can make the client do. Everything a server
//! sends is untrusted, and the client usually runs on the page's own thread:
//! each loop, buffer and queue a server drives stops at one of these, with
//! [`crate::Error::LimitExceeded`], and the client stays usable.

use crate::protocol::schema;

/// The longest delay `setTimeout` can hold (2^31 − 1 ms, about 24.8 days):
/// browsers fire a longer one at once, Node after 1 ms.
pub const MAX_TIMER_MS: u32 = 2_147_483_647;

/// The longest reconnection delay a server's SSE `retry` can ask for.
pub const MAX_RETRY_MS: u32 = 10 * 60 * 1_000;

/// The shortest: `retry: 0` on a stream that ends after each event would
/// otherwise have the client reconnect in a loop with no pause at all.
pub const MIN_RETRY_MS: u32 = 100;

/// The limits of one client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest JSON body, SSE event or SSE line read from the server, in bytes.
    pub max_message_bytes: usize,
    /// How many requests from the server (sampling, elicitation, roots) may
    /// be in progress at once; beyond that they are answered with an error.
    pub max_server_requests: usize,
    /// The work budget of one JSON Schema validation.
    pub schema: schema::Limits,
    /// The work budget of matching a URI against one URI template.
    pub template_steps: u64,
}

impl Limits {
    /// The defaults: generous for real servers, and small enough that a
    /// hostile one is stopped within tens of milliseconds.
    pub const DEFAULT: Self = Self {
        max_message_bytes: 32 * 1024 * 1024,
        max_server_requests: 16,
        schema: schema::Limits::DEFAULT,
        template_steps: crate::protocol::uri_template::DEFAULT_MATCH_STEPS,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}
