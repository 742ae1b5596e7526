//! The parts of the package that load on first use: `quick-check.js` and
//! DPoP's key storage, JS modules an entry hands over (`transport::parts`),
//! and the validator with the skill checks, compiled into the core but split
//! into a module of their own (`scripts/split`), which the core awaits
//! before it runs them (`validator_ready`).

use wasm_bindgen::prelude::*;

/// Tells the core how to load the JS parts it fetches on first use: the
/// quick JSON Schema check, which spares most `structuredContent` and
/// elicitation answers the validator's module, and DPoP's key storage. The
/// package's entries call it themselves; only `mcp-wasm/raw`, initialised by
/// hand, needs it. Without `quickCheck` every check goes to the validator's
/// module; without `dpop` a DPoP flow fails with `auth`.
///
/// Each loader returns a Promise of that part's module:
/// `import("mcp-wasm/quick-check.js")`, `import("mcp-wasm/dpop.js")`. A loader
/// runs at most once at a time and its module is kept; one that fails is tried
/// again by the next call that needs its part. A later call replaces the
/// loaders; `undefined` removes them.
///
/// ```js
/// import { setPartLoaders } from "mcp-wasm/raw";
/// setPartLoaders({
///   quickCheck: () => import("mcp-wasm/quick-check.js"),
///   dpop: () => import("mcp-wasm/dpop.js"),
/// });
/// ```
#[wasm_bindgen(js_name = "setPartLoaders")]
pub fn set_part_loaders(#[wasm_bindgen(unchecked_param_type = "PartLoaders | undefined")] loaders: JsValue) {
    crate::transport::parts::set(&loaders);
}

pub(crate) use crate::transport::parts::load;

#[cfg(any(all(not(feature = "validator"), feature = "json-schema"), all(not(feature = "skills"), feature = "skill-checks")))]
mod checks;
mod quick_check;
#[cfg(all(not(feature = "skills"), feature = "skill-checks"))]
mod skills;
#[cfg(all(not(feature = "validator"), feature = "json-schema"))]
mod validator;

pub(crate) use quick_check::surely_valid;
#[cfg(all(not(feature = "skills"), feature = "skill-checks"))]
pub use skills::LazySkillChecker;
#[cfg(all(not(feature = "validator"), feature = "json-schema"))]
pub use validator::LazyValidator;

#[cfg(any(all(not(feature = "validator"), feature = "json-schema"), all(not(feature = "skills"), feature = "skill-checks")))]
#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(js_name = partReady)]
    fn part_ready(name: &str) -> JsValue;
}

/// The wait for the module of the split core that holds the validator and
/// the skill checks, or `None` once it is in (at once where the core is not
/// split): a check then runs on what it was given, without copying it into
/// a future first. The wait fails with `network` when that module could not
/// be fetched or instantiated.
#[cfg(any(all(not(feature = "validator"), feature = "json-schema"), all(not(feature = "skills"), feature = "skill-checks")))]
fn validator_pending() -> Option<impl std::future::Future<Output = Result<(), crate::Error>>> {
    let pending = part_ready("validator");
    if pending.is_undefined() {
        return None;
    }
    Some(async move {
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&pending)).await.map(drop).map_err(|e| crate::Error::Network {
            message: format!("the validator module could not be loaded: {}", crate::transport::fetch::js_message(&e)),
        })
    })
}

/// Resolves once the validator's module is in.
///
/// # Errors
/// As [`validator_pending`]'s wait.
#[cfg(any(all(not(feature = "validator"), feature = "json-schema"), all(not(feature = "skills"), feature = "skill-checks")))]
async fn validator_ready() -> Result<(), crate::Error> {
    match validator_pending() {
        Some(pending) => pending.await,
        None => Ok(()),
    }
}
