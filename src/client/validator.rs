//! A JSON Schema validator supplied with the options, in place of the
//! built-in one (Cargo feature `validator`). The JavaScript package's core
//! module has none compiled in: it loads its validator module the first time
//! a tool result or an elicitation answer needs one, through this.

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
}
