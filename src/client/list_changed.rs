//! Lists refreshed on `notifications/{tools,prompts,resources}/list_changed`:
//! the client waits out a burst (debounce), lists everything again and hands
//! the new list over.

#[cfg(feature = "modern")]
use super::events::ClientEvent;
use super::options::RequestOptions;
use super::state::ClientState;
pub use super::watcher::{ListChange, ListWatcher, DEFAULT_DEBOUNCE_MS};
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

fn schedule(watcher: ListWatcher, state: Weak<ClientState>) {
    let generation = watcher.generation.get() + 1;
    watcher.generation.set(generation);
    let Some(runtime) = state.upgrade().map(|s| s.context.runtime.clone()) else { return };
    let sleep = runtime.sleep(watcher.debounce_ms);
    runtime.spawn(Box::pin(async move {
        sleep.await;
        if watcher.generation.get() != generation {
            return;
        }
        let Some(state) = state.upgrade() else { return };
        if state.session.is_closed() {
            return;
        }
        let change = if watcher.auto_refresh {
            match state.list_all(watcher.kind, &RequestOptions::default()).await {
                Ok(items) => ListChange::Refreshed(items),
                Err(error) => ListChange::Failed(error),
            }
        } else {
            ListChange::Changed
        };
        (watcher.on_changed)(change);
    }));
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
