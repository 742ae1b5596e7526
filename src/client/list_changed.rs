//! Lists refreshed on `notifications/{tools,prompts,resources}/list_changed`:
//! the client waits out a burst (debounce), lists everything again and hands
//! the new list over.

#[cfg(feature = "modern")]
use super::events::ClientEvent;
use super::options::RequestOptions;
use super::state::ClientState;
pub use super::watcher::{ListChange, ListWatcher, DEFAULT_DEBOUNCE_MS};
use futures::future;
use std::rc::{Rc, Weak};

/// Starts the watchers on `state`'s notifications.
pub(crate) fn attach(state: &Rc<ClientState>, watchers: Vec<ListWatcher>) {
    if watchers.is_empty() {
        return;
    }
    let weak = Rc::downgrade(state);
    state.events.listen(Rc::new(move |event| {
        let Some(notification) = event.notification() else { return };
        for watcher in watchers.iter().filter(|w| w.notification() == Some(notification.method.as_str())) {
            schedule(watcher.clone(), weak.clone());
        }
    }));
}

/// Counts a notification into the watcher's burst, and starts the task that
/// waits it out unless one runs.
fn schedule(watcher: ListWatcher, state: Weak<ClientState>) {
    let Some(runtime) = state.upgrade().map(|s| s.context.runtime.clone()) else { return };
    let (burst, now) = (&watcher.burst, runtime.now_ms());
    burst.last.set(now);
    if burst.first.get().is_none() {
        burst.first.set(Some(now));
    }
    if !burst.running.replace(true) {
        runtime.spawn(Box::pin(refresh_after_bursts(watcher, state)));
    }
}

/// Waits out the burst, refreshes, and again while notifications came
/// during the refresh; ends when the client is gone or closed.
async fn refresh_after_bursts(watcher: ListWatcher, state: Weak<ClientState>) {
    let burst = watcher.burst.clone();
    let longest = f64::from(watcher.debounce_ms) * f64::from(super::watcher::BURST_PERIODS);
    loop {
        let Some(live) = state.upgrade().filter(|state| !state.session.is_closed()) else { break };
        let runtime = live.context.runtime.clone();
        let now = runtime.now_ms();
        let first = burst.first.get().unwrap_or(now);
        let due = (burst.last.get() + f64::from(watcher.debounce_ms)).min(first + longest);
        if now < due {
            // A close ends the wait: its timer (up to a minute) must not outlive the client,
            // holding a Node process open or a Worker's invocation.
            let closed = Box::pin(live.session.closed());
            drop(live);
            future::select(runtime.sleep((due - now).ceil() as u32), closed).await;
            continue;
        }
        drop(live);
        burst.first.set(None);
        let Some(state) = state.upgrade().filter(|state| !state.session.is_closed()) else { break };
        let change = if watcher.auto_refresh {
            match state.list_all(watcher.kind, &RequestOptions::default()).await {
                Ok(items) => ListChange::Refreshed(items),
                Err(error) => ListChange::Failed(error),
            }
        } else {
            ListChange::Changed
        };
        drop(state);
        (watcher.on_changed)(change);
        if burst.first.get().is_none() {
            break;
        }
    }
    burst.running.set(false);
}

/// Keeps `state`'s cache from serving what a notification made stale.
#[cfg(feature = "modern")]
pub(crate) fn invalidate_cache_on_changes(state: &Rc<ClientState>) {
    if state.cache.is_none() {
        return;
    }
    let weak = Rc::downgrade(state);
    state.events.listen(Rc::new(move |event: &ClientEvent| {
        let (Some(notification), Some(state)) = (event.notification(), weak.upgrade()) else { return };
        if let Some(cache) = &state.cache {
            cache.invalidate(&notification.method);
        }
    }));
}
