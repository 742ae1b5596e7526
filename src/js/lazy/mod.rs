//! The parts of the package that load on first use (`transport::parts`):
//! the validator, the skill checks and `quick-check.js`, which the npm
//! package's core module is built without, and DPoP's key storage.

use wasm_bindgen::prelude::*;

/// Tells the core how to load the parts it fetches on first use: the quick
/// JSON Schema check, the validator (`structuredContent` and elicitation
/// answers, skills) and DPoP's key storage. The package's entries call it
/// themselves; only `mcp-wasm/raw`, initialised by hand, needs it. Without
/// it, `structuredContent` passes unchecked, skills are refused and a DPoP
/// flow fails with `auth`.
///
/// Each loader returns a Promise of that part's module: `mcp-wasm/quick-check.js`,
/// `mcp-wasm/validator.js` once initialised (its default export fetches
/// `mcp_wasm_validator_bg.wasm` from beside it; `initSync({ module })` takes
/// the module or its bytes) and `mcp-wasm/dpop.js`. A loader
/// runs at most once at a time and its module is kept; one that fails is tried
/// again by the next call that needs its part. A later call replaces the
/// loaders; `undefined` removes them.
///
/// ```js
/// import { setPartLoaders } from "mcp-wasm/raw";
/// setPartLoaders({
///   quickCheck: () => import("mcp-wasm/quick-check.js"),
///   validator: async () => {
///     const validator = await import("mcp-wasm/validator.js");
///     await validator.default();
///     return validator;
///   },
///   dpop: () => import("mcp-wasm/dpop.js"),
/// });
/// ```
#[wasm_bindgen(js_name = "setPartLoaders")]
pub fn set_part_loaders(#[wasm_bindgen(unchecked_param_type = "PartLoaders | undefined")] loaders: JsValue) {
    crate::transport::parts::set(&loaders);
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
