//! Layer 3: moving messages over HTTP.
//!
//! * [`sse`]: the incremental SSE parser (pure Rust).
//! * [`http`]: the pure rules of Streamable HTTP: headers, statuses, content types.
//! * [`recent_ids`]: duplicate events (pure Rust).
//! * `fetch`, `streamable_http`, `legacy_sse`, `oauth`, `web_runtime`: the
//!   wasm implementations over the platform's `fetch`, `ReadableStream`,
//!   `EventSource`, WebCrypto and `setTimeout`.
//! * `headers`: the user's extra headers, shared by both HTTP transports.
//! * `kept`: a large JSON body left in JS, with the text its checks read.
//! * `auth`: the [`auth::Authorizer`] Streamable HTTP asks for each request's
//!   credentials and for an answer to a refusal; `oauth` is one.
//! * `connector`: the web [`crate::session::Connector`], which opens those
//!   transports for a client.
//! * `parts`: the npm package's parts that load on first use.

pub mod http;
pub mod recent_ids;

/// How long closing waits for a transport's goodbye: the server's answer to
/// the session's `DELETE`, or a custom transport's `close()`. The client has
/// closed already; the wait only keeps `close()` from resolving first.
#[cfg(target_arch = "wasm32")]
pub(crate) const GOODBYE_TIMEOUT_MS: u32 = 5_000;
pub mod sse;

#[cfg(target_arch = "wasm32")]
pub mod auth;
#[cfg(target_arch = "wasm32")]
pub mod connector;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
#[cfg(target_arch = "wasm32")]
pub mod headers;
#[cfg(target_arch = "wasm32")]
pub mod js_text;
#[cfg(target_arch = "wasm32")]
pub mod kept;
#[cfg(all(target_arch = "wasm32", feature = "legacy-sse"))]
pub mod legacy_sse;
#[cfg(all(target_arch = "wasm32", feature = "oauth"))]
pub mod oauth;
#[cfg(target_arch = "wasm32")]
pub mod parts;
#[cfg(target_arch = "wasm32")]
pub mod streamable_http;
#[cfg(target_arch = "wasm32")]
pub mod web_runtime;
