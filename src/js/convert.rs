//! JSON values across the JS boundary, as JSON text: one `JSON.stringify` or
//! `JSON.parse` on the JS side and serde_json on ours. Crossing the boundary
//! once with a string is much faster than building a large result one
//! property at a time through the boundary, and it gives JS's own semantics:
//! `undefined` properties are dropped, `toJSON` is honoured, key order is kept.

use crate::error::Error;
use crate::protocol::jsonrpc::Params;
use serde_json::Value;
use wasm_bindgen::JsValue;

/// A JSON value as a plain JS value.
///
/// # Errors
/// [`Error::Protocol`] if the value cannot be represented (not expected for JSON).
pub fn to_js(value: &Value) -> Result<JsValue, Error> {
    text_to_js(&crate::protocol::json_write::to_text(value))
}

/// JSON text the client wrote, as a JS value.
///
/// # Errors
/// [`Error::Protocol`] if `JSON.parse` refuses it.
pub fn text_to_js(text: &str) -> Result<JsValue, Error> {
    js_sys::JSON::parse(text).map_err(|_| Error::protocol("cannot convert a result to JS".into()))
}

/// A JS value as JSON. `what` names the argument in the error.
///
/// # Errors
/// [`Error::InvalidArgument`] if the value is not JSON-compatible (a function, a symbol, a BigInt, a cycle…).
pub fn from_js(value: &JsValue, what: &str) -> Result<Value, Error> {
    if value.is_undefined() {
        return Ok(Value::Null);
    }
    crate::protocol::json::parse(&json_text(value, what)?).map_err(|e| not_json(what, e.to_string()))
}

fn not_json(what: &str, why: String) -> Error {
    Error::invalid_argument(format!("{what} is not JSON-compatible: {why}"))
}

/// A JS value's JSON text, by `JSON.stringify`.
pub(crate) fn json_text(value: &JsValue, what: &str) -> Result<String, Error> {
    js_sys::JSON::stringify(value)
        .map_err(|e| not_json(what, crate::transport::fetch::js_message(&e)))?
        .as_string()
        .ok_or_else(|| not_json(what, "it has no JSON form (a function or a symbol?)".into()))
}

/// Required request params from JS as JSON text, kept as that text when
/// large (see [`Params::from_text`]): a large argument is not built into a
/// tree only to be written out again.
///
/// # Errors
/// [`Error::InvalidArgument`] for a missing, non-object or non-JSON value.
pub fn params_text_from_js(value: &JsValue, method: &str) -> Result<Params, Error> {
    optional_params_text_from_js(value)?.ok_or_else(|| Error::invalid_argument(format!("{method} needs params")))
}

/// [`params_text_from_js`] for optional params: `undefined`/`null` is none.
///
/// # Errors
/// [`Error::InvalidArgument`] for a non-object or non-JSON value.
pub fn optional_params_text_from_js(value: &JsValue) -> Result<Option<Params>, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match Params::from_text(json_text(value, "params")?).map_err(|why| not_json("params", why))? {
        Params::Parsed(other) if !other.is_object() => {
            Err(Error::invalid_argument(format!("params must be an object, not {}", crate::protocol::jsonrpc::kind(&other))))
        }
        params => Ok(Some(params)),
    }
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
        other => Err(Error::invalid_argument(format!("{what} must be an object, not {}", crate::protocol::jsonrpc::kind(&other)))),
    }
}
