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
/// `validator` is a function returning a Promise of that module's exports.
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

#[cfg(not(feature = "validator"))]
pub use validator::LazyValidator;

#[cfg(not(feature = "validator"))]
mod validator {
    use super::load;
    use crate::client::SchemaValidator;
    use crate::error::Error;
    use crate::protocol::schema::{Limits, SchemaError, ValidationError};
    use futures::future::LocalBoxFuture;
    use js_sys::{Function, Reflect};
    use serde_json::Value;
    use wasm_bindgen::{JsCast, JsValue};

    /// The validator module (`validateJson`), loaded the first time a tool
    /// result or an elicitation answer needs checking.
    #[derive(Debug)]
    pub struct LazyValidator;

    fn text(verdict: &JsValue, field: &str) -> String {
        Reflect::get(verdict, &field.into()).ok().and_then(|v| v.as_string()).unwrap_or_default()
    }

    impl SchemaValidator for LazyValidator {
        fn validate(
            &self,
            schema: &Value,
            instance: &Value,
            limits: &Limits,
        ) -> LocalBoxFuture<'static, Result<Result<(), SchemaError>, Error>> {
            let (schema, instance, limits) = (schema.to_string(), instance.to_string(), *limits);
            Box::pin(async move {
                let Some(part) = load("validator").await? else { return Ok(Ok(())) };
                let broken = |_| Error::Network { message: "the validator module has no validateJson".to_owned() };
                let validate: Function = Reflect::get(&part, &"validateJson".into()).map_err(broken)?.dyn_into().map_err(broken)?;
                let (steps, per_value) = (limits.steps as f64, limits.steps_per_value as f64);
                let args = js_sys::Array::of4(&schema.into(), &instance.into(), &steps.into(), &per_value.into());
                let verdict = validate.apply(&JsValue::NULL, &args).map_err(|e| Error::Invalid(crate::transport::fetch::js_message(&e)))?;
                if verdict.is_null() || verdict.is_undefined() {
                    return Ok(Ok(()));
                }
                let detail = ValidationError {
                    instance_path: text(&verdict, "instancePath"),
                    keyword: text(&verdict, "keyword").into(),
                    message: text(&verdict, "message"),
                };
                Ok(Err(if text(&verdict, "kind") == "too-costly" { SchemaError::TooCostly(detail) } else { SchemaError::Mismatch(detail) }))
            })
        }
    }
}
