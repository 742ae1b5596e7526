//! The validator module behind [`crate::client::SchemaValidator`].

use super::load;
use super::quick_check::surely_valid_text;
use crate::client::SchemaValidator;
use crate::error::Error;
use crate::protocol::schema::{Limits, SchemaError, ValidationError};
use futures::future::LocalBoxFuture;
use js_sys::{Function, Reflect, Uint8Array};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

/// The validator module (`validateJson`), loaded the first time a tool
/// result or an elicitation answer needs checking that the quick check
/// (`quick-check.js`) cannot decide.
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
        // An elicitation answer is small, and most forms are plain: the quick check decides
        // those without the validator module, which a page then never downloads for them.
        let (schema, instance, limits) = (schema.to_string(), instance.to_string(), *limits);
        Box::pin(async move {
            if surely_valid_text(&schema, &instance, &limits).await {
                return Ok(Ok(()));
            }
            run(Uint8Array::from(schema.as_bytes()), Uint8Array::from(instance.as_bytes()), limits).await
        })
    }

    fn validate_text(
        &self,
        schema: &Value,
        instance: &str,
        limits: &Limits,
    ) -> LocalBoxFuture<'static, Result<Result<(), SchemaError>, Error>> {
        // Copied out of wasm at once as UTF-8 bytes: the validator module takes them with one
        // memory copy, where a JS string would be decoded here and encoded again there, a
        // character at a time (2.5 ms for a 650 KiB result in Node).
        Box::pin(run(Uint8Array::from(schema.to_string().as_bytes()), Uint8Array::from(instance.as_bytes()), *limits))
    }
}

/// The validator module's verdict on `instance` against `schema`, both JSON as UTF-8 bytes.
async fn run(schema: Uint8Array, instance: Uint8Array, limits: Limits) -> Result<Result<(), SchemaError>, Error> {
    let Some(part) = load("validator").await? else { return Ok(Ok(())) };
    let broken = |_| Error::Network { message: "the validator module has no validateJson".to_owned() };
    let validate: Function = Reflect::get(&part, &"validateJson".into()).map_err(broken)?.dyn_into().map_err(broken)?;
    let (steps, per_value) = (limits.steps as f64, limits.steps_per_value as f64);
    let args = js_sys::Array::of4(&schema, &instance, &steps.into(), &per_value.into());
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
}
