//! Push events (`addEventListener`) and pull streams (`notifications()`).
//!
//! The listeners live in JS (`Listeners` in src/glue.js), and so do the
//! iterators they feed: this side turns the client's events into JS events
//! and hands each to them in one call. They are kept there rather than on an
//! `EventTarget`: Node reports an exception thrown by an `EventTarget`
//! listener as uncaught and may end the process, while a listener that throws
//! must never break the client. There a throwing listener is reported as an
//! `error` event and dispatch goes on.

use super::convert::to_js;
use crate::client::{Client, ClientEvent, Notification};
use js_sys::{Object, Reflect};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    /// The event for a server notification: `notification` is the whole
    /// message, `params` its params.
    #[wasm_bindgen(reexport)]
    pub type McpNotificationEvent;

    /// The `error` event: `error` holds what went wrong.
    #[wasm_bindgen(reexport)]
    pub type McpErrorEvent;
    #[wasm_bindgen(constructor, js_class = "McpErrorEvent")]
    fn new_error_event(error: &JsValue) -> McpErrorEvent;

    /// Connection events: `reconnecting` (with `attempt` and `delay`),
    /// `reconnected`, and `sessionrenewed` (with `previousSessionId` and `sessionId`).
    #[wasm_bindgen(reexport)]
    pub type McpConnectionEvent;
    #[wasm_bindgen(constructor, js_class = "McpConnectionEvent")]
    fn new_connection_event(kind: &str, detail: &JsValue) -> McpConnectionEvent;

    #[wasm_bindgen(js_name = plainEvent)]
    fn plain_event(kind: &str) -> JsValue;

    /// A client's listeners, with DOM semantics for `once`, `signal` and `handleEvent`.
    #[derive(Debug)]
    type Listeners;
    #[wasm_bindgen(constructor)]
    fn new() -> Listeners;
    #[wasm_bindgen(method)]
    fn add(this: &Listeners, kind: &str, callback: &JsValue, options: &JsValue);
    #[wasm_bindgen(method)]
    fn remove(this: &Listeners, kind: &str, callback: &JsValue);
    #[wasm_bindgen(method)]
    fn dispatch(this: &Listeners, kind: &str, event: &JsValue);
    /// Whether a notification of `method` has anyone to hear it.
    #[wasm_bindgen(method)]
    fn hears(this: &Listeners, method: &str) -> bool;
    /// Dispatches a notification to the listeners of its method, then to `notification` listeners.
    #[wasm_bindgen(method)]
    fn notify(this: &Listeners, method: &str, message: &JsValue);
    /// Removes every listener; their iterators end once read.
    #[wasm_bindgen(method)]
    fn clear(this: &Listeners);
    #[wasm_bindgen(method)]
    fn heed(this: &Listeners, returned: &JsValue, kind: &str);
    #[wasm_bindgen(method)]
    fn notifications(this: &Listeners, method: Option<String>, capacity: usize, signal: Option<AbortSignal>) -> JsValue;
}

/// The client's JS listeners.
#[derive(Debug)]
pub struct Events {
    listeners: Listeners,
}

impl Default for Events {
    fn default() -> Self {
        Self { listeners: Listeners::new() }
    }
}

/// A client let go of removes its listeners: their signals forget them, and its
/// iterators end once read.
impl Drop for Events {
    fn drop(&mut self) {
        self.listeners.clear();
    }
}

impl Events {
    /// `addEventListener(type, listener, options)`.
    pub fn add(&self, kind: &str, callback: &JsValue, options: &JsValue) {
        self.listeners.add(kind, callback, options);
    }

    /// `removeEventListener(type, listener)`.
    pub fn remove(&self, kind: &str, callback: &JsValue) {
        self.listeners.remove(kind, callback);
    }

    /// Calls every listener of `kind` with `event`. A listener that throws is
    /// reported through an `error` event (once; an `error` listener that
    /// throws is not reported again).
    pub fn dispatch(&self, kind: &str, event: &JsValue) {
        self.listeners.dispatch(kind, event);
    }

    /// An async iterator over the client's notifications, optionally of one
    /// method, fed by a listener of its own.
    pub fn iterator(&self, method: Option<String>, capacity: usize, signal: Option<AbortSignal>) -> JsValue {
        self.listeners.notifications(method, capacity, signal)
    }

    /// What a callback of the caller's gave back when called: what it threw,
    /// or a promise it rejects (an async callback that throws), becomes an
    /// `error` event rather than an unhandled rejection.
    pub fn heed(&self, called: Result<JsValue, JsValue>) {
        match called {
            Err(thrown) => self.dispatch_error(&thrown),
            Ok(returned) if returned.is_object() => self.listeners.heed(&returned, "callback"),
            Ok(_) => {}
        }
    }

    /// Dispatches an `error` event carrying `error`.
    pub fn dispatch_error(&self, error: &JsValue) {
        self.dispatch("error", &McpErrorEvent::new_error_event(error).into());
    }

    /// Turns the client's events into JS events, as they happen.
    pub fn attach(self: &Rc<Self>, client: &Client) {
        let events = Rc::downgrade(self);
        client.on_event(move |event| {
            if let Some(events) = events.upgrade() {
                events.deliver(event);
            }
        });
    }

    fn deliver(&self, event: &ClientEvent) {
        let connection = |kind: &str, fields: &[(&str, JsValue)]| {
            let detail = Object::new();
            for (name, value) in fields {
                let _ = Reflect::set(&detail, &(*name).into(), value);
            }
            McpConnectionEvent::new_connection_event(kind, &detail).into()
        };
        let optional = |id: &Option<String>| id.as_deref().map_or(JsValue::UNDEFINED, JsValue::from);
        match event {
            ClientEvent::Notification(notification) => self.notify(notification),
            ClientEvent::Reconnecting { attempt, delay_ms } => {
                let detail = connection("reconnecting", &[("attempt", (*attempt).into()), ("delay", (*delay_ms).into())]);
                self.dispatch("reconnecting", &detail);
            }
            ClientEvent::Reconnected => self.dispatch("reconnected", &connection("reconnected", &[])),
            ClientEvent::SessionRenewed { previous, current } => {
                let detail = connection("sessionrenewed", &[("previousSessionId", optional(previous)), ("sessionId", optional(current))]);
                self.dispatch("sessionrenewed", &detail);
            }
            ClientEvent::Problem(error) => self.dispatch_error(&super::error::to_js_error(error)),
            ClientEvent::Closed => {
                self.dispatch("close", &plain_event("close"));
                self.listeners.clear();
            }
        }
    }

    /// A server notification: to listeners of its method, and to `notification` listeners.
    fn notify(&self, notification: &Notification) {
        let method = notification.method.as_str();
        if !self.listeners.hears(method) {
            return;
        }
        self.listeners.notify(method, &notification_object(notification));
    }
}

fn notification_object(notification: &Notification) -> JsValue {
    let object = Object::new();
    let _ = Reflect::set(&object, &JsValue::from_str("method"), &JsValue::from_str(&notification.method));
    if let Some(params) = &notification.params {
        let _ = Reflect::set(&object, &JsValue::from_str("params"), &to_js(params).unwrap_or(JsValue::UNDEFINED));
    }
    object.into()
}
