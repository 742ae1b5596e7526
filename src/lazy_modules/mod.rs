//! The modules the JavaScript package's core loads on first use, each a build
//! of this crate with one Cargo feature (`validator-module`, `oauth-module`)
//! and without `js`: a page that never needs a part never downloads it. The
//! core's side of the arrangement is `js::lazy`.
//!
//! * [`validator`]: `validateJson`, the JSON Schema validator; in the same
//!   module, [`skills`]: `checkSkill` and `checkSkillFile`.
//! * [`oauth`]: `startOAuth`, OAuth 2.1 for a client with `auth`.

#[cfg(feature = "oauth-module")]
pub mod oauth;
#[cfg(feature = "validator-module")]
pub mod skills;
#[cfg(feature = "validator-module")]
pub mod validator;

/// A plain object of string fields, as the parts' exports answer.
#[cfg(feature = "validator-module")]
fn object(fields: &[(&str, &str)]) -> wasm_bindgen::JsValue {
    let out = js_sys::Object::new();
    for (name, value) in fields {
        // Setting a plain property on a fresh object cannot fail.
        let _ = js_sys::Reflect::set(&out, &(*name).into(), &(*value).into());
    }
    out.into()
}
