//! Reading the fields of an options object passed from JS: absent, or of
//! the right type, or an `invalid-argument` error that names the field.

use crate::error::Error;
use crate::session::limits::MAX_TIMER_MS;
use js_sys::{Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};

#[cold]
#[inline(never)]
pub(super) fn invalid(what: impl Into<String>) -> Error {
    Error::invalid_argument(what.into())
}

/// A field, with `undefined` and `null` read as absent.
pub(super) fn field(object: &JsValue, name: &str) -> Option<JsValue> {
    Reflect::get(object, &JsValue::from_str(name)).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

/// A delay or timeout: positive, and no longer than `setTimeout` can hold
/// (a longer one would fire at once in browsers).
pub(super) fn milliseconds(object: &JsValue, name: &str) -> Result<Option<u32>, Error> {
    let Some(value) = field(object, name) else { return Ok(None) };
    match value.as_f64() {
        Some(ms) if ms.is_finite() && ms > 0.0 && ms <= f64::from(MAX_TIMER_MS) => Ok(Some(ms.ceil() as u32)),
        _ => Err(invalid(format!("{name} must be a positive number of milliseconds, at most {MAX_TIMER_MS} (about 24.8 days)"))),
    }
}

/// A whole number from `range`, or `default` when absent. The range is of
/// integers so that its bounds print as integers: printing an `f64` would
/// bring core's float formatting (about 17 KB) into the module.
pub(super) fn count(object: &JsValue, name: &str, range: std::ops::RangeInclusive<u64>, default: u64) -> Result<u64, Error> {
    let Some(value) = field(object, name) else { return Ok(default) };
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && n >= *range.start() as f64 && n <= *range.end() as f64 => Ok(n as u64),
        _ => Err(invalid(format!("{name} must be a whole number from {} to {}", range.start(), range.end()))),
    }
}

pub(super) fn boolean(object: &JsValue, name: &str, default: bool) -> Result<bool, Error> {
    match field(object, name) {
        None => Ok(default),
        Some(v) => v.as_bool().ok_or_else(|| invalid(format!("{name} must be a boolean"))),
    }
}

pub(super) fn function(object: &JsValue, name: &str) -> Result<Option<Function>, Error> {
    match field(object, name) {
        None => Ok(None),
        Some(f) if f.is_function() => Ok(Some(f.unchecked_into())),
        Some(_) => Err(invalid(format!("{name} must be a function"))),
    }
}
