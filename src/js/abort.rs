//! `AbortSignal` as a future, with its listener removed when the future drops.

use crate::session::oneshot;
use futures::future::LocalBoxFuture;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{AbortSignal, AddEventListenerOptions};

/// Whether `value` looks like an `AbortSignal`. Duck-typed, because a signal
/// from another realm or a polyfill fails `instanceof`.
pub fn is_signal(value: &JsValue) -> bool {
    let has = |name: &str| js_sys::Reflect::has(value, &JsValue::from_str(name)).unwrap_or(false);
    // `aborted` is read again later, outside any catch: one whose getter throws is no signal.
    let readable = || js_sys::Reflect::get(value, &JsValue::from_str("aborted")).is_ok();
    value.is_object() && has("aborted") && has("addEventListener") && has("removeEventListener") && readable()
}

/// Removes the abort listener when dropped.
struct ListenerGuard {
    signal: AbortSignal,
    callback: Closure<dyn FnMut()>,
}

impl Drop for ListenerGuard {
    fn drop(&mut self) {
        let _ = self.signal.remove_event_listener_with_callback("abort", self.callback.as_ref().unchecked_ref());
    }
}

/// Completes when `signal` aborts (at once if it already has), yielding a text
/// form of `signal.reason` for `notifications/cancelled`.
pub fn aborted(signal: &AbortSignal) -> LocalBoxFuture<'static, String> {
    let (tx, rx) = oneshot::channel::<()>();
    let mut tx = Some(tx);
    let callback = Closure::new(move || {
        if let Some(tx) = tx.take() {
            let _ = tx.send(());
        }
    });
    let options = AddEventListenerOptions::new();
    options.set_once(true);
    let _ = signal.add_event_listener_with_callback_and_add_event_listener_options("abort", callback.as_ref().unchecked_ref(), &options);
    let guard = ListenerGuard { signal: signal.clone(), callback };
    let already = signal.aborted();
    Box::pin(async move {
        if !already && rx.await.is_err() {
            futures::future::pending::<()>().await;
        }
        let reason = reason_text(&guard.signal.reason());
        drop(guard);
        reason
    })
}

fn reason_text(reason: &JsValue) -> String {
    crate::transport::fetch::js_message(reason)
}
