//! A JSON Schema validator for tool `outputSchema`s and elicitation
//! `requestedSchema`s: draft 2020-12 (the MCP default) and draft-07.
//!
//! It interprets the schema directly, generating no code, so it runs in
//! Cloudflare Workers where `eval` is forbidden. Only local references (`#…`)
//! are followed: the spec forbids dereferencing network `$ref`s. `format` is
//! an annotation, as in 2020-12.
//!
//! Schemas come from servers, so the work they can cause is bounded: every
//! step of the evaluation is counted against [`Limits`], a `$ref` that comes
//! back to itself at the same place in the instance stops at once, and
//! `pattern` goes through a [`PatternMatcher`] the caller supplies, by
//! default [`LinearPatterns`], whose matching time is linear in the text.
//! Running out is [`SchemaError::TooCostly`], never a hang.

#[cfg(feature = "json-schema")]
mod instance;
#[cfg(feature = "json-schema")]
mod keywords;
#[cfg(feature = "json-schema")]
mod patterns;
#[cfg(test)]
#[cfg(feature = "json-schema")]
mod tests;

#[cfg(feature = "json-schema")]
pub use patterns::LinearPatterns;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// A number as JSON writes it (`3`, `0.5`), without core's float printer:
/// integers directly, other values through serde_json's shortest form.
pub fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        (n as i64).to_string()
    } else {
        serde_json::Number::from_f64(n).map_or_else(|| "NaN".to_owned(), |n| n.to_string())
    }
}

/// Why a pattern could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternError {
    /// It is not a regular expression.
    Invalid(String),
    /// It is one, but not one the matcher can run within its bounds
    /// (look-around, backreferences, Unicode classes, a huge program).
    Unsupported(String),
}

/// Matches `pattern` keywords.
pub trait PatternMatcher {
    /// Whether `text` matches the regular expression `pattern` (unanchored).
    ///
    /// # Errors
    /// [`PatternError`] when the pattern cannot be evaluated.
    fn is_match(&self, pattern: &str, text: &str) -> Result<bool, PatternError>;
}

/// How much work one validation may do. A step is one schema applied to one
/// instance value, one comparison of `uniqueItems` or `enum`, or a slice of a
/// pattern match proportional to the text's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Steps allowed whatever the instance's size.
    pub steps: u64,
    /// Further steps allowed per value in the instance, so that a large
    /// result with a plain schema always validates.
    pub steps_per_value: u64,
}

impl Limits {
    /// The defaults: far above what real schemas need (the MCP schema itself,
    /// server-everything's tools, the conformance suite), and reached by a
    /// hostile schema within tens of milliseconds.
    pub const DEFAULT: Self = Self { steps: 200_000, steps_per_value: 16 };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Where and why an instance failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// JSON Pointer to the failing part of the instance, `""` for the whole.
    pub instance_path: String,
    /// The keyword that failed, e.g. `"required"`.
    pub keyword: Cow<'static, str>,
    /// A description of the failure.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.instance_path.is_empty() { "(root)" } else { &self.instance_path };
        write!(f, "{path}: {} ({})", self.message, self.keyword)
    }
}

/// The outcome of a validation that did not succeed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaError {
    /// The instance does not match the schema.
    Mismatch(ValidationError),
    /// The validator stopped before it could decide: the schema needs more
    /// work than [`Limits`] allow, refers to itself without progress, nests
    /// too deeply, or uses a pattern the matcher cannot run.
    TooCostly(ValidationError),
}

impl SchemaError {
    /// What failed, and where.
    pub fn detail(&self) -> &ValidationError {
        match self {
            Self::Mismatch(detail) | Self::TooCostly(detail) => detail,
        }
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.detail().fmt(f)
    }
}

/// The two dialects, which differ in `items`, `dependencies` and `$ref` siblings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Draft 2020-12, the default.
    Draft2020,
    /// Draft-07 (and the older drafts it reads the same way).
    Draft7,
}

impl Dialect {
    /// The dialect a schema declares in `$schema`; 2020-12 when absent.
    pub fn of(schema: &Value) -> Self {
        match schema.get("$schema").and_then(Value::as_str) {
            Some(uri) if ["draft-07", "draft-06", "draft-04"].iter().any(|d| uri.contains(d)) => Self::Draft7,
            _ => Self::Draft2020,
        }
    }
}

#[cfg(feature = "json-schema")]
/// Validates `instance` against `schema` within `limits`, reporting the first failure.
///
/// # Errors
/// [`SchemaError::Mismatch`] with the first failure found, or
/// [`SchemaError::TooCostly`] when the limits stop the validation.
pub fn validate_with(schema: &Value, instance: &Value, patterns: &dyn PatternMatcher, limits: &Limits) -> Result<(), SchemaError> {
    let instance = instance::Node::from(instance);
    keywords::Validator::new(schema, patterns, limits, &instance).run(schema, &instance)
}

#[cfg(feature = "json-schema")]
/// [`validate_with`] for an instance still in its JSON text, such as a large
/// `structuredContent` as the server sent it: read straight into the
/// validator's own tree, which borrows the text's strings, never into a
/// [`Value`].
///
/// ```
/// use mcp_wasm::protocol::schema::{validate_text_with, Limits, LinearPatterns};
/// let schema = serde_json::json!({ "type": "object", "required": ["total"] });
/// let check = |text| validate_text_with(&schema, text, &LinearPatterns::default(), &Limits::DEFAULT);
/// assert!(check(r#"{"total": 3}"#).is_ok_and(|verdict| verdict.is_ok()));
/// assert!(check(r#"{"count": 3}"#).is_ok_and(|verdict| verdict.is_err()));
/// assert!(check("{").is_err());
/// ```
///
/// # Errors
/// The outer error when `instance` is not JSON (what
/// [`crate::protocol::json::parse`] refuses: serde_json's grammar and nesting
/// limit), or holds more than [`crate::protocol::json::MAX_VALUES`] values
/// ([`crate::protocol::json::TOO_MANY_VALUES`]); the inner one as
/// [`validate_with`]'s.
pub fn validate_text_with(
    schema: &Value,
    instance: &str,
    patterns: &dyn PatternMatcher,
    limits: &Limits,
) -> Result<Result<(), SchemaError>, crate::protocol::json::JsonError> {
    let instance = instance::Node::parse(instance)?;
    Ok(keywords::Validator::new(schema, patterns, limits, &instance).run(schema, &instance))
}

#[cfg(feature = "json-schema")]
/// Validates `instance` against the subschema at JSON Pointer `pointer` inside
/// `root` (e.g. `/$defs/CallToolRequest` of the MCP schema), resolving `$ref`s
/// against `root`.
///
/// # Errors
/// As [`validate_with`], or a mismatch saying the pointer leads nowhere.
pub fn validate_at(root: &Value, pointer: &str, instance: &Value) -> Result<(), SchemaError> {
    let schema = root.pointer(pointer).ok_or_else(|| {
        SchemaError::Mismatch(ValidationError {
            instance_path: String::new(),
            keyword: Cow::Borrowed("$ref"),
            message: format!("the schema has nothing at {pointer}"),
        })
    })?;
    let patterns = LinearPatterns::default();
    let instance = instance::Node::from(instance);
    keywords::Validator::new(root, &patterns, &Limits::DEFAULT, &instance).run(schema, &instance)
}

#[cfg(feature = "json-schema")]
/// Validates with [`LinearPatterns`] and the default [`Limits`].
///
/// # Errors
/// As [`validate_with`].
pub fn validate(schema: &Value, instance: &Value) -> Result<(), SchemaError> {
    validate_with(schema, instance, &LinearPatterns::default(), &Limits::DEFAULT)
}
