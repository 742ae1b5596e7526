//! `listChanged: { tools?, prompts?, resources? }`, each `{ onChanged,
//! autoRefresh = true, debounceMs = 300 }`, as the client's list watchers:
//! `onChanged(error, items)` gets the fresh list, or the error that kept it
//! from coming, or `(null, null)` without auto-refresh.

use super::convert::to_js;
use super::events::Events;
use crate::client::list_changed::DEFAULT_DEBOUNCE_MS;
use crate::client::{ListChange, ListWatcher, PROMPTS, RESOURCES, TOOLS};
use crate::error::Error;
use js_sys::{Function, Reflect};
use serde_json::Value;
use std::rc::Weak;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Reads `listChanged`.
///
/// # Errors
/// [`Error::InvalidArgument`] naming the bad field.
pub fn watchers_from_js(config: &JsValue, events: Weak<Events>) -> Result<Vec<ListWatcher>, Error> {
    if config.is_undefined() || config.is_null() {
        return Ok(Vec::new());
    }
    given_watchers(config, events)
}

// Apart from the check above, which every connect runs: the core's split (scripts/split/)
// leaves a function that a first call never enters out of the module a page loads first,
// and a connect with `listChanged` waits for the rest anyway (pkg-template/rest-gate.js).
#[inline(never)]
fn given_watchers(config: &JsValue, events: Weak<Events>) -> Result<Vec<ListWatcher>, Error> {
    let invalid = |what: String| Error::invalid_argument(format!("listChanged.{what}"));
    let mut watchers = Vec::new();
    for (key, kind) in [("tools", TOOLS), ("prompts", PROMPTS), ("resources", RESOURCES)] {
        let entry = Reflect::get(config, &key.into()).unwrap_or(JsValue::UNDEFINED);
        if entry.is_undefined() || entry.is_null() {
            continue;
        }
        let field = |name: &str| Reflect::get(&entry, &name.into()).unwrap_or(JsValue::UNDEFINED);
        let on_changed = field("onChanged").dyn_into::<Function>().map_err(|_| invalid(format!("{key}.onChanged must be a function")))?;
        let auto_refresh = match field("autoRefresh") {
            v if v.is_undefined() => true,
            v => v.as_bool().ok_or_else(|| invalid(format!("{key}.autoRefresh must be a boolean")))?,
        };
        let debounce_ms = match field("debounceMs") {
            v if v.is_undefined() => DEFAULT_DEBOUNCE_MS,
            v => match v.as_f64() {
                Some(ms) if (0.0..=60_000.0).contains(&ms) => ms as u32,
                _ => return Err(invalid(format!("{key}.debounceMs must be between 0 and 60000"))),
            },
        };
        let events = events.clone();
        let call = move |change: ListChange| {
            let (error, items) = match change {
                ListChange::Refreshed(items) => (JsValue::NULL, to_js(&Value::Array(items)).unwrap_or(JsValue::NULL)),
                ListChange::Failed(error) => (super::error::to_js_error(&error), JsValue::NULL),
                ListChange::Changed => (JsValue::NULL, JsValue::NULL),
            };
            let called = on_changed.call2(&JsValue::UNDEFINED, &error, &items);
            if let Some(events) = events.upgrade() {
                events.heed(called);
            }
        };
        watchers.push(ListWatcher::new(kind, call, auto_refresh, debounce_ms));
    }
    Ok(watchers)
}
