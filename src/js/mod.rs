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

// The OAuth module (lazy_modules::oauth) stops a flow with it too.
#[cfg(any(feature = "js", feature = "oauth-module"))]
pub mod abort;
#[cfg(feature = "oauth")]
pub(crate) mod auth_options;
#[cfg(feature = "js")]
pub mod client;
#[cfg(feature = "js")]
pub mod convert;
#[cfg(feature = "js")]
pub mod custom_transport;
#[cfg(feature = "js")]
pub mod error;
#[cfg(feature = "js")]
pub mod events;
#[cfg(feature = "js")]
mod features;
// What the OAuth module (lazy_modules::oauth) shares with the binding: reading options.
mod fields;
#[cfg(feature = "js")]
pub mod handlers;
#[cfg(feature = "js")]
pub mod lazy;
#[cfg(feature = "js")]
mod list_watchers;
#[cfg(feature = "js")]
mod lists;
#[cfg(feature = "js")]
pub mod options;
#[cfg(feature = "js")]
mod typescript;
#[cfg(feature = "js")]
pub mod uri_template;

#[cfg(feature = "js")]
pub use client::McpClient;
