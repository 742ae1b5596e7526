//! The quick check of a JSON Schema (`quick-check.js`): run on a tool's
//! `structuredContent` where the one `JSON.parse` of the result built it, and
//! on an elicitation answer, before the validator module. It only accepts;
//! when it cannot tell, the validator decides.

use super::load;
use crate::client::OutputCheck;
use crate::protocol::json_write::to_text;
use crate::protocol::schema::Limits;
use js_sys::{Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// Whether the quick check finds `result`'s `structuredContent` surely
/// matching the tool's `outputSchema`, within a budget of its own. `false`
/// when it cannot tell, or is not there (a raw module without the package's
/// entries).
pub async fn surely_valid(check: &OutputCheck, result: &JsValue) -> bool {
    let Ok(structured) = Reflect::get(result, &"structuredContent".into()) else { return false };
    let schema = to_text(check.schema());
    quick_check(&schema, &structured, budget(check.limits(), check.text_len().unwrap_or(0))).await
}

/// [`surely_valid`] for a schema and an instance as JSON texts, such as an
/// elicitation answer's, which the validator module's stand-in asks for.
#[cfg(all(not(feature = "validator"), feature = "json-schema"))]
pub async fn surely_valid_text(schema: &str, instance: &str, limits: &Limits) -> bool {
    let Ok(value) = js_sys::JSON::parse(instance) else { return false };
    quick_check(schema, &value, budget(limits, instance.len())).await
}

/// The quick check of `value` against the schema whose text is `schema`: it keeps each schema's
/// rules by that text, and parses a schema only the first time it meets it.
async fn quick_check(schema: &str, value: &JsValue, budget: f64) -> bool {
    let Ok(Some(part)) = load("quickCheck").await else { return false };
    let Some(surely_valid) = Reflect::get(&part, &"surelyValid".into()).ok().and_then(|f| f.dyn_into::<Function>().ok()) else {
        return false;
    };
    let verdict = surely_valid.call3(&JsValue::UNDEFINED, &JsValue::from_str(schema), value, &JsValue::from_f64(budget));
    verdict.is_ok_and(|v| v.as_bool() == Some(true))
}

/// The work the quick check may do: half the validator's fixed steps, and
/// for each byte of the instance's text a sixteenth of the validator's
/// allowance per value (a value takes some bytes of text), so that a large
/// instance is not left to the validator for its size alone. It guards the
/// quick check's own time; what it accepts matches the schema, whatever the
/// validator would have spent.
fn budget(limits: &Limits, text_len: usize) -> f64 {
    let per_byte = limits.steps_per_value.saturating_mul(text_len as u64) / 16;
    (limits.steps / 2).saturating_add(per_byte) as f64
}
