//! `validateJson`: the validator module's JSON Schema check, which the core
//! calls for a tool result's `structuredContent` and an elicitation answer.

use super::object;
use crate::protocol::schema::{self, Limits, LinearPatterns, SchemaError};
use wasm_bindgen::prelude::*;

/// Validates the JSON text `instance` against the JSON Schema text `schema`,
/// both UTF-8 bytes (a `Uint8Array` crosses with one memory copy), within
/// `steps` and `steps_per_value`. Returns `null` when it matches, else
/// `{ kind: "mismatch" | "too-costly", instancePath, keyword, message }`, as
/// the built-in validator reports it.
#[wasm_bindgen(js_name = validateJson, skip_typescript)]
pub fn validate_json(schema: &[u8], instance: &[u8], steps: f64, steps_per_value: f64) -> JsValue {
    let limits = Limits { steps: steps as u64, steps_per_value: steps_per_value as u64 };
    // Checked as UTF-8 once here, so that serde_json reads text (`from_str`): its byte reader would
    // be a second copy of the whole parser in this module.
    let (Ok(schema), Ok(instance)) = (std::str::from_utf8(schema), std::str::from_utf8(instance)) else {
        return report("mismatch", "", "json", "not JSON: the text is not UTF-8");
    };
    let parsed = serde_json::from_str(schema).and_then(|s| schema::validate_text_with(&s, instance, &LinearPatterns::default(), &limits));
    let verdict = match parsed {
        Ok(verdict) => verdict,
        Err(e) => {
            return report("mismatch", "", "json", &format!("not JSON: {e}"));
        }
    };
    match verdict {
        Ok(()) => JsValue::NULL,
        Err(SchemaError::Mismatch(e)) => report("mismatch", &e.instance_path, &e.keyword, &e.message),
        Err(SchemaError::TooCostly(e)) => report("too-costly", &e.instance_path, &e.keyword, &e.message),
    }
}

fn report(kind: &str, instance_path: &str, keyword: &str, message: &str) -> JsValue {
    object(&[("kind", kind), ("instancePath", instance_path), ("keyword", keyword), ("message", message)])
}
