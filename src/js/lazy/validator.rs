//! The validator behind [`crate::client::SchemaValidator`] in the npm core:
//! compiled in, but split into a module of its own (`scripts/split`), which
//! a page fetches the first time a tool result or an elicitation answer needs
//! a check that the quick check (`quick-check.js`) cannot decide.

use super::checks::{check, check_text};
use super::quick_check::surely_valid_text;
use super::{validator_pending, validator_ready};
use crate::client::SchemaValidator;
use crate::error::Error;
use crate::protocol::schema::{Limits, SchemaError};
use futures::future::LocalBoxFuture;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// The validator, run once its module is in.
#[derive(Debug)]
pub struct LazyValidator;

impl SchemaValidator for LazyValidator {
    fn validate(
        &self,
        schema: &Value,
        instance: &Value,
        limits: &Limits,
    ) -> LocalBoxFuture<'static, Result<Result<(), SchemaError>, Error>> {
        // An elicitation answer is small, and most forms are plain: the quick check decides
        // those without the validator's module, which a page then never downloads for them.
        let (schema, instance, limits) = (schema.clone(), instance.clone(), *limits);
        Box::pin(async move {
            if surely_valid_text(&schema.to_string(), &instance.to_string(), &limits).await {
                return Ok(Ok(()));
            }
            validator_ready().await?;
            Ok(check(&schema, &instance, &limits))
        })
    }

    fn validate_text(
        &self,
        schema: &Value,
        instance: &str,
        limits: &Limits,
    ) -> LocalBoxFuture<'static, Result<Result<(), SchemaError>, Error>> {
        // Once the module is in, a large instance is checked where it lies, not copied first.
        let Some(pending) = validator_pending() else {
            return Box::pin(futures::future::ready(check_text(schema, instance, limits)));
        };
        let (schema, instance, limits) = (schema.clone(), instance.to_owned(), *limits);
        Box::pin(async move {
            pending.await?;
            check_text(&schema, &instance, &limits)
        })
    }
}

/// The validator on JSON texts, for the package's tests (`tests/node/quick-check.test.mjs`
/// holds `quick-check.js` to it): resolves to `null` when `instance` matches `schema` within
/// `steps` and `steps_per_value`, else to `{ kind: "mismatch" | "too-costly" | "json",
/// instancePath, keyword, message }`, once the validator's module is in; rejects when it
/// cannot be loaded.
///
/// # Errors
/// The message of the validator's module's failure to load.
#[wasm_bindgen(js_name = "__validateJson", skip_typescript)]
pub async fn validate_json(schema: String, instance: String, steps: f64, steps_per_value: f64) -> Result<JsValue, JsValue> {
    validator_ready().await.map_err(|e| JsValue::from_str(&e.to_string()))?;
    Ok(super::checks::verdict(&schema, &instance, steps, steps_per_value))
}
