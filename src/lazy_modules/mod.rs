//! The modules the JavaScript package's core loads on first use, each a build
//! of this crate with one Cargo feature (`validator-module`, `oauth-module`)
//! and without `js`: a page that never needs a part never downloads it. The
//! core's side of the arrangement is `js::lazy`.
//!
//! * [`validator`]: `validateJson`, the JSON Schema validator.
//! * [`oauth`]: `startOAuth`, OAuth 2.1 for a client with `auth`.

#[cfg(feature = "oauth-module")]
pub mod oauth;
#[cfg(feature = "validator-module")]
pub mod validator;
