//! The parts of the npm package that load on first use: its entries
//! (`index.js`, `node.js`, `workerd.js`) hand over one loader per part
//! (`setPartLoaders` in `js::lazy`; users of `mcp-wasm/raw` call it
//! themselves), and the first call that needs a part awaits its loader.
//! Without a loader a part is simply absent, as in a Rust build without its
//! Cargo feature.

use crate::error::Error;
use crate::transport::fetch::js_message;
use js_sys::{Function, Promise, Reflect};
use std::cell::RefCell;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(js_name = onceEach)]
    fn once_each(loaders: &JsValue) -> JsValue;
}

thread_local! {
    static LOADERS: RefCell<JsValue> = const { RefCell::new(JsValue::UNDEFINED) };
}

/// Keeps the loaders: an object whose fields are functions returning a
/// Promise of a part's exports. Each runs at most once at a time and its
/// module is kept; a failed load is tried again when the part is next needed.
pub fn set(loaders: &JsValue) {
    let loaders = once_each(loaders);
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
