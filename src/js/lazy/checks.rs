//! The functions of the validator's module of the split core (scripts/build.sh names this
//! file's functions as that module's entries): the only ones outside it that call into it,
//! once `validator_ready` has had it loaded. Everything they alone reach (the validator,
//! regex-lite, the skill checks' YAML reader and SHA-256) moves with them.

#[cfg(all(not(feature = "validator"), feature = "json-schema"))]
use crate::error::Error;
#[cfg(all(not(feature = "validator"), feature = "json-schema"))]
use crate::protocol::schema::{self, Limits, LinearPatterns, SchemaError};
#[cfg(all(not(feature = "skills"), feature = "skill-checks"))]
use crate::protocol::skills::{self, SkillFile};
use serde_json::Value;
#[cfg(all(not(feature = "validator"), feature = "json-schema"))]
use wasm_bindgen::prelude::*;

/// `instance` against `schema`.
#[cfg(all(not(feature = "validator"), feature = "json-schema"))]
#[inline(never)]
pub fn check(schema: &Value, instance: &Value, limits: &Limits) -> Result<(), SchemaError> {
    schema::validate_with(schema, instance, &LinearPatterns::default(), limits)
}

/// The instance still in its JSON text (a large `structuredContent`) against `schema`.
///
/// # Errors
/// `protocol` when `instance` is not JSON, `limit-exceeded` past the bound on its values.
#[cfg(all(not(feature = "validator"), feature = "json-schema"))]
#[inline(never)]
pub fn check_text(schema: &Value, instance: &str, limits: &Limits) -> Result<Result<(), SchemaError>, Error> {
    schema::validate_text_with(schema, instance, &LinearPatterns::default(), limits).map_err(|e| Error::unread("structuredContent", &e))
}

/// A skill's `SKILL.md` against its listing.
#[cfg(all(not(feature = "skills"), feature = "skill-checks"))]
#[inline(never)]
pub fn check_skill(skill: &Value, text: &str) -> Result<SkillFile, String> {
    skills::check_skill(skill, text)
}

/// A skill's file against its listing entry.
#[cfg(all(not(feature = "skills"), feature = "skill-checks"))]
#[inline(never)]
pub fn check_file(listed: &Value, bytes: &[u8]) -> Result<(), String> {
    skills::check_file(listed, bytes)
}

/// `__validateJson`'s verdict (`super::validator`), once the module is in.
#[cfg(all(not(feature = "validator"), feature = "json-schema"))]
#[inline(never)]
pub fn verdict(schema: &str, instance: &str, steps: f64, steps_per_value: f64) -> JsValue {
    let limits = Limits { steps: steps as u64, steps_per_value: steps_per_value as u64 };
    let verdict = match crate::protocol::json::parse(schema) {
        Ok(schema) => check_text(&schema, instance, &limits),
        Err(e) => Err(Error::protocol(format!("schema: {e}"))),
    };
    let (kind, detail) = match verdict {
        Ok(Ok(())) => return JsValue::NULL,
        Ok(Err(SchemaError::Mismatch(e))) => ("mismatch", e),
        Ok(Err(SchemaError::TooCostly(e))) => ("too-costly", e),
        Err(e) => ("json", schema::ValidationError { instance_path: String::new(), keyword: "json".into(), message: e.to_string() }),
    };
    let out = js_sys::Object::new();
    let fields = [
        ("kind", kind),
        ("instancePath", detail.instance_path.as_str()),
        ("keyword", detail.keyword.as_ref()),
        ("message", detail.message.as_str()),
    ];
    for (name, value) in fields {
        // Setting a plain property on a fresh object cannot fail.
        let _ = js_sys::Reflect::set(&out, &name.into(), &value.into());
    }
    out.into()
}
