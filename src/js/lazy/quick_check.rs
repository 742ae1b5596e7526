//! The quick check of a tool's `structuredContent` (`quick-check.js`), run on
//! the result that the one `JSON.parse` of its text built, before the
//! validator module. It only accepts; when it cannot tell, the validator
//! decides.

use super::load;
use crate::client::OutputCheck;
use crate::js::convert::to_js;
use js_sys::{Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// Whether the quick check finds `result`'s `structuredContent` surely
/// matching the tool's `outputSchema`, within half the check's step budget
/// (so that what it accepts, the validator would not stop for cost). `false` when it cannot
/// tell, or is not there (a raw module without the package's entries).
pub async fn surely_valid(check: &OutputCheck, result: &JsValue) -> bool {
    let Ok(Some(part)) = load("quickCheck").await else { return false };
    let Some(surely_valid) = Reflect::get(&part, &"surelyValid".into()).ok().and_then(|f| f.dyn_into::<Function>().ok()) else {
        return false;
    };
    let (Ok(schema), Ok(structured)) = (to_js(check.schema()), Reflect::get(result, &"structuredContent".into())) else { return false };
    let verdict = surely_valid.call3(&JsValue::UNDEFINED, &schema, &structured, &JsValue::from_f64((check.steps() / 2) as f64));
    verdict.is_ok_and(|v| v.as_bool() == Some(true))
}
