//! `listChanged` auto-refresh: on `notifications/{tools,prompts,resources}/list_changed`
//! the client waits out a burst (debounce), lists everything again and hands
//! the new list to the user's `onChanged(error, items)`.

use super::client::ClientState;
use super::convert::to_js;
use super::lists::{ListKind, PROMPTS, RESOURCES, TOOLS};
use super::options::RequestOptions;
use crate::error::Error;
use crate::session::Runtime;
use crate::transport::web_runtime::WebRuntime;
use js_sys::{Function, Reflect};
use serde_json::Value;
use std::cell::Cell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

const DEFAULT_DEBOUNCE_MS: u32 = 300;

#[derive(Debug)]
struct Watcher {
    kind: ListKind,
    notification: &'static str,
    on_changed: Function,
    auto_refresh: bool,
    debounce_ms: u32,
    /// Bumped on each notification; a refresh runs only if no newer one came.
    generation: Cell<u64>,
}

/// The configured watchers.
#[derive(Debug, Default)]
pub struct ListWatchers(Vec<Rc<Watcher>>);

impl ListWatchers {
    /// Reads `listChanged: { tools?, prompts?, resources? }`, each
    /// `{ onChanged, autoRefresh = true, debounceMs = 300 }`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming the bad field.
    pub fn from_js(config: &JsValue) -> Result<Self, Error> {
        if config.is_undefined() || config.is_null() {
            return Ok(Self::default());
        }
        let invalid = |what: &str| Error::InvalidArgument(format!("listChanged.{what}"));
        let mut watchers = Vec::new();
        for (key, kind, notification) in [
            ("tools", TOOLS, "notifications/tools/list_changed"),
            ("prompts", PROMPTS, "notifications/prompts/list_changed"),
            ("resources", RESOURCES, "notifications/resources/list_changed"),
        ] {
            let entry = Reflect::get(config, &key.into()).unwrap_or(JsValue::UNDEFINED);
            if entry.is_undefined() || entry.is_null() {
                continue;
            }
            let field = |name: &str| Reflect::get(&entry, &name.into()).unwrap_or(JsValue::UNDEFINED);
            let on_changed =
                field("onChanged").dyn_into::<Function>().map_err(|_| invalid(&format!("{key}.onChanged must be a function")))?;
            let auto_refresh = match field("autoRefresh") {
                v if v.is_undefined() => true,
                v => v.as_bool().ok_or_else(|| invalid(&format!("{key}.autoRefresh must be a boolean")))?,
            };
            let debounce_ms = match field("debounceMs") {
                v if v.is_undefined() => DEFAULT_DEBOUNCE_MS,
                v => match v.as_f64() {
                    Some(ms) if (0.0..=60_000.0).contains(&ms) => ms as u32,
                    _ => return Err(invalid(&format!("{key}.debounceMs must be between 0 and 60000"))),
                },
            };
            watchers.push(Rc::new(Watcher { kind, notification, on_changed, auto_refresh, debounce_ms, generation: Cell::new(0) }));
        }
        Ok(Self(watchers))
    }

    /// Starts watching the notifications of `state`'s server.
    pub fn attach(self, state: &Rc<ClientState>) {
        if self.0.is_empty() {
            return;
        }
        let weak = Rc::downgrade(state);
        let watchers = self.0;
        state.events.add_hook(Rc::new(move |method: &str| {
            for watcher in watchers.iter().filter(|w| w.notification == method) {
                schedule(watcher.clone(), weak.clone());
            }
        }));
    }
}

fn schedule(watcher: Rc<Watcher>, state: Weak<ClientState>) {
    let generation = watcher.generation.get() + 1;
    watcher.generation.set(generation);
    wasm_bindgen_futures::spawn_local(async move {
        WebRuntime.sleep(watcher.debounce_ms).await;
        if watcher.generation.get() != generation {
            return;
        }
        let Some(state) = state.upgrade() else { return };
        if state.session.is_closed() {
            return;
        }
        let (error, items) = if watcher.auto_refresh {
            match state.list_all(watcher.kind, &RequestOptions::default()).await {
                Ok(items) => (JsValue::NULL, to_js(&Value::Array(items)).unwrap_or(JsValue::NULL)),
                Err(rejection) => (rejection.0, JsValue::NULL),
            }
        } else {
            (JsValue::NULL, JsValue::NULL)
        };
        if let Err(thrown) = watcher.on_changed.call2(&JsValue::UNDEFINED, &error, &items) {
            state.events.dispatch_error(&thrown);
        }
    });
}
