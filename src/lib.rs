#![doc = include_str!("../README.md")]
#![deny(missing_docs, missing_debug_implementations)]

pub mod error;
pub mod host;
pub mod protocol;
pub mod session;
pub mod transport;

#[cfg(target_arch = "wasm32")]
pub mod js;

pub use error::{Error, Result};
#[cfg(target_arch = "wasm32")]
pub use js::McpClient;
