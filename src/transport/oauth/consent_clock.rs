//! How long the flows of one authorization context have waited on a person
//! (the app's `authorize` showing a consent page). The session reads it so
//! that a request does not spend its timeout on someone signing in: that
//! time is not the server's delay.

use crate::session::Runtime;
use crate::transport::web_runtime::WebRuntime;
use std::cell::Cell;

/// The milliseconds spent waiting on a person, a wait in progress included.
/// Whole milliseconds: a float here would bring float formatting into the
/// module through `Debug`.
#[derive(Debug, Default)]
pub(super) struct ConsentClock {
    /// How many waits are in progress (flows of several servers' requests may overlap).
    open: Cell<u32>,
    /// When the waits in progress began to overlap.
    since: Cell<u64>,
    /// The time of the waits that ended.
    spent: Cell<u64>,
}

/// The steady clock's milliseconds.
fn now() -> u64 {
    // Never negative, and a u64 holds it for millions of years.
    WebRuntime.now_ms().max(0.0) as u64
}

impl ConsentClock {
    /// Counts a wait on a person until the guard drops (the answer came, or
    /// nobody waits for it any more).
    pub(super) fn start(&self) -> Consenting<'_> {
        if self.open.get() == 0 {
            self.since.set(now());
        }
        self.open.set(self.open.get().saturating_add(1));
        Consenting(self)
    }

    /// All the time spent waiting on a person so far; it never decreases.
    pub(super) fn spent_ms(&self) -> u64 {
        let running = if self.open.get() > 0 { now().saturating_sub(self.since.get()) } else { 0 };
        self.spent.get().saturating_add(running)
    }
}

/// A wait on a person, counted by its [`ConsentClock`] while it lives.
pub(super) struct Consenting<'a>(&'a ConsentClock);

impl Drop for Consenting<'_> {
    fn drop(&mut self) {
        let clock = self.0;
        let open = clock.open.get().saturating_sub(1);
        clock.open.set(open);
        if open == 0 {
            clock.spent.set(clock.spent.get().saturating_add(now().saturating_sub(clock.since.get())));
        }
    }
}
