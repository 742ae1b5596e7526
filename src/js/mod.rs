//! Layer 4: the JavaScript API. The only layer that hands `JsValue`s to users.
//!
//! * [`client`]: the `McpClient` class.
//! * [`options`]: reading and checking option objects passed from JS.
//! * [`error`]: `McpError` and `McpClientError`.
//! * [`events`]: `addEventListener` and the `notifications()` iterator.
//! * [`handlers`]: the user's sampling, elicitation and roots functions.
//! * `features`, `lists`, `list_changed`: the server features, paging, auto-refresh.
//! * [`abort`]: `AbortSignal` as a future.
//! * [`convert`]: JSON values across the boundary.
//! * `typescript`: the `.d.ts` sections for MCP types and API options.

pub mod abort;
pub mod bridges;
pub mod client;
pub mod connect;
pub mod convert;
pub mod custom_transport;
pub mod error;
pub mod events;
mod features;
pub mod handlers;
mod list_changed;
mod listen;
mod lists;
mod modern;
mod naming;
pub mod options;
mod tasks;
mod typescript;
pub mod uri_template;

pub use client::McpClient;
