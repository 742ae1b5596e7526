use super::consent::ConsentAllowance;
use super::handler::{ClientHandler, InboundContext};
use super::id_map::IdMap;
use super::oneshot;
use super::{ConnectionStatus, Inbound, InboundSink, Kept, ResultText, Runtime, Transport};
use crate::error::Error;
use crate::protocol::jsonrpc::envelope::Envelope;
use crate::protocol::jsonrpc::{codes, ErrorObject, Message, Params, RequestId};
use crate::protocol::methods;
use futures::channel::mpsc;
use futures::future::{self, FutureExt, LocalBoxFuture};
use futures::stream::LocalBoxStream;
use futures::StreamExt;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::task::Poll;

/// Receives the params of each `notifications/progress` for one request.
pub type ProgressListener = Rc<dyn Fn(&Value)>;

/// Whether a deadline ([`Session::stop_after`]) gives back the time a
/// person spent signing in meanwhile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConsentTime {
    /// A timeout, as a request's: the time the transport waited on an OAuth
    /// consent page is given back, up to ten minutes in all, so that the
    /// sign-in is not ended at the deadline.
    GivenBack,
    /// A cap on the whole of some work (`maxTotalTimeout`): the time on a
    /// consent page counts like any other.
    Counts,
}

/// Per-request options.
#[derive(Default)]
pub struct CallOptions {
    /// Overrides the session's default timeout.
    pub timeout_ms: Option<u32>,
    /// Completes when the caller gives up on the request; its output is the
    /// reason sent in `notifications/cancelled`.
    pub cancel: Option<LocalBoxFuture<'static, String>>,
    /// Asks the server for progress (the session allocates the token) and receives it.
    pub on_progress: Option<ProgressListener>,
    /// Restarts the timeout whenever progress arrives.
    pub reset_timeout_on_progress: bool,
    /// A cap on the whole request, however much progress resets the timeout.
    pub max_total_timeout_ms: Option<u32>,
    /// No timeout at all: for long-lived requests such as `subscriptions/listen`.
    pub unbounded: bool,
}

impl std::fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallOptions")
            .field("timeout_ms", &self.timeout_ms)
            .field("cancel", &self.cancel.is_some())
            .field("on_progress", &self.on_progress.is_some())
            .field("reset_timeout_on_progress", &self.reset_timeout_on_progress)
            .field("max_total_timeout_ms", &self.max_total_timeout_ms)
            .field("unbounded", &self.unbounded)
            .finish()
    }
}

/// Receives every notification from the server: method and params.
pub type NotificationListener = Rc<dyn Fn(&str, Option<&Value>)>;

/// Receives what happens to the connection's streams.
pub type StatusListener = Rc<dyn Fn(ConnectionStatus)>;

/// Receives what went wrong outside any request of the client's: a server
/// request refused for a limit, a notification too large to read.
pub type ProblemListener = Rc<dyn Fn(Error)>;

/// Which way a traced message went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceDirection {
    /// From the client to the server.
    Out,
    /// From the server to the client.
    In,
}

/// Sees every JSON-RPC message of the session: each one the client hands to
/// the transport, and each one the transport delivers, in order. Opt-in: a
/// session without one pays a single check per message.
pub type TraceListener = Rc<dyn Fn(TraceDirection, &Message)>;

/// How many server requests may be handled at once when nothing else is set.
const DEFAULT_MAX_SERVER_REQUESTS: usize = crate::session::limits::Limits::DEFAULT.max_server_requests;
/// How many answers the client gives on its own may be on their way at once.
pub const MAX_AUTOMATIC_REPLIES: usize = 64;
/// How many more may wait for one of those to arrive.
pub const MAX_QUEUED_REPLIES: usize = 4096;

/// One JSON-RPC conversation with one server. Cheap to clone: clones share it.
#[derive(Clone)]
pub struct Session {
    inner: Rc<Inner>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.inner.state.borrow();
        f.debug_struct("Session").field("pending", &state.pending.len()).field("closed", &state.closed).finish()
    }
}

struct Inner {
    runtime: Rc<dyn Runtime>,
    transport: Rc<dyn Transport>,
    default_timeout_ms: u32,
    state: RefCell<State>,
}

/// A request that asked for progress: where progress goes, and the tick that
/// restarts its timeout.
struct ProgressRoute {
    listener: ProgressListener,
    tick: mpsc::UnboundedSender<()>,
}

/// A request's result as the transport handed it on.
#[derive(Debug)]
pub enum Answer {
    /// Parsed.
    Parsed(Value),
    /// A result as the server's text alone, for a consumer that reads
    /// what it needs of it (`JSON.parse` in JS) rather than a tree.
    Text(LargeResult),
}

/// A large result as the transport handed it on.
#[derive(Clone, Debug)]
pub struct LargeResult {
    /// The result's JSON text; without what the checks do not read when the
    /// message is `kept`.
    pub text: ResultText,
    /// The whole message, kept outside the session.
    pub kept: Option<Kept>,
}

impl LargeResult {
    /// The result's value, whole, for its consumer: read from the kept
    /// message when there is one, with no bound on its values (a tool's
    /// result may hold millions; the consumer asked for all of them).
    ///
    /// # Errors
    /// The parser's or the kept message's complaint.
    pub fn parse_whole(&self) -> Result<Value, String> {
        self.read_with(|text| crate::protocol::json::parse(text).map_err(|e| e.message()), str::to_owned)
    }

    /// The result's value for the client's own reading (a handshake, a
    /// listing, a round of input requests): at most
    /// [`crate::protocol::json::MAX_VALUES`] values, as for a message. A
    /// server's 32 MiB of `[0,0,…]` would otherwise be 16 million values in
    /// wasm memory, which never shrinks.
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] (`message values`) past the bound; the
    /// parser's or the kept message's complaint as [`Error::Protocol`].
    pub fn parse(&self) -> Result<Value, Error> {
        let gone = |why: &str| Error::protocol(crate::error::cold_format!("the result: {why}"));
        self.read_with(|text| crate::protocol::json::parse_message(text).map_err(|e| result_unread(&e)), gone)
    }

    /// The result read with `read`, from the kept message when there is one;
    /// `gone` words why a kept message could not be read.
    fn read_with<E>(&self, read: impl Fn(&str) -> Result<Value, E>, gone: impl Fn(&'static str) -> E) -> Result<Value, E> {
        let Some(kept) = &self.kept else { return read(&self.text) };
        let whole = kept.read().ok_or_else(|| gone("the response body can no longer be read"))?;
        let (_, result) =
            crate::protocol::jsonrpc::raw_result(&whole).ok_or_else(|| gone("the response is not the one its checks read"))?;
        read(result)
    }
}

/// Why a result the client reads for itself was not read: past the bound on
/// values ([`crate::protocol::json::parse_message`]), or not JSON the reader accepts.
#[inline]
pub fn result_unread(error: &crate::protocol::json::JsonError) -> Error {
    Error::unread("the result", error)
}

#[derive(Default)]
struct State {
    next_id: i64,
    pending: IdMap<RequestId, oneshot::Sender<Result<Value, Error>>>,
    /// The text of large results, by request, until the request takes it.
    raw: IdMap<RequestId, LargeResult>,
    progress: IdMap<RequestId, ProgressRoute>,
    /// Server requests being handled, each with its number among those
    /// handled and the sender that cancels it.
    inbound: IdMap<RequestId, (u64, oneshot::Sender<String>)>,
    /// Server requests handled so far: an id the server withdrew and used
    /// again belongs to the new request, which the old one's end must not take.
    handled: u64,
    /// Handlers of server requests still running, withdrawn ones included:
    /// what `maxServerRequests` bounds. A handler that goes on after the
    /// server withdrew its request (one that ignores its signal) still holds
    /// a dialog or a model call open.
    running: usize,
    closed: bool,
    /// Who waits for the session to close ([`Session::closed`]).
    close_waiters: Vec<oneshot::Sender<()>>,
    listener: Option<NotificationListener>,
    problems: Option<ProblemListener>,
    status: Option<StatusListener>,
    handler: Option<Rc<dyn ClientHandler>>,
    /// Server requests go unanswered: a 2026-07-28 server asks for input
    /// inside a result, and the client must not post answers.
    ignores_requests: bool,
    trace: Option<TraceListener>,
    /// Server requests handled at once at most (0: the default).
    max_server_requests: usize,
    /// Answers the client gives on its own (to `ping`, the refusals) still being sent.
    automatic_replies: usize,
    /// Those waiting for one of them to arrive, the newest taken first: each answers a
    /// request of its own, so the order does not matter, and a `Vec` is in the code already.
    queued_replies: Vec<Message>,
    /// Some were left unsent since the last time none waited (reported once).
    replies_dropped: bool,
}

impl State {
    fn max_server_requests(&self) -> usize {
        match self.max_server_requests {
            0 => DEFAULT_MAX_SERVER_REQUESTS,
            max => max,
        }
    }
}

impl Session {
    /// Builds a session over the transport that `make_transport` creates; the
    /// transport delivers what it receives to the sink it is given. Returns the
    /// transport too, for callers that need its concrete type.
    pub fn new<T: Transport + 'static>(
        runtime: Rc<dyn Runtime>,
        default_timeout_ms: u32,
        make_transport: impl FnOnce(InboundSink) -> Rc<T>,
    ) -> (Self, Rc<T>) {
        // The sink must exist before the transport, and the session after it,
        // so the sink reaches the session through a slot filled in last. What
        // does not depend on `T` is in functions of its own, compiled once.
        let (slot, sink) = Self::sink();
        let transport = make_transport(sink);
        (Self::over(runtime, default_timeout_ms, transport.clone(), &slot), transport)
    }

    fn sink() -> (Rc<RefCell<Weak<Inner>>>, InboundSink) {
        let slot: Rc<RefCell<Weak<Inner>>> = Rc::new(RefCell::new(Weak::new()));
        let to_session = slot.clone();
        let sink: InboundSink = Rc::new(move |inbound| {
            let inner = to_session.borrow().upgrade();
            if let Some(inner) = inner {
                inner.receive(inbound);
            }
        });
        (slot, sink)
    }

    fn over(runtime: Rc<dyn Runtime>, default_timeout_ms: u32, transport: Rc<dyn Transport>, slot: &RefCell<Weak<Inner>>) -> Self {
        let inner = Rc::new(Inner { runtime, transport, default_timeout_ms, state: RefCell::new(State::default()) });
        *slot.borrow_mut() = Rc::downgrade(&inner);
        Self { inner }
    }

    /// The transport this session sends through.
    pub fn transport(&self) -> &Rc<dyn Transport> {
        &self.inner.transport
    }

    /// The timeout of a request that sets none.
    pub fn default_timeout_ms(&self) -> u32 {
        self.inner.default_timeout_ms
    }

    /// A timer on the session's runtime.
    pub fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        self.inner.runtime.sleep(ms)
    }

    /// Sets the function that receives every server notification.
    pub fn set_notification_listener(&self, listener: Option<NotificationListener>) {
        self.inner.state.borrow_mut().listener = listener;
    }

    /// Sets what answers the server's requests (other than `ping`).
    pub fn set_handler(&self, handler: Option<Rc<dyn ClientHandler>>) {
        self.inner.state.borrow_mut().handler = handler;
    }

    /// Leaves the server's requests unanswered from now on, `ping` included,
    /// each reported as a problem: the 2026-07-28 revision has the server ask
    /// for input inside its results, and forbids the client to post answers.
    pub fn ignore_server_requests(&self) {
        self.inner.state.borrow_mut().ignores_requests = true;
    }

    /// Sets the function told of problems that belong to no request.
    pub fn set_problem_listener(&self, listener: Option<ProblemListener>) {
        self.inner.state.borrow_mut().problems = listener;
    }

    /// Sets the function told of what happens to the connection's streams.
    pub fn set_status_listener(&self, listener: Option<StatusListener>) {
        self.inner.state.borrow_mut().status = listener;
    }

    /// Sets the function that sees every message in and out.
    pub fn set_trace_listener(&self, listener: Option<TraceListener>) {
        self.inner.state.borrow_mut().trace = listener;
    }

    /// The runtime the session runs on.
    pub fn runtime(&self) -> &Rc<dyn Runtime> {
        &self.inner.runtime
    }

    /// Caps how many of the server's requests are handled at once; those
    /// beyond are answered with an error at once.
    pub fn set_max_server_requests(&self, max: usize) {
        self.inner.state.borrow_mut().max_server_requests = max;
    }

    /// The cap set with [`Session::set_max_server_requests`].
    pub fn max_server_requests(&self) -> usize {
        self.inner.state.borrow().max_server_requests()
    }

    /// Whether [`Session::close`] has been called.
    pub fn is_closed(&self) -> bool {
        self.inner.state.borrow().closed
    }

    /// Sends a request and waits for its result, read into a tree as the
    /// client reads the results it uses itself (the handshake, discovery, the
    /// listen stream): at most [`crate::protocol::json::MAX_VALUES`] values.
    /// [`Session::request_params`] hands a large result on as its text, to
    /// read whole.
    ///
    /// # Errors
    /// [`Error::Rpc`] if the server answers with an error; [`Error::Timeout`]
    /// or [`Error::Cancelled`] (both send `notifications/cancelled`, except for
    /// `initialize`, which the spec forbids cancelling); [`Error::Closed`] if
    /// the session closes first; [`Error::LimitExceeded`] for a result of more
    /// values; transport errors as the transport reports them.
    pub async fn request(&self, method: &str, params: Option<Value>, options: CallOptions) -> Result<Value, Error> {
        match self.request_params(method, params.map(Params::Parsed), options).await? {
            Answer::Parsed(value) => Ok(value),
            Answer::Text(large) => large.parse(),
        }
    }

    /// [`Session::request`], leaving a large result as the server's text
    /// when the transport kept it so, for a consumer that reads it faster
    /// than a tree could be built and written out again.
    ///
    /// # Errors
    /// As [`Session::request`].
    pub async fn request_keeping_text(&self, method: &str, params: Option<Value>, options: CallOptions) -> Result<Answer, Error> {
        self.request_params(method, params.map(Params::Parsed), options).await
    }

    /// [`Session::request_keeping_text`] with params that may be text
    /// ([`Params::Text`]), which go out as they are.
    ///
    /// # Errors
    /// As [`Session::request`].
    pub async fn request_params(&self, method: &str, params: Option<Params>, options: CallOptions) -> Result<Answer, Error> {
        let inner = &self.inner;
        let (id, response) = inner.register()?;
        let mut guard = PendingGuard {
            inner: Rc::downgrade(inner),
            id: id.clone(),
            cancel_reason: (method != methods::INITIALIZE).then(|| "the request was dropped".to_owned()),
        };
        let (params, ticks) = match options.on_progress {
            Some(listener) => inner.follow_progress(&id, params, listener),
            None => (params, futures::stream::pending().boxed_local()),
        };
        let mut ticks = ticks.fuse();
        let timeout_ms = options.timeout_ms.unwrap_or(inner.default_timeout_ms);
        let message = Message::Request { id, method: method.to_owned(), params };
        let (mut sending, mut response) = (Some(inner.send(message)), response);
        // The answer is watched while the transport still sends: `close()` settles it with
        // `Closed` at once, even in a step before the POST that it cannot abort (an OAuth
        // token request, say), and dropping the send then ends that step.
        let exchange = future::poll_fn(move |cx| {
            if let Some(Poll::Ready(sent)) = sending.as_mut().map(|send| send.as_mut().poll(cx)) {
                sent?;
                sending = None;
            }
            response.poll_unpin(cx).map(|answer| answer.unwrap_or(Err(Error::Closed)))
        });
        let mut exchange = Box::pin(exchange.fuse());
        let mut cancel = options.cancel.unwrap_or_else(|| future::pending().boxed_local()).fuse();
        let mut total = match options.max_total_timeout_ms {
            Some(ms) => inner.runtime.sleep(ms),
            None => future::pending().boxed_local(),
        }
        .fuse();
        let unbounded = options.unbounded;
        let arm = |ms| if unbounded { future::pending().boxed_local() } else { inner.runtime.sleep(ms) };
        let mut timer = arm(timeout_ms).fuse();
        // The time a person spent signing in while the timer ran is given back, up to the limit.
        let mut consent = ConsentAllowance::new(inner.transport.user_wait_ms());
        let (error, reason) = loop {
            // In this order: an answer that came with the deadline wins, and
            // no random draw is made on every poll.
            futures::select_biased! {
                result = exchange => {
                    guard.cancel_reason = None;
                    let raw = inner.state.borrow_mut().raw.remove(&guard.id);
                    return result.map(|value| match raw {
                        Some(large) => Answer::Text(large),
                        None => Answer::Parsed(value),
                    });
                }
                () = timer => {
                    if let Some(ms) = consent.give_back(inner.transport.user_wait_ms()) {
                        timer = arm(ms).fuse();
                        continue;
                    }
                    break (Error::Timeout { ms: timeout_ms }, milliseconds_text("timed out after ", timeout_ms));
                }
                () = total => {
                    let ms = options.max_total_timeout_ms.unwrap_or(timeout_ms);
                    break (Error::Timeout { ms }, milliseconds_text("exceeded the maximum total timeout of ", ms));
                }
                reason = cancel => break (Error::Cancelled { reason: reason.clone() }, reason),
                _ = ticks.next() => {
                    if options.reset_timeout_on_progress {
                        timer = arm(timeout_ms).fuse();
                        consent.rearmed(inner.transport.user_wait_ms());
                    }
                }
            }
        };
        guard.set_reason(reason);
        Err(error)
    }

    /// Sends a notification, waiting for the transport to take it (a
    /// Streamable HTTP POST answered 202) at most the session's default
    /// timeout: a server that holds the POST must not hold the caller, nor
    /// the handshake that sends `notifications/initialized`.
    ///
    /// # Errors
    /// [`Error::Closed`] after [`Session::close`]; [`Error::Timeout`] when
    /// the transport takes longer; transport errors otherwise.
    pub async fn notify(&self, method: &str, params: Option<Value>) -> Result<(), Error> {
        self.notify_params(method, params.map(Params::Parsed)).await
    }

    /// [`Session::notify`] with params that may be text.
    ///
    /// # Errors
    /// As [`Session::notify`].
    pub async fn notify_params(&self, method: &str, params: Option<Params>) -> Result<(), Error> {
        self.notify_until(method, params, None).await
    }

    /// [`Session::notify_params`] that also stops waiting when `cancel`
    /// completes (the caller gave up), with [`Error::Cancelled`].
    ///
    /// # Errors
    /// As [`Session::notify`], and [`Error::Cancelled`].
    pub async fn notify_until(
        &self,
        method: &str,
        params: Option<Params>,
        cancel: Option<LocalBoxFuture<'static, String>>,
    ) -> Result<(), Error> {
        if self.is_closed() {
            return Err(Error::Closed);
        }
        let message = Message::Notification { method: method.to_owned(), params };
        let mut sending = self.inner.send(message);
        let mut stop = self.stop_after(self.default_timeout_ms(), cancel, ConsentTime::GivenBack);
        // Dropping the send, once stopped, aborts its POST, or the sign-in it waits on.
        future::poll_fn(|cx| match sending.as_mut().poll(cx) {
            Poll::Ready(sent) => Poll::Ready(sent),
            Poll::Pending => stop.as_mut().poll(cx).map(Err),
        })
        .await
    }

    /// Completes after `ms` with [`Error::Timeout`], when `cancel` does
    /// with [`Error::Cancelled`], or when the session closes with
    /// [`Error::Closed`]: the end of a wait the caller bounds, which `close()`
    /// ends at once, even one on a consent page past its deadline.
    /// `consent` says whether the time the transport spent waiting on a
    /// person meanwhile (an OAuth consent page) is given back, as a
    /// request's timeout gives it back, or counts, as it does against
    /// `maxTotalTimeout`.
    pub fn stop_after(
        &self,
        ms: u32,
        mut cancel: Option<LocalBoxFuture<'static, String>>,
        consent: ConsentTime,
    ) -> LocalBoxFuture<'static, Error> {
        let mut consent = (consent == ConsentTime::GivenBack).then(|| ConsentAllowance::new(self.inner.transport.user_wait_ms()));
        // Weak: a wait kept past the session's life (a handler's copy) must not keep it alive.
        let session = Rc::downgrade(&self.inner);
        let mut sleep = self.sleep(ms);
        let mut closed = Box::pin(self.closed());
        Box::pin(future::poll_fn(move |cx| {
            if let Some(Poll::Ready(reason)) = cancel.as_mut().map(|cancel| cancel.as_mut().poll(cx)) {
                return Poll::Ready(Error::Cancelled { reason });
            }
            if closed.poll_unpin(cx).is_ready() {
                return Poll::Ready(Error::Closed);
            }
            while sleep.as_mut().poll(cx).is_ready() {
                match consent.as_mut().and_then(|consent| consent_given_back(&session, consent)) {
                    Some(more) => sleep = more,
                    None => return Poll::Ready(Error::Timeout { ms }),
                }
            }
            Poll::Pending
        }))
    }

    /// Resolves when the session closes, at once if it has: what waits
    /// between requests (a task's poll) wakes then, and its next request
    /// fails with [`Error::Closed`]. Waiters that were dropped are let go
    /// whenever another one comes, so a long task does not pile them up.
    pub fn closed(&self) -> impl std::future::Future<Output = ()> {
        let waiting = {
            let mut state = self.inner.state.borrow_mut();
            if state.closed {
                None
            } else {
                state.close_waiters.retain(|waiter| !waiter.is_canceled());
                let (tx, rx) = oneshot::channel();
                state.close_waiters.push(tx);
                Some(rx)
            }
        };
        async move {
            if let Some(rx) = waiting {
                let _ = rx.await;
            }
        }
    }

    /// Fails every pending request with [`Error::Closed`] and closes the
    /// transport. Idempotent: later calls return at once.
    pub async fn close(&self) {
        if let Some(goodbye) = self.begin_close() {
            goodbye.await;
        }
    }

    /// [`Session::close`] without waiting for the transport's goodbye, which
    /// runs on the session's runtime: a failed handshake is reported at once,
    /// however long the server holds an HTTP `DELETE`.
    pub fn close_in_background(&self) {
        if let Some(goodbye) = self.begin_close() {
            // The transport stays until its goodbye is done: the caller is about to let the
            // session go, and a web transport dropped first hangs up without one.
            let transport = self.inner.transport.clone();
            self.inner.runtime.spawn(Box::pin(async move {
                goodbye.await;
                drop(transport);
            }));
        }
    }

    /// [`Session::close`], whose requests fail before it returns: what is
    /// left is the transport's close (an HTTP `DELETE`, say), to await.
    /// `None` when the session was closed already.
    pub fn begin_close(&self) -> Option<LocalBoxFuture<'static, ()>> {
        let pending = {
            let mut state = self.inner.state.borrow_mut();
            if state.closed {
                return None;
            }
            state.closed = true;
            state.listener = None;
            state.problems = None;
            state.status = None;
            state.handler = None;
            state.progress.clear();
            for (_, (_, cancel)) in state.inbound.drain() {
                let _ = cancel.send("the client closed".to_owned());
            }
            for waiter in state.close_waiters.drain(..) {
                let _ = waiter.send(());
            }
            std::mem::take(&mut state.pending)
        };
        for waiter in pending.into_values() {
            let _ = waiter.send(Err(Error::Closed));
        }
        Some(self.inner.transport.close())
    }

    /// The id the next request will take. A caller that starts that request
    /// at once, with no await between, learns its id: the notifications a
    /// long-lived request's stream carries name it (2026-07-28's
    /// `subscriptionId`).
    pub fn next_request_id(&self) -> i64 {
        self.inner.state.borrow().next_id.saturating_add(1)
    }

    /// Numbers this session's requests from `last + 1` on. A session taken
    /// over from a snapshot carries on one whose ids other clients used
    /// (the one that took the snapshot, or another resumption of it), and
    /// an id may not be used twice in a session: a server still running an
    /// old request would answer the new one with its result.
    pub fn number_requests_after(&self, last: i64) {
        self.inner.state.borrow_mut().next_id = last;
    }
}

impl Inner {
    fn register(&self) -> Result<(RequestId, oneshot::Receiver<Result<Value, Error>>), Error> {
        let mut state = self.state.borrow_mut();
        if state.closed {
            return Err(Error::Closed);
        }
        state.next_id += 1;
        let id = RequestId::Number(state.next_id);
        let (tx, rx) = oneshot::channel();
        state.pending.insert(id.clone(), tx);
        Ok((id, rx))
    }

    fn settle(&self, id: &RequestId, outcome: Result<Value, Error>) {
        // Take the waiter out before waking it, so no borrow is held meanwhile. A request that
        // has its answer has no operation in progress, even before its caller wakes up to drop
        // its progress route: progress that follows the answer is not its own.
        let waiter = {
            let mut state = self.state.borrow_mut();
            state.progress.remove(id);
            state.pending.remove(id)
        };
        if let Some(waiter) = waiter {
            let _ = waiter.send(outcome);
            self.transport.request_ended(id);
        }
        // No waiter: a late answer to a cancelled or timed-out request, which
        // the spec says to ignore.
    }

    /// Hands `message` to the transport, showing it to the trace first.
    fn send(&self, message: Message) -> LocalBoxFuture<'static, Result<(), Error>> {
        self.trace(TraceDirection::Out, &message);
        self.transport.send(message)
    }

    fn trace(&self, direction: TraceDirection, message: &Message) {
        let trace = self.state.borrow().trace.clone();
        if let Some(trace) = trace {
            trace(direction, message);
        }
    }

    fn receive(self: Rc<Self>, inbound: Inbound) {
        if let Inbound::Message(message) = &inbound {
            self.trace(TraceDirection::In, message);
        }
        match inbound {
            Inbound::Message(Message::Response { id: Some(id), outcome }) => {
                self.settle(&id, outcome.map_err(Error::Rpc));
            }
            // An error the server could not tie to a request says nothing we can act on.
            Inbound::Message(Message::Response { id: None, .. }) => {}
            Inbound::Message(Message::Notification { method, params }) => {
                let params = params.map(Params::into_value);
                match method.as_str() {
                    methods::PROGRESS => self.route_progress(params.as_ref()),
                    methods::CANCELLED => self.cancel_inbound(params.as_ref()),
                    _ => {}
                }
                let listener = self.state.borrow().listener.clone();
                if let Some(listener) = listener {
                    listener(&method, params.as_ref());
                }
            }
            Inbound::Message(Message::Request { id, method, params }) => self.answer(id, &method, params.map(Params::into_value)),
            Inbound::RequestFailed { id, error } => self.settle(&id, Err(error)),
            Inbound::RawResponse { id, text, kept } => {
                let large = LargeResult { text, kept };
                let trace = self.state.borrow().trace.clone();
                if let Some(trace) = trace {
                    trace_large(&trace, &id, &large);
                }
                let pending = {
                    let mut state = self.state.borrow_mut();
                    let pending = state.pending.contains_key(&id);
                    if pending {
                        state.raw.insert(id.clone(), large);
                    }
                    pending
                };
                if pending {
                    self.settle(&id, Ok(Value::Null));
                }
            }
            Inbound::ConnectionLost(error) => {
                let pending = std::mem::take(&mut self.state.borrow_mut().pending);
                for waiter in pending.into_values() {
                    let _ = waiter.send(Err(error.clone()));
                }
            }
            Inbound::Oversized { envelope, bytes, limit } => self.oversized(&envelope, bytes, limit),
            Inbound::TooManyValues(envelope) => self.too_many_values(&envelope),
            Inbound::Status(status) => {
                let listener = self.state.borrow().status.clone();
                if let Some(listener) = listener {
                    listener(status);
                }
            }
        }
    }

    /// A message too large to read: fail the request it answers, refuse the
    /// request it is, or report it.
    // Not inlined into `receive`: the core's split (scripts/split/) leaves a function that a
    // first call never enters out of the module a page loads first.
    #[inline(never)]
    fn oversized(self: Rc<Self>, envelope: &Envelope, bytes: usize, limit: usize) {
        self.unread(envelope, "maxMessageBytes", crate::error::cold_format!("is {bytes} bytes, more than the {limit} the client reads"));
    }

    /// A message of more values than the client reads: as [`Inner::oversized`].
    #[inline(never)]
    fn too_many_values(self: Rc<Self>, envelope: &Envelope) {
        let why = crate::error::cold_format!("holds {}, past what the client reads", crate::protocol::json::TOO_MANY_VALUES);
        self.unread(envelope, "message values", why);
    }

    /// A message left unread because it `is` past `limit`: fails the request
    /// it answers, refuses the request it is, or reports it.
    fn unread(self: Rc<Self>, envelope: &Envelope, limit: &'static str, is: String) {
        let error = |what: &str| Error::LimitExceeded { limit, message: crate::error::cold_format!("{what} {is}") };
        if let Some(id) = envelope.response_id() {
            return self.settle(id, Err(error("the server's answer")));
        }
        if let Some(id) = envelope.request_id() {
            let refusal = ErrorObject::new(codes::INVALID_REQUEST, crate::error::cold_format!("the request {is}"));
            self.reply_automatically(Message::Response { id: Some(id.clone()), outcome: Err(refusal) });
            return self.report(error("a request from the server"));
        }
        self.report(error("a message from the server"));
    }

    fn report(&self, problem: Error) {
        let listener = self.state.borrow().problems.clone();
        if let Some(listener) = listener {
            listener(problem);
        }
    }

    /// The params of request `id` with a progress token, and the ticks of its progress,
    /// whose notifications go to `listener`.
    // Not inlined into `request_params`: a first call asks for no progress, and the core's
    // split (scripts/split/) leaves a function it never enters out of the module a page
    // loads first.
    #[inline(never)]
    fn follow_progress(
        &self,
        id: &RequestId,
        params: Option<Params>,
        listener: ProgressListener,
    ) -> (Option<Params>, LocalBoxStream<'static, ()>) {
        let (tick, ticks) = mpsc::unbounded();
        self.state.borrow_mut().progress.insert(id.clone(), ProgressRoute { listener, tick });
        (Some(with_progress_token(params, id)), ticks.boxed_local())
    }

    // Not inlined into `receive`, as `cancel_inbound` is not: a first call asks for no progress.
    #[inline(never)]
    fn route_progress(&self, params: Option<&Value>) {
        let Some(params) = params else { return };
        let Some(token) = params.get("progressToken").and_then(RequestId::from_token) else { return };
        // Without a number `progress` it says nothing of progress, and must not reset a timeout.
        if !params.get("progress").is_some_and(Value::is_number) {
            return;
        }
        let route = self.state.borrow().progress.get(&token).map(|r| (r.listener.clone(), r.tick.clone()));
        if let Some((listener, tick)) = route {
            let _ = tick.unbounded_send(());
            listener(params);
        }
    }

    // Not inlined into `receive`: the core's split (scripts/split/) leaves a function that a
    // first call never enters out of the module a page loads first.
    #[inline(never)]
    fn cancel_inbound(&self, params: Option<&Value>) {
        let Some(id) = params.and_then(|p| p.get("requestId")).and_then(RequestId::from_token) else { return };
        let reason = params.and_then(|p| p.get("reason")).and_then(Value::as_str).unwrap_or("cancelled by the server");
        if let Some((_, cancel)) = self.state.borrow_mut().inbound.remove(&id) {
            let _ = cancel.send(reason.to_owned());
        }
    }

    // Not inlined into `receive`: the core's split (scripts/split/) leaves a function that a
    // first call never enters out of the module a page loads first.
    #[inline(never)]
    fn answer(self: Rc<Self>, id: RequestId, method: &str, params: Option<Value>) {
        if self.state.borrow().ignores_requests {
            let why = "a 2026-07-28 server asks for input inside its results, and the client posts no answers";
            return self.report(Error::Protocol(crate::error::cold_format!("ignored the server's {method} request: {why}")));
        }
        if method == methods::PING {
            return self.reply_automatically(Message::Response { id: Some(id), outcome: Ok(Value::Object(Map::new())) });
        }
        if self.state.borrow().inbound.contains_key(&id) {
            // The first request keeps the id: a second handler under it would take over its
            // cancellation, and either one's end would withdraw the other.
            let why = crate::error::cold_format!("the id {id} is already in use by a request the client is handling");
            self.report(Error::Protocol(crate::error::cold_format!("refused {method}: {why}")));
            let error = ErrorObject::new(codes::INVALID_REQUEST, why);
            return self.reply_automatically(Message::Response { id: Some(id), outcome: Err(error) });
        }
        let (cancel, cancelled) = oneshot::channel::<String>();
        let cancelled = cancelled.map(|r| r.unwrap_or_else(|_| "the client closed".to_owned())).shared();
        let ctx = InboundContext { id: id.clone(), cancelled: cancelled.clone().boxed_local() };
        let (busy, max) = {
            let state = self.state.borrow();
            (state.running, state.max_server_requests())
        };
        if busy >= max {
            // A flood of sampling or elicitation requests must not pile up
            // dialogs or model calls: refuse at once, and say so locally.
            let why = crate::error::cold_format!("the client is already handling {busy} requests from this server, its limit");
            self.report(Error::LimitExceeded {
                limit: "maxServerRequests",
                message: crate::error::cold_format!("refused {method}: {why}"),
            });
            let error = ErrorObject::new(codes::INTERNAL_ERROR, why);
            return self.reply_automatically(Message::Response { id: Some(id), outcome: Err(error) });
        }
        let handler = self.state.borrow().handler.clone();
        let Some(work) = handler.and_then(|h| h.handle(method, params, ctx)) else {
            let error = ErrorObject::new(codes::METHOD_NOT_FOUND, crate::error::cold_format!("Method not found: {method}"));
            return self.reply_automatically(Message::Response { id: Some(id), outcome: Err(error) });
        };
        let number = {
            let mut state = self.state.borrow_mut();
            state.handled += 1;
            let number = state.handled;
            state.inbound.insert(id.clone(), (number, cancel));
            state.running += 1;
            number
        };
        let inner = Rc::downgrade(&self);
        // Each server request runs on its own, so a slow human answering an
        // elicitation holds up nothing else.
        self.runtime.spawn(Box::pin(async move {
            let outcome = match future::select(work, cancelled).await {
                future::Either::Left((outcome, _)) => Some(outcome),
                // The server withdrew the request: it expects no answer, but the handler
                // holds its slot until it ends.
                future::Either::Right((_, work)) => {
                    let _ = work.await;
                    None
                }
            };
            let Some(inner) = inner.upgrade() else { return };
            let still_open = {
                let mut state = inner.state.borrow_mut();
                state.running = state.running.saturating_sub(1);
                let own = state.inbound.get(&id).is_some_and(|(handling, _)| *handling == number);
                own && state.inbound.remove(&id).is_some()
            };
            if let (Some(outcome), true) = (outcome, still_open) {
                inner.send_in_background(Message::Response { id: Some(id), outcome });
            }
        }));
    }

    /// Sends an answer the client gives without a handler (to `ping`, a refusal): at most
    /// [`MAX_AUTOMATIC_REPLIES`] on their way at once, the next ones queued until one
    /// arrives, and past [`MAX_QUEUED_REPLIES`] waiting, left unsent and reported once. A
    /// server that sends requests faster than it takes their answers (800,000 pings in one
    /// batch) would otherwise have as many fetches started at once.
    fn reply_automatically(self: &Rc<Self>, message: Message) {
        let mut state = self.state.borrow_mut();
        if state.closed {
            return;
        }
        if state.automatic_replies < MAX_AUTOMATIC_REPLIES {
            state.automatic_replies += 1;
            drop(state);
            return self.send_automatic(message);
        }
        if state.queued_replies.len() < MAX_QUEUED_REPLIES {
            return state.queued_replies.push(message);
        }
        let first = !std::mem::replace(&mut state.replies_dropped, true);
        drop(state);
        if first {
            self.report(Error::LimitExceeded {
                limit: "automatic replies",
                message: crate::error::cold_format!(
                    "the server sent requests faster than it took their answers: past {MAX_QUEUED_REPLIES} waiting, some are left unanswered"
                ),
            });
        }
    }

    /// Sends one automatic answer, then the next one queued, if any.
    fn send_automatic(self: &Rc<Self>, message: Message) {
        let (send, inner) = (self.send_unawaited(message), Rc::downgrade(self));
        self.runtime.spawn(Box::pin(async move {
            let _ = send.await;
            let Some(inner) = inner.upgrade() else { return };
            let next = {
                let mut state = inner.state.borrow_mut();
                let next = state.queued_replies.pop().filter(|_| !state.closed);
                if next.is_none() {
                    state.automatic_replies = state.automatic_replies.saturating_sub(1);
                    state.replies_dropped &= state.automatic_replies > 0;
                }
                next
            };
            if let Some(next) = next {
                inner.send_automatic(next);
            }
        }));
    }

    fn send_in_background(&self, message: Message) {
        if self.state.borrow().closed {
            return;
        }
        let send = self.send_unawaited(message);
        // Nobody awaits these sends; a failure surfaces on the next request.
        self.runtime.spawn(Box::pin(async move {
            let _ = send.await;
        }));
    }

    /// [`Inner::send`] for a message nobody awaits (an answer, a cancellation), given
    /// up after the default timeout: dropping it aborts its POST. A server that never
    /// answers those POSTs would otherwise hold each one until the client closes, and
    /// six of them are every connection a browser gives an origin over HTTP/1.1.
    fn send_unawaited(&self, message: Message) -> super::runtime::Within<LocalBoxFuture<'static, Result<(), Error>>> {
        super::runtime::within(self.send(message), self.runtime.sleep(self.default_timeout_ms))
    }
}

/// `params` with `_meta.progressToken` set to the request id.
fn with_progress_token(params: Option<Params>, id: &RequestId) -> Params {
    let mut members = Map::new();
    members.insert("progressToken".into(), id.to_value());
    params.unwrap_or_else(|| Params::Parsed(Value::Object(Map::new()))).with_meta(members)
}

/// Removes a request from the pending map however its future ends, and tells
/// the server when the client gave up on it.
struct PendingGuard {
    inner: Weak<Inner>,
    id: RequestId,
    /// `Some` while giving up should send `notifications/cancelled`.
    cancel_reason: Option<String>,
}

impl PendingGuard {
    fn set_reason(&mut self, reason: String) {
        if self.cancel_reason.is_some() {
            self.cancel_reason = Some(reason);
        }
    }
}

impl Drop for PendingGuard {
    fn drop(&mut self) {
        let Some(inner) = self.inner.upgrade() else { return };
        let still_pending = {
            let mut state = inner.state.borrow_mut();
            state.progress.remove(&self.id);
            state.raw.remove(&self.id);
            state.pending.remove(&self.id).is_some()
        };
        if still_pending {
            inner.transport.request_ended(&self.id);
        }
        if let (true, Some(reason)) = (still_pending, self.cancel_reason.take()) {
            // Transports where closing the request's stream is the cancellation
            // (the 2026-07-28 revision over HTTP) handle it themselves.
            if inner.transport.cancel_request(&self.id) {
                return;
            }
            let mut params = Map::new();
            params.insert("requestId".into(), self.id.to_value());
            params.insert("reason".into(), Value::from(reason));
            let params = Value::Object(params);
            inner.send_in_background(Message::Notification { method: methods::CANCELLED.to_owned(), params: Some(params.into()) });
        }
    }
}

/// Shows `trace` a result that came as text, parsed for it alone: the trace sees messages.
// Apart from `Inner::receive`: a page that traces nothing never runs it.
#[inline(never)]
fn trace_large(trace: &TraceListener, id: &RequestId, large: &LargeResult) {
    let result = large.parse().unwrap_or(Value::Null);
    trace(TraceDirection::In, &Message::Response { id: Some(id.clone()), outcome: Ok(result) });
}

/// `what` and a number of milliseconds: the reason a request timed out, written without
/// core's formatting (a first call may time out; see `error::message`).
fn milliseconds_text(what: &str, ms: u32) -> String {
    let mut text = what.to_owned();
    crate::protocol::json_write::write_u64(&mut text, u64::from(ms));
    text.push_str(" ms");
    text
}

/// At a [`Session::stop_after`] deadline: a timer for the time a person took
/// meanwhile, or `None` when the wait is over. Cold and out of line: a
/// first call never reaches a deadline.
#[cold]
#[inline(never)]
fn consent_given_back(session: &Weak<Inner>, consent: &mut ConsentAllowance) -> Option<LocalBoxFuture<'static, ()>> {
    let inner = session.upgrade()?;
    let more = consent.give_back(inner.transport.user_wait_ms())?;
    Some(inner.runtime.sleep(more))
}

#[cfg(test)]
mod tests;
