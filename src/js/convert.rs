//! JSON values across the JS boundary, with one serializer configuration:
//! plain objects rather than `Map`s, and `null` kept as `null`.

use crate::error::Error;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::JsValue;

/// A JSON value as a plain JS value.
///
/// # Errors
/// [`Error::Protocol`] if the value cannot be represented (not expected for JSON).
pub fn to_js(value: &Value) -> Result<JsValue, Error> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| Error::Protocol(format!("cannot convert a result to JS: {e}")))
}

/// A JS value as JSON. `what` names the argument in the error.
///
/// # Errors
/// [`Error::InvalidArgument`] if the value is not JSON-compatible (a function, a symbol, a BigInt…).
pub fn from_js(value: &JsValue, what: &str) -> Result<Value, Error> {
    serde_wasm_bindgen::from_value(value.clone())
        .map_err(|e| Error::InvalidArgument(format!("{what} is not JSON-compatible: {e}")))
}

/// Optional request params from JS: `undefined`/`null` is none, an object is
/// taken as is (less its `undefined` properties), anything else is refused.
///
/// # Errors
/// [`Error::InvalidArgument`] for a non-object.
pub fn params_from_js(value: &JsValue, what: &str) -> Result<Option<Value>, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match from_js(value, what)? {
        Value::Object(mut map) => {
            // An `undefined` property is absent, as in JSON.stringify; serde reads it as null.
            map.retain(|key, v| !v.is_null() || !js_sys::Reflect::get(value, &JsValue::from_str(key)).is_ok_and(|p| p.is_undefined()));
            Ok(Some(Value::Object(map)))
        }
        other => Err(Error::InvalidArgument(format!(
            "{what} must be an object, not {}",
            crate::protocol::jsonrpc::kind(&other)
        ))),
    }
}
