//! A JSON Schema validator for tool `outputSchema`s and elicitation
//! `requestedSchema`s: draft 2020-12 (the MCP default) and draft-07.
//!
//! It interprets the schema directly, generating no code, so it runs in
//! Cloudflare Workers where `eval` is forbidden. Only local references (`#…`)
//! are followed: the spec forbids dereferencing network `$ref`s. `format` is
//! an annotation, as in 2020-12. Regular expressions are ECMA-262, so
//! `pattern` goes through a [`PatternMatcher`] the platform supplies (the
//! wasm build uses JS `RegExp`, adding no regex engine to the module).

mod keywords;
#[cfg(test)]
mod tests;

use serde_json::Value;
use std::fmt;

/// A number as JSON writes it (`3`, `0.5`), without core's float printer.
pub fn format_number(n: f64) -> String {
    keywords::num(n)
}

/// Matches `pattern` keywords; `None` when the pattern itself is invalid.
pub trait PatternMatcher {
    /// Whether `text` matches the ECMA-262 regular expression `pattern` (unanchored).
    fn is_match(&self, pattern: &str, text: &str) -> Option<bool>;
}

/// Why an instance does not match a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// JSON Pointer to the failing part of the instance, `""` for the whole.
    pub instance_path: String,
    /// The keyword that failed, e.g. `"required"`.
    pub keyword: &'static str,
    /// A description of the failure.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.instance_path.is_empty() { "(root)" } else { &self.instance_path };
        write!(f, "{path}: {} ({})", self.message, self.keyword)
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

/// Validates `instance` against `schema`, reporting the first failure.
///
/// # Errors
/// The first [`ValidationError`] found.
pub fn validate_with(schema: &Value, instance: &Value, patterns: &dyn PatternMatcher) -> Result<(), ValidationError> {
    let validator = keywords::Validator { root: schema, dialect: Dialect::of(schema), patterns, track: keywords::uses_unevaluated(schema) };
    validator.check(schema, instance, &mut String::new(), 0).map(|_| ())
}

/// Validates `instance` against the subschema at JSON Pointer `pointer` inside
/// `root` (e.g. `/$defs/CallToolRequest` of the MCP schema), resolving `$ref`s
/// against `root`.
///
/// # Errors
/// The first [`ValidationError`] found, or one saying the pointer leads nowhere.
pub fn validate_at(root: &Value, pointer: &str, instance: &Value) -> Result<(), ValidationError> {
    let schema = root.pointer(pointer).ok_or_else(|| ValidationError {
        instance_path: String::new(),
        keyword: "$ref",
        message: format!("the schema has nothing at {pointer}"),
    })?;
    let validator = keywords::Validator { root, dialect: Dialect::of(root), patterns: &platform::Patterns, track: keywords::uses_unevaluated(root) };
    validator.check(schema, instance, &mut String::new(), 0).map(|_| ())
}

/// Validates with the platform's default pattern matcher.
///
/// # Errors
/// The first [`ValidationError`] found.
pub fn validate(schema: &Value, instance: &Value) -> Result<(), ValidationError> {
    validate_with(schema, instance, &platform::Patterns)
}

#[cfg(target_arch = "wasm32")]
mod platform {
    /// ECMA-262 patterns through the host's `RegExp`, with the `u` flag as JSON Schema asks.
    pub struct Patterns;

    impl super::PatternMatcher for Patterns {
        fn is_match(&self, pattern: &str, text: &str) -> Option<bool> {
            // `new RegExp` throws on a bad pattern; Reflect.construct turns that into an Err.
            let constructor: js_sys::Function = js_sys::RegExp::new("", "").constructor();
            let args = js_sys::Array::of2(&pattern.into(), &"u".into());
            let regexp = js_sys::Reflect::construct(&constructor, &args).ok()?;
            let regexp: js_sys::RegExp = wasm_bindgen::JsCast::unchecked_into(regexp);
            Some(regexp.test(text))
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod platform {
    /// Native builds (tests, tools) use regex-lite, close to ECMA-262 for the
    /// patterns schemas use.
    pub struct Patterns;

    impl super::PatternMatcher for Patterns {
        fn is_match(&self, pattern: &str, text: &str) -> Option<bool> {
            regex_lite::Regex::new(pattern).ok().map(|re| re.is_match(text))
        }
    }
}
