//! The parts of the package that load on first use. The npm package's core
//! module is built without them; its entries (`index.js`, `node.js`,
//! `workerd.js`) hand over one loader per part with `__setParts`, and the
//! first call that needs a part awaits its loader. Without a loader (the raw
//! module, initialised by hand) the part is simply absent, as in a Rust build
//! without its Cargo feature.

use crate::error::Error;
use crate::transport::fetch::js_message;
use js_sys::{Function, Promise, Reflect};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

thread_local! {
    static LOADERS: RefCell<JsValue> = const { RefCell::new(JsValue::UNDEFINED) };
}

/// Hands over the loaders of the lazily loaded parts: an object whose
/// `quickCheck`, `validator` and `oauth` are functions returning a Promise
/// of that module's exports.
/// For the package's own entries, which call it once after instantiating.
#[wasm_bindgen(js_name = "__setParts", skip_typescript)]
pub fn set_parts(loaders: JsValue) {
    LOADERS.with(|l| *l.borrow_mut() = loaders);
}

/// The exports of part `name`, or `None` when no entry provided a loader.
///
/// # Errors
/// `network` when the part's module could not be fetched or instantiated.
pub async fn load(name: &str) -> Result<Option<JsValue>, Error> {
    let loader = LOADERS.with(|l| Reflect::get(&l.borrow(), &name.into()).ok()).filter(JsValue::is_function);
    let Some(loader) = loader else { return Ok(None) };
    let failed = |e: JsValue| Error::Network { message: format!("the {name} module could not be loaded: {}", js_message(&e)) };
    let pending = loader.unchecked_into::<Function>().call0(&JsValue::UNDEFINED).map_err(failed)?;
    JsFuture::from(Promise::resolve(&pending)).await.map(Some).map_err(failed)
}

/// The error a part's module rejected with, `{ kind, message }`.
#[cfg(not(feature = "oauth"))]
fn part_error(thrown: &JsValue) -> Error {
    let text = |field: &str| Reflect::get(thrown, &field.into()).ok().and_then(|v| v.as_string());
    let message = text("message").unwrap_or_else(|| js_message(thrown));
    match text("kind").as_deref() {
        Some("invalid-argument") => Error::invalid_argument(message),
        Some("network") => Error::Network { message },
        _ => Error::Auth(message),
    }
}

#[cfg(not(feature = "oauth"))]
mod oauth;
mod quick_check;
#[cfg(not(feature = "skills"))]
mod skills;
#[cfg(not(feature = "validator"))]
mod validator;

#[cfg(not(feature = "oauth"))]
pub use oauth::LazyOAuth;
pub(crate) use quick_check::surely_valid;
#[cfg(not(feature = "skills"))]
pub use skills::LazySkillChecker;
#[cfg(not(feature = "validator"))]
pub use validator::LazyValidator;
