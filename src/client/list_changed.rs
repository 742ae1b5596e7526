//! Lists refreshed on `notifications/{tools,prompts,resources}/list_changed`:
//! the client waits out a burst (debounce), lists everything again and hands
//! the new list over.

#[cfg(feature = "modern")]
use super::events::ClientEvent;
use super::lists::{ListKind, PROMPTS, RESOURCES, TOOLS};
use super::options::RequestOptions;
use super::state::ClientState;
use crate::error::Error;
use serde_json::Value;
use std::cell::Cell;
use std::rc::{Rc, Weak};

/// How long a burst of notifications is waited out by default.
pub const DEFAULT_DEBOUNCE_MS: u32 = 300;

/// What a watcher is told after a change.
#[derive(Debug)]
pub enum ListChange {
    /// The list, fetched again.
    Refreshed(Vec<Value>),
    /// Fetching it again failed.
    Failed(Error),
    /// It changed; it was not fetched again (`auto_refresh: false`).
    Changed,
}

/// Refreshes one list after its `list_changed` notification.
#[derive(Clone)]
pub struct ListWatcher {
    kind: ListKind,
    on_changed: Rc<dyn Fn(ListChange)>,
    auto_refresh: bool,
    debounce_ms: u32,
    generation: Rc<Cell<u64>>,
}

impl std::fmt::Debug for ListWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListWatcher").field("list", &self.kind.method).field("debounce_ms", &self.debounce_ms).finish()
    }
}

impl ListWatcher {
    /// Watches `kind` (tools, prompts or resources), calling `on_changed`
    /// after each burst of changes, with the list fetched again when
    /// `auto_refresh` is set.
    pub fn new(kind: ListKind, on_changed: impl Fn(ListChange) + 'static, auto_refresh: bool, debounce_ms: u32) -> Self {
        Self { kind, on_changed: Rc::new(on_changed), auto_refresh, debounce_ms, generation: Rc::default() }
    }

    /// Watches the tools.
    pub fn tools(on_changed: impl Fn(ListChange) + 'static) -> Self {
        Self::new(TOOLS, on_changed, true, DEFAULT_DEBOUNCE_MS)
    }

    fn notification(&self) -> Option<&'static str> {
        match self.kind {
            kind if kind == TOOLS => Some("notifications/tools/list_changed"),
            kind if kind == PROMPTS => Some("notifications/prompts/list_changed"),
            kind if kind == RESOURCES => Some("notifications/resources/list_changed"),
            _ => None,
        }
    }
}

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
