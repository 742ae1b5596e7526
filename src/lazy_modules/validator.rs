//! `validateJson`: the validator module's one export, which the core calls
//! for a tool result's `structuredContent` and an elicitation answer.

use crate::protocol::schema::{self, Limits, LinearPatterns, SchemaError};
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

/// Validates the JSON text `instance` against the JSON Schema text `schema`
/// within `steps` and `steps_per_value`. Returns `null` when it matches, else
/// `{ kind: "mismatch" | "too-costly", instancePath, keyword, message }`, as
/// the built-in validator reports it.
#[wasm_bindgen(js_name = validateJson, skip_typescript)]
pub fn validate_json(schema: &str, instance: &str, steps: f64, steps_per_value: f64) -> JsValue {
    let limits = Limits { steps: steps as u64, steps_per_value: steps_per_value as u64 };
    let parsed = serde_json::from_str(schema).and_then(|s| serde_json::from_str(instance).map(|i| (s, i)));
    let verdict = match parsed {
        Ok((schema, instance)) => schema::validate_with(&schema, &instance, &LinearPatterns::default(), &limits),
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
    let out = Object::new();
    for (name, value) in [("kind", kind), ("instancePath", instance_path), ("keyword", keyword), ("message", message)] {
        // Setting a plain property on a fresh object cannot fail.
        let _ = Reflect::set(&out, &name.into(), &value.into());
    }
    out.into()
}
