//! The module the JavaScript package's core loads on first use: a build of
//! this crate with the Cargo feature `validator-module` and without `js`, so
//! that a page that never validates never downloads it. The core's side of
//! the arrangement is `js::lazy`.
//!
//! * [`validator`]: `validateJson`, the JSON Schema validator; in the same
//!   module, [`skills`]: `checkSkill` and `checkSkillFile`.

pub mod skills;
pub mod validator;

/// A plain object of string fields, as the parts' exports answer.
fn object(fields: &[(&str, &str)]) -> wasm_bindgen::JsValue {
    let out = js_sys::Object::new();
    for (name, value) in fields {
        // Setting a plain property on a fresh object cannot fail.
        let _ = js_sys::Reflect::set(&out, &(*name).into(), &(*value).into());
    }
    out.into()
}
