//! [`Runtime`] on the web platform: the global `setTimeout` (never `window`, so
//! it works in Workers and Node) and `spawn_local`.

use crate::session::oneshot;
use crate::session::{Runtime, SteadyClock};
use futures::future::LocalBoxFuture;
use std::cell::Cell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &Closure<dyn FnMut()>, ms: u32) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(handle: &JsValue);
}

thread_local! {
    // One for every client: the wall clock is one, and so are its steps back.
    static CLOCK: Cell<SteadyClock> = const { Cell::new(SteadyClock::new()) };
}

/// The browser, Worker and Node runtime.
#[derive(Debug, Default, Clone, Copy)]
pub struct WebRuntime;

/// A pending `setTimeout`, cleared if dropped before it fires.
struct TimerGuard {
    handle: JsValue,
    // Held so the callback outlives the timer.
    _callback: Closure<dyn FnMut()>,
}

impl Drop for TimerGuard {
    fn drop(&mut self) {
        clear_timeout(&self.handle);
    }
}

impl Runtime for WebRuntime {
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        let (tx, rx) = oneshot::channel::<()>();
        let mut tx = Some(tx);
        let callback = Closure::new(move || {
            if let Some(tx) = tx.take() {
                let _ = tx.send(());
            }
        });
        // setTimeout fires a longer delay at once (browsers) or after 1 ms (Node).
        let ms = ms.min(crate::session::limits::MAX_TIMER_MS);
        let guard = TimerGuard { handle: set_timeout(&callback, ms), _callback: callback };
        Box::pin(async move {
            let _ = rx.await;
            drop(guard);
        })
    }

    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        wasm_bindgen_futures::spawn_local(task);
    }

    fn now_ms(&self) -> f64 {
        CLOCK.with(|cell| {
            let mut clock = cell.get();
            let now = clock.at(js_sys::Date::now());
            cell.set(clock);
            now
        })
    }

    fn random(&self) -> f64 {
        js_sys::Math::random()
    }
}
