//! What a list watcher is: which list, whom to tell, how long to wait out a
//! burst. [`super::list_changed`] runs them.

use super::list_kind::{ListKind, PROMPTS, RESOURCES, TOOLS};
use crate::error::Error;
use serde_json::Value;
use std::cell::Cell;
use std::rc::Rc;

/// How long a burst of notifications is waited out by default.
pub const DEFAULT_DEBOUNCE_MS: u32 = 300;
/// The longest a burst is waited out, in debounce periods from its first
/// notification: a server that announces changes without pause must not
/// hold the refresh off for as long as it goes on.
pub const BURST_PERIODS: u32 = 4;

/// Where a watcher's current burst stands.
#[derive(Debug, Default)]
pub(super) struct Burst {
    /// When its last notification came (the runtime's clock, in ms).
    pub(super) last: Cell<f64>,
    /// When its first came; `None` once a refresh has taken it.
    pub(super) first: Cell<Option<f64>>,
    /// A task waits the burst out or lists: a notification joins it rather
    /// than start another, so that refreshes never overlap.
    pub(super) running: Cell<bool>,
}

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
    pub(super) kind: ListKind,
    pub(super) on_changed: Rc<dyn Fn(ListChange)>,
    pub(super) auto_refresh: bool,
    pub(super) debounce_ms: u32,
    pub(super) burst: Rc<Burst>,
}

impl std::fmt::Debug for ListWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListWatcher").field("list", &self.kind.method).field("debounce_ms", &self.debounce_ms).finish()
    }
}

impl ListWatcher {
    /// Watches `kind` (tools, prompts or resources), calling `on_changed`
    /// after each burst of changes, with the list fetched again when
    /// `auto_refresh` is set. A burst ends `debounce_ms` after its last
    /// notification, or four such periods after its first; a
    /// notification during a refresh starts a burst that waits for it.
    pub fn new(kind: ListKind, on_changed: impl Fn(ListChange) + 'static, auto_refresh: bool, debounce_ms: u32) -> Self {
        Self { kind, on_changed: Rc::new(on_changed), auto_refresh, debounce_ms, burst: Rc::default() }
    }

    /// Watches the tools.
    pub fn tools(on_changed: impl Fn(ListChange) + 'static) -> Self {
        Self::new(TOOLS, on_changed, true, DEFAULT_DEBOUNCE_MS)
    }

    pub(super) fn notification(&self) -> Option<&'static str> {
        match self.kind {
            kind if kind == TOOLS => Some("notifications/tools/list_changed"),
            kind if kind == PROMPTS => Some("notifications/prompts/list_changed"),
            kind if kind == RESOURCES => Some("notifications/resources/list_changed"),
            _ => None,
        }
    }
}
