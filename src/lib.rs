//! An MCP (Model Context Protocol) client for the web and the edge: browsers,
//! Cloudflare Workers and Node, on `wasm32-unknown-unknown`, single-threaded
//! and without tokio. The same crate is the `mcp-wasm` npm package; this
//! page is about its Rust API.
//!
//! # Connecting
//!
//! On `wasm32`, [`web::connect`] opens a [`client::Client`] over the
//! platform's `fetch`. It picks the protocol era (2026-07-28 through
//! `server/discover`, or `initialize` for the 2024-11-05 to 2025-11-25
//! revisions) and the transport (Streamable HTTP, or HTTP+SSE for the
//! oldest servers) the way the specification's compatibility rules say.
//!
//! ```no_run
//! # #[cfg(target_arch = "wasm32")]
//! # async fn demo() -> Result<(), mcp_wasm::Error> {
//! use mcp_wasm::client::RequestOptions;
//! use mcp_wasm::protocol::types::CallToolParams;
//! use mcp_wasm::web::{self, WebOptions};
//!
//! let client = web::connect("https://example.com/mcp", WebOptions::default()).await?;
//! for tool in client.list_all_tools(&RequestOptions::default()).await? {
//!     println!("{}: {}", tool.name, tool.description.unwrap_or_default());
//! }
//! let result = client.call_tool(CallToolParams::new("echo").argument("message", "hi"), &RequestOptions::default()).await?;
//! println!("{}", result.text());
//! client.close().await;
//! # Ok(()) }
//! ```
//!
//! Anywhere else (a native test, another runtime), [`client::Client::connect_with`]
//! takes any [`session::Connector`] and [`session::Runtime`]: the client's
//! behaviour is plain async Rust and does not depend on the web platform.
//!
//! # Calls
//!
//! Every call takes [`client::RequestOptions`]: a timeout, cancellation
//! through a [`client::CancelToken`], and progress.
//!
//! ```
//! use mcp_wasm::client::{CancelToken, Client, RequestOptions};
//! use mcp_wasm::protocol::types::CallToolParams;
//!
//! async fn long_call(client: &Client, stop: &CancelToken) -> Result<String, mcp_wasm::Error> {
//!     let options = RequestOptions::default()
//!         .timeout(30_000)
//!         .cancel_with(stop)
//!         .on_progress(|p| println!("progress {}", p["progress"]), true);
//!     let params = CallToolParams::new("trigger-long-running-operation").argument("duration", 5).argument("steps", 5);
//!     Ok(client.call_tool(params, &options).await?.text())
//! }
//! ```
//!
//! Results come typed ([`protocol::types`]), keeping the fields this crate
//! does not know in `extra`; each call also has a JSON form (`*_reply`,
//! [`client::Client::request`]) for what the types do not cover.
//!
//! # What the server asks of the client
//!
//! Sampling, elicitation and roots are answered by [`client::Handlers`],
//! closures given at connect time; a handler present declares its
//! capability. The same handlers answer a 2026-07-28 server's input rounds.
//!
//! ```
//! use mcp_wasm::client::{ClientOptions, Handlers};
//! use mcp_wasm::protocol::types::{CreateMessageResult, Root};
//!
//! let handlers = Handlers::default()
//!     .sampling(|params, _ctx| async move {
//!         // Ask your model here; this one counts.
//!         Ok(CreateMessageResult::text("counter", format!("{} messages", params.messages.len())))
//!     })
//!     .roots(|_ctx| async { Ok(vec![Root::new("file:///home/ada/project", "project")]) });
//! let options = ClientOptions::default().handlers(handlers);
//! # let _ = options;
//! ```
//!
//! # Events
//!
//! Notifications, reconnections, session renewals and problems outside any
//! call are [`client::ClientEvent`]s, delivered to listeners or as a bounded
//! stream:
//!
//! ```
//! use futures::StreamExt;
//! use mcp_wasm::client::{Client, EventFilter};
//!
//! async fn print_logs(client: &Client) {
//!     let mut logs = client.events(EventFilter::Notifications(Some("notifications/message".into())), 256);
//!     while let Some(Ok(event)) = logs.next().await {
//!         if let Some(note) = event.notification() {
//!             println!("{:?}", note.params);
//!         }
//!     }
//! }
//! ```
//!
//! # Workers and snapshots
//!
//! A Worker invocation can keep a connection as plain JSON
//! ([`client::Client::suspend`], [`client::Snapshot::to_value`]) and the
//! next one continue it with [`web::resume`], without a new handshake.
//!
//! # Layers
//!
//! [`protocol`] (pure rules and types) ← [`session`] (the JSON-RPC engine) ←
//! [`client`] (the client's behaviour) ← `transport` (fetch, SSE,
//! Streamable HTTP, HTTP+SSE, OAuth) ← `web` and `js` (the Rust and
//! JavaScript entry points). [`host`] holds what a multi-server host and the
//! LLM bridges share. A server is untrusted input: see
//! [`session::limits::Limits`] for the bounds on what it can make the client do.

//!
//! # Cargo features
//!
//! Each part a build may leave out is a feature; all but `small-allocator`
//! are on by default (the npm package is built with `core-module`, see
//! `scripts/build.sh`).
//! Without one, the public API simply lacks its items (and the JS binding its
//! methods):
//!
//! | feature | what it brings |
//! |---|---|
//! | `js` | the wasm-bindgen binding for JavaScript (`McpClient`, `UriTemplate`, the `.d.ts`): what the npm package is; a Rust program that uses [`web`] alone leaves it out and its module carries no JS API |
//! | `oauth` | OAuth 2.1 (`transport::oauth`, [`protocol::oauth`]): discovery, registration, PKCE, DPoP, refresh, step-up; `WebOptions::auth` and the `auth` option in JS, refused without it |
//! | `modern` | the 2026-07-28 era: the `server/discover` probe, `_meta` on every request, input rounds, `subscriptions/listen`, the response cache ([`client::cache`]); without it `auto` speaks only the `initialize` era, and asking for 2026-07-28 (or resuming such a snapshot) is refused |
//! | `legacy-sse` | the HTTP+SSE transport of 2024-11-05 servers (`transport::legacy_sse`); without it a server that only speaks HTTP+SSE cannot be reached |
//! | `tasks` | [`client::Client::call_tool_as_task`], `task_request`, `list_tasks_reply` and [`client::tasks`] (the Rust API; the JS binding's task methods are the npm package's plain JS) |
//! | `validator` | the JSON Schema validator ([`protocol::schema::validate_with`], regex-lite for `pattern`): `structuredContent` checked against `outputSchema`, elicitation answers against `requestedSchema`; without it they pass unchecked (elicitation answers still need their `required` fields) |
//! | `skills` | the checks [`client::Client::read_skill`] and `read_skill_file` make on a skill's files (`protocol::skills::check_skill`: size, `sha256:` digest, the frontmatter's YAML); without it they need a [`client::SkillChecker`] in the options, and refuse with `unsupported` rather than hand over an unchecked file |
//! | `json-schema`, `skill-checks` | not defaults of their own: the code of `validator` and `skills` without the client running it by itself, as the npm core compiles it (its validator's module of the split core, awaited before the checks run) |
//! | `host` | [`host::naming`], the names a multi-server host offers its tools under |
//! | `bridges` | [`host`]'s LLM bridges, with the naming rules they need |
//! | `small-allocator` | not a default: makes [talc](https://crates.io/crates/talc) the program's global allocator on single-threaded wasm32, as the npm package's modules are built; a Rust program picks its own allocator, so leave it off unless this crate's choice should be the program's |
//!
//! The npm package's `McpHost`, `ToolBridge` and `qualifiedNames` are plain JS
//! (`pkg-template/`) that follows the same rules as `host`, held to the same
//! cases (`tests/fixtures/bridges.json`): reshaping JSON is what JS does
//! natively, and in the core module it cost 12 KB gzip. So are the package's
//! task methods (`callToolAsTask`, `getTask`, …): polling is orchestration
//! over `McpClient.request`, loaded the first time a page uses a task, and in
//! the core module it cost 4.9 KB gzip.
//!
//! `cargo build --no-default-features` gives the core: the `initialize` era
//! (2024-11-05 to 2025-11-25) over Streamable HTTP, every server feature
//! except tasks, and handlers, events and snapshots.

#![deny(missing_docs, missing_debug_implementations, unsafe_code)]
// The docs are written for wasm32, the target docs.rs builds (see Cargo.toml):
// elsewhere the wasm-only items they link to (`web`, `transport::auth`) do not exist.
#![cfg_attr(not(target_arch = "wasm32"), allow(rustdoc::broken_intra_doc_links))]

// Only for the npm package's modules (feature `small-allocator`): talc is a
// third of dlmalloc's code and serves a small call's allocations faster.
#[cfg(all(feature = "small-allocator", target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

pub mod client;
pub mod error;
#[cfg(any(feature = "host", feature = "bridges"))]
pub mod host;
pub mod protocol;
pub mod session;
pub mod transport;

#[cfg(all(target_arch = "wasm32", feature = "js"))]
pub mod js;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use error::{Error, Result};
#[cfg(all(target_arch = "wasm32", feature = "js"))]
pub use js::McpClient;
