//! The state of the `subscriptions/listen` stream that the client keeps:
//! which loop is current, how to end it, who waits for an acknowledgement,
//! and whether a dropped stream is being reopened.

use crate::error::Error;
use crate::protocol::modern::keys::SUBSCRIPTION_ID;
use crate::session::oneshot;
use serde_json::Value;
use std::cell::{Cell, RefCell};

/// The current listen stream.
#[derive(Default)]
pub(crate) struct Listening {
    /// Bumped on every restart; an older loop stops.
    pub(super) generation: Cell<u64>,
    /// Ends the current stream.
    pub(super) stop: RefCell<Option<oneshot::Sender<String>>>,
    /// Waiting for the next `notifications/subscriptions/acknowledged`. A
    /// stream that ends before it drops them, and leaves its error in `refusal`.
    pub(super) acks: RefCell<Vec<oneshot::Sender<()>>>,
    /// What ended the last stream before its acknowledgement.
    pub(super) refusal: RefCell<Option<Error>>,
    /// A subscription that waited was given `refusal`.
    pub(super) refusal_heard: Cell<bool>,
    /// The current stream was acknowledged: when it drops, the backoff starts over.
    pub(super) acknowledged: Cell<bool>,
    /// A stream dropped and `reconnecting` was reported: the next
    /// acknowledgement is reported as `reconnected`.
    pub(super) reopening: Cell<bool>,
    /// The last acknowledgement's params: what the server granted of the
    /// filter is their `notifications`.
    pub(super) granted: RefCell<Option<Value>>,
    /// The current stream's request id, which its acknowledgement names:
    /// `None` from a restart until the new stream's request starts.
    pub(super) stream: Cell<Option<i64>>,
    /// Subscriptions waiting for their acknowledgement, which their calls
    /// judge (an acknowledgement that leaves out any other subscription drops
    /// it), oldest first.
    pub(super) awaiting: RefCell<Vec<Mark>>,
    /// The last mark's token.
    pub(super) marks: Cell<u64>,
}

impl std::fmt::Debug for Listening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listening").field("generation", &self.generation.get()).finish()
    }
}

impl Listening {
    /// Whether the last acknowledgement granted a subscription to `uri`:
    /// one that names what it granted (`notifications`) and leaves `uri`
    /// out of its `resourceSubscriptions` did not.
    pub(super) fn granted(&self, uri: &str) -> bool {
        let granted = self.granted.borrow();
        let named = granted.as_ref().and_then(|params| params.get("notifications")).filter(|granted| granted.is_object());
        let Some(notifications) = named else { return true };
        let subscribed = notifications.get("resourceSubscriptions").and_then(Value::as_array);
        subscribed.is_some_and(|uris| uris.iter().any(|granted| granted.as_str() == Some(uri)))
    }

    /// Marks `uri` as waiting for its acknowledgement, until the mark drops.
    pub(super) fn await_grant(&self, uri: &str) -> Awaiting<'_> {
        let token = self.marks.get() + 1;
        self.marks.set(token);
        self.awaiting.borrow_mut().push(Mark { token, uri: uri.to_owned(), joined: Vec::new() });
        Awaiting { listening: self, token }
    }

    /// Whether a subscription to `uri` waits for its acknowledgement.
    pub(super) fn awaits(&self, uri: &str) -> bool {
        self.awaiting.borrow().iter().any(|mark| mark.uri == uri)
    }

    /// Joins the latest subscription to `uri` that waits for its
    /// acknowledgement, if one does: the receiver gets its outcome, and is
    /// dropped if it never has one.
    pub(super) fn join_grant(&self, uri: &str) -> Option<oneshot::Receiver<Outcome>> {
        let mut awaiting = self.awaiting.borrow_mut();
        let mark = awaiting.iter_mut().rev().find(|mark| mark.uri == uri)?;
        let (outcome, heard) = oneshot::channel();
        mark.joined.push(outcome);
        Some(heard)
    }

    /// Ends the current stream, or the wait before its next connection.
    pub(crate) fn stop(&self, reason: &str) {
        if let Some(stop) = self.stop.borrow_mut().take() {
            let _ = stop.send(reason.to_owned());
        }
    }

    /// Wakes those waiting for an acknowledgement of the current stream,
    /// having kept what it granted. `None` for any other notification;
    /// `Some(true)` when the acknowledgement ends a reconnection.
    pub(super) fn heard(&self, method: &str, params: Option<&Value>) -> Option<bool> {
        if method != "notifications/subscriptions/acknowledged" {
            return None;
        }
        // A stream the client ended may still deliver its own acknowledgement, which must not
        // answer for the one that replaced it. One that names no stream is taken as current.
        let meta = params.and_then(|params| params.get("_meta"));
        if meta.and_then(|meta| meta.get(SUBSCRIPTION_ID)).is_some_and(|id| id.as_i64() != self.stream.get()) {
            return None;
        }
        // Kept whole, and read only by a subscription: the first call's module stays small.
        *self.granted.borrow_mut() = params.cloned();
        self.acknowledged.set(true);
        for ack in self.acks.borrow_mut().drain(..) {
            let _ = ack.send(());
        }
        Some(self.reopening.replace(false))
    }

    /// Lets go of those waiting for an acknowledgement, with the error that
    /// ended the stream: the next one opens only after a backoff, if ever.
    /// (Dropped rather than sent an error, so that the first call's module
    /// needs no channel of its own for it.) Gives the error back when nobody
    /// waited, so that it can be reported elsewhere.
    pub(super) fn refused(&self, error: Error) -> Option<Error> {
        let mut waiting = self.acks.borrow_mut();
        if waiting.is_empty() {
            return Some(error);
        }
        *self.refusal.borrow_mut() = Some(error);
        self.refusal_heard.set(false);
        waiting.clear();
        None
    }
}

/// What a subscription came to, in the session's answer type, whose
/// channel the module has already: `Ok` holds nothing.
pub(super) type Outcome = Result<Value, Error>;

/// A subscription waiting for its acknowledgement, with the calls that joined it since.
pub(super) struct Mark {
    token: u64,
    uri: String,
    joined: Vec<oneshot::Sender<Outcome>>,
}

/// A subscription waiting for its acknowledgement, which its call judges.
pub(super) struct Awaiting<'a> {
    listening: &'a Listening,
    token: u64,
}

impl Awaiting<'_> {
    /// Gives the calls that joined the subscription its outcome.
    pub(super) fn settle(self, outcome: &Result<(), Error>) {
        for call in self.take() {
            let _ = call.send(outcome.clone().map(|()| Value::Null));
        }
    }

    /// Whether a later subscription to the same resource waits too: a call
    /// made after an unsubscription, whose change this one must not undo.
    pub(super) fn superseded(&self) -> bool {
        let awaiting = self.listening.awaiting.borrow();
        let uri = awaiting.iter().find(|mark| mark.token == self.token).map(|mark| mark.uri.as_str());
        awaiting.iter().any(|mark| mark.token > self.token && Some(mark.uri.as_str()) == uri)
    }

    fn take(&self) -> Vec<oneshot::Sender<Outcome>> {
        let mut awaiting = self.listening.awaiting.borrow_mut();
        let at = awaiting.iter().position(|mark| mark.token == self.token);
        at.map(|at| awaiting.remove(at).joined).unwrap_or_default()
    }
}

impl Drop for Awaiting<'_> {
    fn drop(&mut self) {
        drop(self.take());
    }
}
