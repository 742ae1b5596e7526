//! Layer 4: the JavaScript API. The only layer that hands `JsValue`s to users.
//!
//! * [`client`]: the `McpClient` class.
//! * [`options`]: reading and checking option objects passed from JS.
//! * [`error`]: `McpError` and `McpClientError`.
//! * [`events`]: `addEventListener` and the `notifications()` iterator.
//! * [`handlers`]: the user's sampling, elicitation and roots functions.
//! * `features`, `lists`, `list_watchers`: the server features, paging,
//!   auto-refresh. Tasks are plain JS in the npm package (`tasks.js`).
//! * [`custom_transport`]: a transport written in JS.
//! * `auth_options`: the `auth` option.
//! * [`lazy`]: the parts of the package that load on first use.
//! * [`abort`]: `AbortSignal` as a future.
//! * [`convert`]: JSON values across the boundary.
//! * `typescript`: the `.d.ts` sections for MCP types and API options.

pub mod abort;
#[cfg(feature = "oauth")]
pub(crate) mod auth_options;
pub mod client;
pub mod convert;
pub mod custom_transport;
pub mod error;
pub mod events;
mod features;
mod fields;
pub mod handlers;
pub mod lazy;
mod list_watchers;
mod lists;
pub mod options;
mod typescript;
pub mod uri_template;

pub use client::McpClient;
