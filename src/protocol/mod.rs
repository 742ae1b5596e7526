//! Layer 1: the wire format. Pure Rust, no I/O and no `JsValue`, so everything
//! here is tested natively with `cargo test`.
//!
//! * [`jsonrpc`]: JSON-RPC 2.0 envelopes and a strict decoder.
//! * [`version`]: the protocol revisions we speak and what differs between them.
//! * [`lifecycle`]: the `initialize` exchange and the checks on its result.
//! * [`methods`]: MCP method names.
//! * [`results`]: shape checks on the results the client hands to users.

pub mod capabilities;
pub mod elicitation;
pub mod encoding;
pub mod json;
pub mod json_write;
pub mod jsonrpc;
pub mod lifecycle;
pub mod list_text;
pub mod methods;
pub mod modern;
#[cfg(feature = "oauth")]
pub mod oauth;
pub mod params;
pub(crate) mod pick;
pub mod results;
pub mod scan;
pub mod schema;
#[cfg(any(feature = "skill-checks", feature = "oauth"))]
pub mod sha256;
pub mod skills;
pub mod task_support;
pub mod types;
pub mod uri_template;
pub mod version;
pub mod wide;
