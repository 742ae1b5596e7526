//! The parts of the package that load on first use (`transport::parts`):
//! the validator, the skill checks and `quick-check.js`, which the npm
//! package's core module is built without, and DPoP's key storage.

use wasm_bindgen::prelude::*;

/// Hands over the loaders of the lazily loaded parts: an object whose
/// `quickCheck`, `validator` and `dpop` are functions returning a Promise
/// of that module's exports.
/// For the package's own entries, which call it once after instantiating.
#[wasm_bindgen(js_name = "__setParts", skip_typescript)]
pub fn set_parts(loaders: JsValue) {
    crate::transport::parts::set(loaders);
}

pub(crate) use crate::transport::parts::load;

mod quick_check;
#[cfg(not(feature = "skills"))]
mod skills;
#[cfg(not(feature = "validator"))]
mod validator;

pub(crate) use quick_check::surely_valid;
#[cfg(not(feature = "skills"))]
pub use skills::LazySkillChecker;
#[cfg(not(feature = "validator"))]
pub use validator::LazyValidator;
