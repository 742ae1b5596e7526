//! Layer 3: moving messages over HTTP.
//!
//! * [`sse`]: the incremental SSE parser (pure Rust).
//! * [`http`]: the pure rules of Streamable HTTP: headers, statuses, content types.
//! * [`backoff`], [`recent_ids`]: reconnection delays and duplicate events (pure Rust).
//! * `fetch`, `streamable_http`, `legacy_sse`, `web_runtime`: the wasm
//!   implementations over the platform's `fetch`, `ReadableStream`,
//!   `EventSource` and `setTimeout`.

pub mod backoff;
pub mod http;
pub mod recent_ids;
pub mod sse;

#[cfg(target_arch = "wasm32")]
pub mod fetch;
#[cfg(target_arch = "wasm32")]
pub mod legacy_sse;
#[cfg(target_arch = "wasm32")]
pub mod oauth;
#[cfg(target_arch = "wasm32")]
pub mod streamable_http;
#[cfg(target_arch = "wasm32")]
pub mod web_runtime;
