//! The validator behind [`crate::client::SchemaValidator`] in the npm core:
//! compiled in, but split into a module of its own (`scripts/split`), which
//! a page fetches the first time a tool result or an elicitation answer needs
//! a check that the quick check (`quick-check.js`) cannot decide.

use super::checks::{check, check_text};
use super::quick_check::surely_valid_text;
use super::validator_ready;
use crate::client::SchemaValidator;
use crate::error::Error;
use crate::protocol::schema::{Limits, SchemaError};
use futures::future::LocalBoxFuture;
use serde_json::Value;

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
        let (schema, instance, limits) = (schema.clone(), instance.to_owned(), *limits);
        Box::pin(async move {
            validator_ready().await?;
            check_text(&schema, &instance, &limits)
        })
    }
}
