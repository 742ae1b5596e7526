//! JSON values across the JS boundary, as JSON text: one `JSON.stringify` or
//! `JSON.parse` on the JS side and serde_json on ours. Crossing the boundary
//! once with a string is much faster than building a large result one
//! property at a time through the boundary, and it gives JS's own semantics:
//! `undefined` properties are dropped, `toJSON` is honoured, key order is kept.

use crate::error::Error;
use serde_json::Value;
use wasm_bindgen::JsValue;

/// A JSON value as a plain JS value.
///
/// # Errors
/// [`Error::Protocol`] if the value cannot be represented (not expected for JSON).
pub fn to_js(value: &Value) -> Result<JsValue, Error> {
    let text = serde_json::to_string(value).map_err(|e| Error::Protocol(format!("cannot convert a result to JS: {e}")))?;
    js_sys::JSON::parse(&text).map_err(|_| Error::Protocol("cannot convert a result to JS".into()))
}

/// A JS value as JSON. `what` names the argument in the error.
///
/// # Errors
/// [`Error::InvalidArgument`] if the value is not JSON-compatible (a function, a symbol, a BigInt, a cycle…).
pub fn from_js(value: &JsValue, what: &str) -> Result<Value, Error> {
    if value.is_undefined() {
        return Ok(Value::Null);
    }
    let not_json = |why: String| Error::InvalidArgument(format!("{what} is not JSON-compatible: {why}"));
    let text = js_sys::JSON::stringify(value)
        .map_err(|e| not_json(crate::transport::fetch::js_message(&e)))?
        .as_string()
        .ok_or_else(|| not_json("it has no JSON form (a function or a symbol?)".into()))?;
    serde_json::from_str(&text).map_err(|e| not_json(e.to_string()))
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
        object @ Value::Object(_) => Ok(Some(object)),
        other => Err(Error::InvalidArgument(format!("{what} must be an object, not {}", crate::protocol::jsonrpc::kind(&other)))),
    }
}
