//! A JSON Schema validator supplied with the options, in place of the
//! built-in one (Cargo feature `validator`). The JavaScript package's core
//! runs its validator through this: compiled in, but in a module of the split
//! core that loads the first time a tool result or an elicitation answer
//! needs it (`js::lazy`).

use crate::error::Error;
use crate::protocol::schema::{Limits, SchemaError};
use futures::future::LocalBoxFuture;
use serde_json::Value;

/// Validates instances against JSON Schemas for a client.
pub trait SchemaValidator {
    /// Validates `instance` against `schema` within `limits`, as the built-in
    /// validator does.
    ///
    /// # Errors
    /// The outer error when the validator could not run (a module that failed
    /// to load); the inner one is the verdict, [`SchemaError::Mismatch`] or
    /// [`SchemaError::TooCostly`].
    fn validate(
        &self,
        schema: &Value,
        instance: &Value,
        limits: &Limits,
    ) -> LocalBoxFuture<'static, Result<Result<(), SchemaError>, Error>>;

    /// [`SchemaValidator::validate`] for an instance still in the server's
    /// text (a large result); by default parsed here first. A validator that
    /// parses anyway (the JS package's validator module) takes the text as it is.
    ///
    /// # Errors
    /// As [`SchemaValidator::validate`].
    fn validate_text(
        &self,
        schema: &Value,
        instance: &str,
        limits: &Limits,
    ) -> LocalBoxFuture<'static, Result<Result<(), SchemaError>, Error>> {
        match crate::protocol::json::parse(instance) {
            Ok(instance) => self.validate(schema, &instance, limits),
            Err(e) => Box::pin(futures::future::ready(Err(Error::protocol(format!("structuredContent: {e}"))))),
        }
    }
}
