//! Layer 3: the MCP client in plain async Rust, over any
//! [`crate::session::Connector`] and [`crate::session::Runtime`]: no tokio,
//! one thread, tested natively with a scripted server and a manual clock.
//!
//! * [`Client`] ([`connection`]): connecting (era and transport detection),
//!   events, snapshots, ping, logging, raw requests; the server features
//!   ([`features`]): tools, resources, prompts, completion, skills, tasks.
//! * [`options`]: [`ClientOptions`], [`RequestOptions`], [`CancelToken`].
//! * [`handlers`]: [`Handlers`] for sampling, elicitation and roots, and
//!   the checks every answer passes.
//! * [`events`]: [`ClientEvent`]s, as listeners or as bounded streams.
//! * [`validator`]: a JSON Schema validator supplied with the options.
//! * [`skill_checker`]: the checks a skill's files pass, likewise.
//! * [`snapshot`]: a connection at rest, to continue in another process.
//! * [`list_changed`]: lists refreshed after `list_changed`; `list_stream`:
//!   a list's items as a stream, a page at a time ([`Client::list_stream`]).
//! * Internals: `connect`, `lifecycle` (the `initialize` handshake),
//!   `requests` (the request path: capability checks, renewal and replay),
//!   `modern` and `mrtr` (the 2026-07-28 request path and input rounds),
//!   `listen` and `listening` (`subscriptions/listen`), `lists`,
//!   `list_kind` and `paging`, `watcher` (what `list_changed` runs), `era`,
//!   `cache`, `tasks`, `state`.

#[cfg(feature = "modern")]
pub mod cache;
mod connect;
pub mod connection;
mod era;
pub mod events;
pub mod features;
pub mod handlers;
mod lifecycle;
pub mod list_changed;
mod list_kind;
mod list_stream;
#[cfg(feature = "modern")]
mod listen;
#[cfg(feature = "modern")]
mod listening;
pub mod lists;
#[cfg(feature = "modern")]
mod modern;
#[cfg(feature = "modern")]
mod mrtr;
pub mod options;
mod paging;
mod requests;
pub mod skill_checker;
pub mod snapshot;
mod state;
#[cfg(feature = "tasks")]
pub mod tasks;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;
pub mod validator;
mod watcher;

#[cfg(feature = "modern")]
pub use cache::CacheBounds;
pub use connection::{Client, DEFAULT_EVENT_BUFFER, LOGGING_LEVELS};
pub use events::{ClientEvent, EventFilter, EventStream, ListenerId, Notification};
pub use features::{LoadedSkill, OutputCheck};
pub use handlers::{Handlers, JsonHandler, RequestContext};
pub use list_changed::{ListChange, ListWatcher};
pub use lists::{ListKind, PROMPTS, RESOURCES, SKILLS, TEMPLATES, TOOLS};
pub use options::{CancelSource, CancelToken, ClientOptions, Era, EraChoice, RequestOptions, TransportChoice, DEFAULT_MAX_ROUNDS};
pub use paging::{SeenCursors, MAX_LIST_MESSAGES, MAX_PAGES};
#[cfg(feature = "skills")]
pub use skill_checker::BuiltinSkillChecker;
pub use skill_checker::SkillChecker;
pub use snapshot::Snapshot;
pub use state::Reply;
#[cfg(feature = "tasks")]
pub use tasks::TaskOptions;
pub use validator::SchemaValidator;
