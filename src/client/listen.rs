//! `subscriptions/listen` (2026-07-28): one long-lived request whose stream
//! carries list changes and resource updates. It replaces the legacy GET
//! stream and `resources/subscribe`, so subscriptions and the list-changed
//! events work the same in both eras. The stream is reopened when the
//! subscriptions change, and reconnected when it drops.

use super::events::ClientEvent;
pub(crate) use super::listening::Listening;
use super::state::ClientState;
use crate::error::Error;
use crate::protocol::capabilities::declares;
use crate::protocol::jsonrpc::codes;
use crate::session::backoff;
use crate::session::oneshot;
use crate::session::{within, CallOptions, Runtime, Within};
use futures::future::{FutureExt, LocalBoxFuture};
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll};

impl ClientState {
    /// What to listen for: the list changes the server declares, and the subscribed resources.
    fn listen_filter(&self) -> Option<Value> {
        let capabilities = self.identity.borrow().capabilities.clone();
        let mut filter = Map::new();
        for (key, path) in [
            ("toolsListChanged", ["tools", "listChanged"]),
            ("promptsListChanged", ["prompts", "listChanged"]),
            ("resourcesListChanged", ["resources", "listChanged"]),
        ] {
            if declares(&capabilities, &path) {
                filter.insert(key.into(), Value::Bool(true));
            }
        }
        let subscriptions: Vec<Value> = self.subscriptions.borrow().iter().cloned().map(Value::String).collect();
        if !subscriptions.is_empty() {
            filter.insert("resourceSubscriptions".into(), Value::Array(subscriptions));
        }
        (!filter.is_empty()).then_some(Value::Object(filter))
    }

    /// Ends the current listen stream and opens one with the current filter.
    /// The receiver completes when the server acknowledges the new stream; it
    /// is dropped when the stream ends first, with the error in `refusal`.
    pub(crate) fn restart_listen(&self) -> Option<oneshot::Receiver<()>> {
        let listening = &self.listening;
        listening.generation.set(listening.generation.get() + 1);
        // Until the new stream's request starts, no acknowledgement is its.
        listening.stream.set(None);
        listening.stop("the subscriptions changed");
        *listening.refusal.borrow_mut() = None;
        self.listen_filter()?;
        let (ack, acked) = oneshot::channel();
        // Waiters that gave up (a call timed out) go: a server that never acknowledges would
        // otherwise have one more kept at each change of the subscriptions.
        let mut acks = listening.acks.borrow_mut();
        acks.retain(|ack| !ack.is_canceled());
        acks.push(ack);
        drop(acks);
        self.context.runtime.spawn(Box::pin(listen_loop(self.me.clone(), listening.generation.get())));
        Some(acked)
    }

    /// Waits at most the connection's timeout for the acknowledgement that
    /// `restart_listen` promised, or until `cancel` fires: then its reason.
    /// As the official SDK's connect does: a change right after the
    /// connection is then not missed. A stream refused or not acknowledged in
    /// time does not fail the connection; it is tried again.
    #[inline(never)]
    pub(crate) fn first_listen(
        &self,
        acknowledgement: oneshot::Receiver<()>,
        cancel: Option<LocalBoxFuture<'static, String>>,
    ) -> FirstListen {
        FirstListen { wait: within(acknowledgement, self.context.runtime.sleep(self.context.default_timeout_ms)), cancel }
    }

    /// Reports a lasting refusal that those who waited for the stream's
    /// acknowledgement did not hear: `connect` waits for it and returns
    /// without an error. In the next task, so that a listener added right
    /// after `connect` returns hears it; not when a subscription that waited
    /// was given it.
    fn report_refusal_later(self: &Rc<Self>) {
        let (state, pause) = (Rc::downgrade(self), self.context.runtime.sleep(0));
        self.context.runtime.spawn(Box::pin(async move {
            pause.await;
            let Some(state) = state.upgrade() else { return };
            if state.listening.refusal_heard.replace(true) {
                return;
            }
            let refusal = state.listening.refusal.borrow().clone();
            if let Some(refusal) = refusal {
                state.events.emit(&ClientEvent::Problem(refusal));
            }
        }));
    }

    /// Closes the client in the background: a connection cancelled while its
    /// first listen stream opens. Spawned, not awaited, so that the first
    /// call's module does not hold the close's states.
    #[inline(never)]
    pub(crate) fn close_later(self: &Rc<Self>) {
        let state = self.clone();
        self.context.runtime.spawn(Box::pin(async move { state.close().await }));
    }

    /// Waits at most `timeout_ms` for the acknowledgement `restart_listen` promised.
    ///
    /// # Errors
    /// `timeout` when none comes in time; the error that ended the stream
    /// before it; `closed` when the client closed meanwhile.
    pub(crate) async fn acknowledged(&self, acknowledgement: oneshot::Receiver<()>, timeout_ms: u32) -> Result<(), Error> {
        match within(acknowledgement, self.context.runtime.sleep(timeout_ms)).await {
            Some(Ok(())) => Ok(()),
            Some(Err(_)) => {
                self.listening.refusal_heard.set(true);
                Err(self.listening.refusal.borrow().clone().unwrap_or(Error::Closed))
            }
            None => Err(Error::Timeout { ms: timeout_ms }),
        }
    }

    /// Waits at most `timeout_ms` for the outcome of the subscription a call joined.
    ///
    /// # Errors
    /// Its error; `timeout` when it has none in time; `cancelled` when the
    /// call that asked for it was dropped before it had one.
    pub(crate) async fn joined(&self, joined: oneshot::Receiver<super::listening::Outcome>, timeout_ms: u32) -> Result<(), Error> {
        match within(joined, self.context.runtime.sleep(timeout_ms)).await {
            Some(Ok(outcome)) => outcome.map(drop),
            Some(Err(_)) => Err(Error::Cancelled { reason: "the subscription it joined was dropped".into() }),
            None => Err(Error::Timeout { ms: timeout_ms }),
        }
    }
}

/// [`ClientState::first_listen`]'s wait: the acknowledgement or the timeout
/// end it with `None`, `cancel` with its reason. A future of its own rather
/// than `select`s: one small poll in the first call's module instead of two
/// generic ones and their states.
pub(crate) struct FirstListen {
    wait: Within<oneshot::Receiver<()>>,
    cancel: Option<LocalBoxFuture<'static, String>>,
}

impl Future for FirstListen {
    type Output = Option<String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<String>> {
        if let Some(Poll::Ready(reason)) = self.cancel.as_mut().map(|cancel| cancel.as_mut().poll(cx)) {
            return Poll::Ready(Some(reason));
        }
        self.wait.poll_unpin(cx).map(|_| None)
    }
}

async fn listen_loop(state: Weak<ClientState>, generation: u64) {
    let mut attempt = 0;
    loop {
        let (session, params, call, runtime) = {
            let Some(state) = state.upgrade() else { return };
            if state.session.is_closed() || state.listening.generation.get() != generation {
                return;
            }
            // Asked again at each reconnection: a subscription an acknowledgement dropped is not.
            let Some(filter) = state.listen_filter() else { return };
            let (stop, stopped) = oneshot::channel::<String>();
            *state.listening.stop.borrow_mut() = Some(stop);
            state.listening.acknowledged.set(false);
            let cancel = stopped.map(|reason| reason.unwrap_or_else(|_| "stopped".into())).boxed_local();
            let params = state.modern_params(Some(Value::Object(crate::protocol::json::single("notifications", filter)).into()));
            let call = CallOptions { cancel: Some(cancel), unbounded: true, ..CallOptions::default() };
            // The request starts with no await between, so this is its id.
            state.listening.stream.set(Some(state.session.next_request_id()));
            (state.session.clone(), params, call, state.context.runtime.clone())
        };
        // The stream holds the session, not the client: a client whose owners let go of it
        // drops its `stop`, which ends the stream, and the transport with it.
        let outcome = session.request("subscriptions/listen", Some(params.into_value()), call).await;
        drop(session);
        let ended = match outcome {
            Err(Error::Cancelled { .. } | Error::Closed) => return,
            // A graceful end: the server closed the subscription; open it again. The
            // backoff starts over only if it had acknowledged the stream: a server that
            // ends every stream at once is asked ever less often.
            Ok(_) => Error::protocol("the subscriptions/listen stream ended before the server acknowledged it".into()),
            Err(error) => error,
        };
        let Some(wait) = after_end(&state, generation, runtime, &mut attempt, ended) else { return };
        wait.await;
    }
}

/// After a stream ended: lets go of whoever waits for its acknowledgement,
/// then either gives up on a refusal that would only come again (until the
/// subscriptions change; a problem event when nobody waited to hear it) or
/// reports `reconnecting` and returns the wait before the next stream. The
/// wait ends early when the client closes or restarts the stream, so that no
/// timer outlives them.
///
/// A function of its own: a stream a first call opens does not end during
/// it, and the core's split (scripts/split/) leaves this out of the module a
/// page loads first.
#[inline(never)]
fn after_end(
    state: &Weak<ClientState>,
    generation: u64,
    runtime: Rc<dyn Runtime>,
    attempt: &mut u32,
    ended: Error,
) -> Option<LocalBoxFuture<'static, ()>> {
    let state = state.upgrade().filter(|state| state.listening.generation.get() == generation)?;
    let listening = &state.listening;
    if listening.acknowledged.get() {
        *attempt = 0;
    }
    let lasting = matches!(&ended, Error::Rpc(refusal) if refusal.code == codes::METHOD_NOT_FOUND || refusal.code == codes::INVALID_PARAMS);
    let unheard = listening.refused(ended);
    if lasting {
        // A subscription that waited hears it from its own call; `connect`, which waits too,
        // does not pass it on.
        match unheard {
            Some(unheard) => state.events.emit(&ClientEvent::Problem(unheard)),
            None => state.report_refusal_later(),
        }
        return None;
    }
    let delay = backoff::DEFAULT.delay(*attempt, None, runtime.random());
    *attempt += 1;
    listening.reopening.set(true);
    state.events.emit(&ClientEvent::Reconnecting { attempt: *attempt, delay_ms: delay });
    let (stop, stopped) = oneshot::channel::<String>();
    *listening.stop.borrow_mut() = Some(stop);
    Some(Box::pin(within(stopped, runtime.sleep(delay)).map(drop)))
}

/// Keeps `state`'s listen acknowledgements flowing from its notifications.
pub(crate) fn watch_acknowledgements(state: &Rc<ClientState>) {
    let weak = Rc::downgrade(state);
    state.events.listen(Rc::new(move |event: &ClientEvent| {
        if let (Some(notification), Some(state)) = (event.notification(), weak.upgrade()) {
            let Some(reconnected) = state.listening.heard(&notification.method, notification.params.as_ref()) else { return };
            if reconnected {
                state.events.emit(&ClientEvent::Reconnected);
            }
            if !state.subscriptions.borrow().is_empty() {
                state.drop_ungranted();
            }
        }
    }));
}

impl ClientState {
    /// Gives up the subscriptions the last acknowledgement left out, each
    /// with a problem event (kind `unsupported`): a stream reconnected, or
    /// reopened for another resource, may be granted less than before. Not
    /// those a subscribe call waits to judge.
    #[inline(never)]
    fn drop_ungranted(&self) {
        let mut dropped = Vec::new();
        self.subscriptions.borrow_mut().retain(|uri| {
            let kept = self.listening.awaits(uri) || self.listening.granted(uri);
            if !kept {
                dropped.push(ungranted(uri));
            }
            kept
        });
        for error in dropped {
            self.events.emit(&ClientEvent::Problem(error));
        }
    }
}

/// The error for a subscription to `uri` that the server did not grant.
pub(super) fn ungranted(uri: &str) -> Error {
    Error::Unsupported(crate::error::cold_format!("a subscription to {uri:?}"))
}
