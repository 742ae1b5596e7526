//! Push events (`addEventListener`) and pull streams (`notifications()`).
//!
//! Listeners are kept here rather than on an `EventTarget`: Node reports an
//! exception thrown by an `EventTarget` listener as uncaught and may end the
//! process, while a listener that throws must never break the client. Here a
//! throwing listener is reported as an `error` event and dispatch goes on.

use super::abort::is_signal;
use super::convert::to_js;
use crate::client::{Client, ClientEvent, Notification};
use js_sys::{Function, Object, Reflect};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{AbortSignal, AddEventListenerOptions};

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    /// The event for a server notification: `notification` is the whole
    /// message, `params` its params.
    #[wasm_bindgen(reexport)]
    pub type McpNotificationEvent;
    #[wasm_bindgen(constructor, js_class = "McpNotificationEvent")]
    fn new_notification_event(kind: &str, notification: &JsValue) -> McpNotificationEvent;

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
    /// `[iterator, listener, end, unsubscribe]` of a `notifications()` iterator.
    #[wasm_bindgen(js_name = notificationStream)]
    fn notification_stream(capacity: usize, signal: Option<AbortSignal>) -> js_sys::Array;
}

struct Listener {
    id: u64,
    kind: String,
    callback: JsValue,
    once: bool,
    /// Removes the listener when the caller's `signal` aborts.
    _on_abort: Option<AbortHook>,
    /// Tells a `notifications()` iterator that its listener is gone.
    _on_removed: Option<EndOnDrop>,
}

/// Calls a JS function when dropped: however a listener goes (removed, the client
/// closed or freed), its iterator learns it. The function must not call back into
/// the client: it runs while the listener list is borrowed.
struct EndOnDrop(Function);

impl Drop for EndOnDrop {
    fn drop(&mut self) {
        let _ = self.0.call0(&JsValue::UNDEFINED);
    }
}

struct AbortHook {
    signal: AbortSignal,
    callback: Closure<dyn FnMut()>,
}

impl Drop for AbortHook {
    fn drop(&mut self) {
        let _ = self.signal.remove_event_listener_with_callback("abort", self.callback.as_ref().unchecked_ref());
    }
}

/// The client's JS listeners.
#[derive(Default)]
pub struct Events {
    listeners: RefCell<Vec<Listener>>,
    next_id: Cell<u64>,
}

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Events").field("listeners", &self.listeners.borrow().len()).finish()
    }
}

fn flag(options: &JsValue, name: &str) -> bool {
    Reflect::get(options, &JsValue::from_str(name)).ok().is_some_and(|v| v.is_truthy())
}

impl Events {
    /// `addEventListener(type, listener, options)` with DOM semantics: the
    /// same listener is added once; `once` and `signal` are honoured.
    pub fn add(self: &Rc<Self>, kind: &str, callback: JsValue, options: &JsValue) {
        self.add_ending(kind, callback, options, None);
    }

    fn add_ending(self: &Rc<Self>, kind: &str, callback: JsValue, options: &JsValue, on_removed: Option<EndOnDrop>) {
        let callable = callback.is_function() || Reflect::get(&callback, &JsValue::from_str("handleEvent")).is_ok_and(|h| h.is_function());
        if !callable || self.listeners.borrow().iter().any(|l| l.kind == kind && l.callback == callback) {
            return;
        }
        let once = options.is_object() && flag(options, "once");
        let signal = options
            .is_object()
            .then(|| Reflect::get(options, &JsValue::from_str("signal")).ok())
            .flatten()
            .filter(is_signal)
            .map(JsCast::unchecked_into::<AbortSignal>);
        if signal.as_ref().is_some_and(AbortSignal::aborted) {
            return;
        }
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let on_abort = signal.map(|signal| {
            let events = Rc::downgrade(self);
            let callback = Closure::new(move || {
                if let Some(events) = events.upgrade() {
                    events.remove_id(id);
                }
            });
            let listen = AddEventListenerOptions::new();
            listen.set_once(true);
            let _ =
                signal.add_event_listener_with_callback_and_add_event_listener_options("abort", callback.as_ref().unchecked_ref(), &listen);
            AbortHook { signal, callback }
        });
        self.listeners.borrow_mut().push(Listener {
            id,
            kind: kind.to_owned(),
            callback,
            once,
            _on_abort: on_abort,
            _on_removed: on_removed,
        });
    }

    /// `removeEventListener(type, listener)`.
    pub fn remove(&self, kind: &str, callback: &JsValue) {
        self.listeners.borrow_mut().retain(|l| !(l.kind == kind && &l.callback == callback));
    }

    fn remove_id(&self, id: u64) {
        self.listeners.borrow_mut().retain(|l| l.id != id);
    }

    /// Calls every listener of `kind` with `event`. A listener that throws is
    /// reported through an `error` event (once; an `error` listener that
    /// throws is not reported again).
    pub fn dispatch(&self, kind: &str, event: &JsValue) {
        let targets: Vec<(u64, JsValue, bool)> =
            self.listeners.borrow().iter().filter(|l| l.kind == kind).map(|l| (l.id, l.callback.clone(), l.once)).collect();
        for (id, callback, once) in targets {
            if once {
                self.remove_id(id);
            }
            let outcome = match callback.dyn_ref::<Function>() {
                Some(f) => f.call1(&JsValue::UNDEFINED, event),
                None => Reflect::get(&callback, &JsValue::from_str("handleEvent"))
                    .and_then(|h| h.unchecked_into::<Function>().call1(&callback, event)),
            };
            if let (Err(thrown), false) = (outcome, kind == "error") {
                self.dispatch("error", &McpErrorEvent::new_error_event(&thrown).into());
            }
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
                self.listeners.borrow_mut().clear();
            }
        }
    }

    /// A server notification: to listeners of its method, and to `notification` listeners.
    fn notify(&self, notification: &Notification) {
        let method = notification.method.as_str();
        let has_listener = self.listeners.borrow().iter().any(|l| l.kind == method || l.kind == "notification");
        if !has_listener {
            return;
        }
        let message = notification_object(notification);
        self.dispatch(method, &McpNotificationEvent::new_notification_event(method, &message).into());
        self.dispatch("notification", &McpNotificationEvent::new_notification_event("notification", &message).into());
    }
}

/// An async iterator over the client's notifications, optionally of one method: a
/// listener of its own feeds it (`notificationStream` in src/glue.js), so that
/// iterators cost the core no queue of their own.
pub fn iterator(events: &Rc<Events>, method: Option<&str>, capacity: usize, signal: Option<AbortSignal>) -> JsValue {
    let parts = notification_stream(capacity, signal);
    let options = Object::new();
    let _ = Reflect::set(&options, &JsValue::from_str("signal"), &parts.get(3));
    let end = EndOnDrop(parts.get(2).unchecked_into());
    events.add_ending(method.unwrap_or("notification"), parts.get(1), &options, Some(end));
    parts.get(0)
}

fn notification_object(notification: &Notification) -> JsValue {
    let object = Object::new();
    let _ = Reflect::set(&object, &JsValue::from_str("method"), &JsValue::from_str(&notification.method));
    if let Some(params) = &notification.params {
        let _ = Reflect::set(&object, &JsValue::from_str("params"), &to_js(params).unwrap_or(JsValue::UNDEFINED));
    }
    object.into()
}
