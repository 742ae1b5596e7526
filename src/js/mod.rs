//! Layer 4: the JavaScript API. The only layer that hands `JsValue`s to users.
//!
//! * [`client`]: the `McpClient` class.
//! * [`options`]: reading and checking option objects passed from JS.
//! * [`error`]: `McpError` and `McpClientError`.
//! * [`abort`]: `AbortSignal` as a future.
//! * [`convert`]: JSON values across the boundary.
//! * `typescript`: the `.d.ts` sections for MCP types and API options.

pub mod abort;
pub mod client;
pub mod convert;
pub mod error;
pub mod options;
mod typescript;

pub use client::McpClient;
