//! Following a server-sent stream across drops.
//!
//! A POST's response stream that ends before the response resumes with GET
//! and `Last-Event-ID`, after the server's `retry` (the 2025-11-25 polling
//! rules: a priming event gives the id, the server may close at any time).
//! The standalone GET stream reconnects the same way for as long as the
//! client is open. Events repeated by a replay or a proxy are delivered once.

use super::readable;
use super::{InFlight, Inner};
use crate::error::Error;
use crate::protocol::jsonrpc::elide::KEEP_MIN_BYTES;
use crate::protocol::jsonrpc::RequestId;
use crate::session::backoff;
use crate::session::{ConnectionStatus, Inbound, KeptMessage, Runtime};
use crate::transport::fetch::{header, BodyReader, Follow, HttpRequest};
use crate::transport::http::{classify, status_error_with, ResponseBody};
use crate::transport::kept::KeptBody;
use crate::transport::recent_ids::RecentIds;
use crate::transport::sse::{KeptEvent, KeptPiece, Oversize, SseEvent, SseParser};
use crate::transport::web_runtime::WebRuntime;
use futures::future;
use js_sys::Uint8Array;
use std::cell::RefCell;
use std::rc::Rc;

/// How many times in a row a response stream is resumed without progress
/// before its request fails.
const MAX_RESUME_ATTEMPTS: u32 = 5;
/// How many event ids are remembered to drop duplicates.
const RECENT_IDS: usize = 256;

/// How a reconnection of a stream ended.
enum Reopened {
    /// The stream is open again.
    Connection((BodyReader, InFlight)),
    /// It failed, and counts as an attempt.
    Failed(Error),
    /// The stream is done: the client closed, the session was reset or ended, or the
    /// server has no GET stream.
    Done,
}

/// What a stream is for.
pub(crate) enum Purpose {
    /// It carries the response to this request (and what precedes it).
    Response(RequestId),
    /// The standalone GET stream.
    Listen,
}

/// What survives from one connection of a stream to the next.
struct Resumption {
    last_event_id: Option<String>,
    retry_ms: Option<u32>,
    recent: RecentIds,
}

impl Default for Resumption {
    fn default() -> Self {
        Self { last_event_id: None, retry_ms: None, recent: RecentIds::new(RECENT_IDS) }
    }
}

/// One connection being read: what its chunks change, shared with the
/// callback the chunks arrive in.
struct Pumping {
    /// The in-flight key of the connection read.
    key: u64,
    parser: SseParser,
    events: Vec<SseEvent>,
    drained: Drained,
    state: Resumption,
    kept: KeptEvents,
}

/// The data of events the parser left in JS ([`SseParser::keep_data_over`]):
/// the one it is in the middle of, and the ones it has dispatched.
#[derive(Default)]
struct KeptEvents {
    /// The pieces of the event being read, and their length.
    pending: Option<(js_sys::Array, usize)>,
    /// Dispatched events' pieces, in order (a few at most: a chunk's worth).
    done: Vec<(js_sys::Array, usize)>,
}

impl KeptEvents {
    /// Takes the pieces the parser named for the chunk `window` it was just given.
    fn take(&mut self, parser: &mut SseParser, window: &Uint8Array) {
        for piece in parser.take_kept() {
            let (pieces, length) = self.pending.get_or_insert_with(|| (js_sys::Array::new(), 0));
            let bytes = match piece {
                KeptPiece::Held(bytes) => Uint8Array::from(bytes.as_slice()),
                KeptPiece::InChunk(start, end) => window.subarray(start as u32, end as u32),
                KeptPiece::Dispatched => {
                    self.done.extend(self.pending.take());
                    continue;
                }
            };
            *length += bytes.length() as usize;
            pieces.push(&bytes);
        }
    }
}

/// How one connection ended.
#[derive(Default)]
struct Drained {
    answered: bool,
    received: bool,
    problem: Option<Error>,
}

/// A response that could not be resumed because its session ended.
fn lost_with_session() -> Error {
    Error::Network { message: "the session ended before the response stream could be resumed; the request may have run".into() }
}

impl Inner {
    fn status(&self, status: ConnectionStatus) {
        (self.sink)(Inbound::Status(status));
    }

    /// Reads `first` (or, for the GET stream, opens one), then reconnects
    /// until the response arrives, the stream becomes unresumable, or the
    /// client closes.
    pub(crate) async fn follow(self: Rc<Self>, first: Option<(BodyReader, InFlight)>, purpose: Purpose) {
        let mut connection = first;
        let generation = self.generation.get();
        // The GET stream of an adopted session goes on where the snapshot left it.
        let resume_from = if connection.is_none() { self.listen_event_id.borrow().clone() } else { None };
        let mut state = Resumption { last_event_id: resume_from, ..Resumption::default() };
        let mut problem = None;
        if connection.is_none() {
            // The GET stream's first connection: a 405 means the server has
            // none; any other failure is retried like a drop.
            match self.open_get(state.last_event_id.as_deref()).await {
                Ok(Some(opened)) => connection = Some(opened),
                Ok(None) => return,
                Err(Error::SessionExpired { .. }) => return self.expired_while_listening(generation),
                Err(error) => problem = Some(error),
            }
        }
        let mut attempt = 0;
        loop {
            if let Some((reader, in_flight)) = connection.take() {
                match &purpose {
                    Purpose::Listen => self.listen_key.set(Some(in_flight.key)),
                    // Known by its request, so that the request's end hangs up on it
                    // (`StreamableHttp::request_ended`).
                    Purpose::Response(id) => self.stream_of(id, in_flight.key),
                }
                let drained = self.drain(reader, in_flight.key, &purpose, &mut state).await;
                // The stream was read to its end, cancelled or broken: no
                // fetch is left to abort, and an abort costs a DOMException.
                in_flight.controller.finished();
                drop(in_flight);
                if drained.answered {
                    return;
                }
                // A request the session no longer waits for (its end hung up on this stream) is
                // resumed no further.
                if let Purpose::Response(id) = &purpose {
                    if !self.is_modern() && !self.is_open(id) {
                        return;
                    }
                }
                // A stream that delivered is not a failure, nor a request's stream that the server
                // ended cleanly: the 2025-11-25 polling rules let a server close it whenever it
                // likes, and the request's own timeout bounds how long the client follows it. (The
                // GET stream, which no timeout bounds, keeps backing off while it brings nothing.)
                let polled = matches!(purpose, Purpose::Response(_)) && drained.problem.is_none();
                if drained.received || polled {
                    attempt = 0;
                }
                problem = drained.problem.or(problem);
            }
            // A reset session has its own GET stream; this one is done.
            if self.closed.get() || (matches!(purpose, Purpose::Listen) && self.generation.get() != generation) {
                return;
            }
            if let Purpose::Response(id) = &purpose {
                // 2026-07-28 has no resumption: a broken stream loses the
                // request, which the client re-issues under a new id. A
                // message over the size limit would only come again.
                let oversized = matches!(problem, Some(Error::LimitExceeded { .. }));
                if self.is_modern() || state.last_event_id.is_none() || attempt >= MAX_RESUME_ATTEMPTS || oversized {
                    let error =
                        problem.take().unwrap_or_else(|| Error::protocol("the event stream ended before the response arrived".into()));
                    (self.sink)(Inbound::RequestFailed { id: id.clone(), error });
                    return;
                }
            }
            let delay = backoff::DEFAULT.delay(attempt, state.retry_ms, js_sys::Math::random());
            attempt += 1;
            if let Purpose::Listen = purpose {
                self.status(ConnectionStatus::Reconnecting { attempt, delay_ms: delay });
            }
            match self.reconnect(delay, generation, &purpose, state.last_event_id.as_deref()).await {
                Reopened::Connection(opened) => connection = Some(opened),
                // A refused or failed reconnection counts as an attempt; try again later.
                Reopened::Failed(error) => problem = Some(error),
                Reopened::Done => return,
            }
        }
    }

    /// The GET stream of session `generation` found it gone. Only news when
    /// that is still the session: a request may have renewed it while the
    /// stream waited for its answer, and the old session's 404 must not end
    /// the new one.
    fn expired_while_listening(&self, generation: u64) {
        if self.generation.get() == generation {
            self.status(ConnectionStatus::SessionExpired);
        }
    }

    /// Whether the session still waits for legacy request `id`.
    pub(super) fn is_open(&self, id: &RequestId) -> bool {
        self.open_requests.borrow().iter().any(|(open, _)| open == id)
    }

    /// Notes connection `key` as the event stream of legacy request `id`, if still open.
    fn stream_of(&self, id: &RequestId, key: u64) {
        if let Some((_, stream)) = self.open_requests.borrow_mut().iter_mut().find(|(open, _)| open == id) {
            *stream = Some(key);
        }
    }

    /// Waits out `delay`, then opens the GET stream again after `last_event_id`.
    ///
    /// A future of its own, not awaited inline: a stream that is never dropped never polls
    /// it, and the core's split (scripts/split/) leaves it out of the module a page loads first.
    #[inline(never)]
    fn reconnect<'a>(
        self: &'a Rc<Self>,
        delay: u32,
        generation: u64,
        purpose: &'a Purpose,
        last_event_id: Option<&'a str>,
    ) -> future::LocalBoxFuture<'a, Reopened> {
        Box::pin(async move {
            // Closing or resetting the session wakes the wait: no timer
            // outlives the client, and a call does not wait out a delay for
            // a stream that can no longer be resumed.
            let _ = future::select(WebRuntime.sleep(delay), self.interruption()).await;
            if self.closed.get() {
                return Reopened::Done;
            }
            // A request the session no longer waits for (answered on another stream, timed out,
            // let go) is resumed no further: a server could otherwise keep its stream coming
            // back for ever, one event per connection.
            if let Purpose::Response(id) = purpose {
                if !self.is_open(id) {
                    return Reopened::Done;
                }
            }
            if self.generation.get() != generation {
                if let Purpose::Response(id) = purpose {
                    (self.sink)(Inbound::RequestFailed { id: id.clone(), error: lost_with_session() });
                }
                return Reopened::Done;
            }
            match self.open_get(last_event_id).await {
                Ok(Some(opened)) => {
                    if let Purpose::Listen = purpose {
                        self.status(ConnectionStatus::Reconnected);
                    }
                    Reopened::Connection(opened)
                }
                Ok(None) => {
                    if let Purpose::Response(id) = purpose {
                        let error = Error::protocol("the response stream broke and the server offers no GET stream to resume it".into());
                        (self.sink)(Inbound::RequestFailed { id: id.clone(), error });
                    }
                    Reopened::Done
                }
                Err(Error::SessionExpired { .. }) => {
                    match purpose {
                        // Unlike a refused POST, the server had this request:
                        // sending it again in a new session could run it twice.
                        Purpose::Response(id) => (self.sink)(Inbound::RequestFailed { id: id.clone(), error: lost_with_session() }),
                        Purpose::Listen => self.expired_while_listening(generation),
                    }
                    Reopened::Done
                }
                Err(error) => Reopened::Failed(error),
            }
        })
    }

    /// Reads one connection to its end, delivering each new message.
    async fn drain(self: &Rc<Self>, reader: BodyReader, key: u64, purpose: &Purpose, state: &mut Resumption) -> Drained {
        let awaited = match purpose {
            Purpose::Response(id) => Some(id.clone()),
            Purpose::Listen => None,
        };
        // A request's own stream can be dropped at the limit; the GET stream
        // carries everyone's messages and skips an oversized one instead.
        let oversize = if awaited.is_some() { Oversize::Fail } else { Oversize::Skip };
        // The modern era rewrites results, which data left in JS would not see.
        let keep_over = if self.is_modern() { 0 } else { KEEP_MIN_BYTES };
        let pumping = Rc::new(RefCell::new(Pumping {
            key,
            parser: SseParser::new(self.config.max_message_bytes, oversize).keep_data_over(keep_over),
            events: Vec::new(),
            drained: Drained::default(),
            state: std::mem::take(state),
            kept: KeptEvents::default(),
        }));
        let (inner, shared) = (Rc::clone(self), Rc::clone(&pumping));
        let pumped =
            reader.pump(keep_over, move |chunk, window| inner.take_chunk(chunk, window, awaited.as_ref(), &mut shared.borrow_mut())).await;
        let mut pumping = pumping.borrow_mut();
        *state = std::mem::take(&mut pumping.state);
        let mut drained = std::mem::take(&mut pumping.drained);
        if let Err(error) = pumped {
            drained.problem = Some(error);
        }
        drained
    }

    /// Parses one chunk of a stream and delivers the messages it completes;
    /// `false` once the stream should be left (the response arrived, or it
    /// went past the limit).
    fn take_chunk(&self, chunk: &[u8], window: &Uint8Array, awaited: Option<&RequestId>, pumping: &mut Pumping) -> bool {
        let Pumping { key, parser, events, drained, state, kept } = pumping;
        let limit = self.config.max_message_bytes;
        if let Err(error) = parser.push(chunk, events) {
            drained.problem = Some(Error::LimitExceeded { limit: "maxMessageBytes", message: error.to_string() });
            return false;
        }
        kept.take(parser, window);
        state.retry_ms = parser.retry_ms().or(state.retry_ms);
        // While this connection delivers, the end of its own request is not a reason to hang up on
        // it: it ends by itself once its answer is in.
        self.pumping.set(Some(*key));
        for event in events.drain(..) {
            // A kept event's pieces, taken in order whatever becomes of the event.
            let pieces = event.kept.as_ref().and_then(|_| (!kept.done.is_empty()).then(|| kept.done.remove(0)));
            if event.fresh_id {
                // The id to resume after is the last that a whole event named, not the parser's
                // (an event cut off after its id line never arrived, and must come again); an
                // empty or over-long one leaves the stream with none to resume after.
                state.last_event_id = event.id.clone();
                if awaited.is_none() {
                    *self.listen_event_id.borrow_mut() = event.id.clone();
                }
                // Only an event that names its own id can repeat one: two events with an empty
                // or over-long id are two events.
                if let Some(id) = event.id.as_deref() {
                    if !state.recent.first_time(id) {
                        continue;
                    }
                }
            }
            if let (Some(oversized), "message") = (event.oversized, event.event.as_str()) {
                drained.received = true;
                (self.sink)(Inbound::Oversized { envelope: oversized.envelope, bytes: oversized.bytes, limit });
                continue;
            }
            // Priming events carry an id and empty data; other event types are not MCP messages.
            if event.event != "message" || (event.data.is_empty() && event.kept.is_none()) {
                continue;
            }
            drained.received = true;
            let delivered = match (event.kept, pieces) {
                (Some(kept), Some((chunks, total))) if kept.elided > 0 || kept.whole => {
                    self.deliver_kept_event(event.data, &kept, chunks, total, awaited)
                }
                _ => self.deliver(event.data, awaited),
            };
            match delivered {
                Ok(got_it) => drained.answered |= got_it,
                Err(error) => drained.problem = Some(error),
            }
        }
        self.pumping.set(None);
        !drained.answered
    }

    /// An event whose data stayed in JS, in part or whole.
    // Apart from `take_chunk`: a first call's events are short, and the glue has the rest of the
    // core load before a long one reaches the core (`restGate` in src/glue.js).
    #[inline(never)]
    fn deliver_kept_event(
        &self,
        data: String,
        kept: &KeptEvent,
        chunks: js_sys::Array,
        total: usize,
        awaited: Option<&RequestId>,
    ) -> Result<bool, Error> {
        let body = Rc::new(KeptBody::event_data(chunks, total, kept.structured));
        if kept.whole {
            // Read in at its length, once the parser has let it go.
            let data = body.read().ok_or_else(|| Error::protocol("an event's data can no longer be read".into()))?;
            self.deliver(data, awaited)
        } else {
            self.deliver_kept(data, body, awaited)
        }
    }

    /// Opens a GET stream, resuming after `last_event_id` when given.
    /// `Ok(None)` when the server has no GET stream (405).
    ///
    /// The opening (its headers, or an error's body) takes at most the default timeout, and
    /// is then tried again like a drop: a stream may stay quiet for ever once open, but one
    /// the server never opens would hold a connection of the six a browser gives an origin.
    async fn open_get(self: &Rc<Self>, last_event_id: Option<&str>) -> Result<Option<(BodyReader, InFlight)>, Error> {
        let ms = self.config.open_timeout_ms;
        let opening = crate::session::within(Box::pin(self.open_get_unbounded(last_event_id)), WebRuntime.sleep(ms));
        opening.await.unwrap_or(Err(Error::Timeout { ms }))
    }

    async fn open_get_unbounded(self: &Rc<Self>, last_event_id: Option<&str>) -> Result<Option<(BodyReader, InFlight)>, Error> {
        if self.closed.get() {
            return Ok(None);
        }
        let in_flight = self.track()?;
        let headers = self.headers("GET", "text/event-stream", None).await?;
        if let Some(id) = last_event_id {
            let _ = headers.set("last-event-id", id);
        }
        let sent_session = self.session_id.borrow().is_some();
        let signal = in_flight.controller.signal();
        let follow = Follow::for_headers(&headers);
        let request = HttpRequest { method: "GET", url: &self.config.url, headers, body: None, signal: &signal, follow };
        let response = self.config.fetch.send(request).await?;
        if let Some(auth) = &self.config.auth {
            // A DPoP nonce the server asks for goes into the next attempt's proof.
            auth.needs_nonce(&self.config.url, &response);
        }
        let status = response.status();
        if status == 405 {
            return Ok(None);
        }
        if !(200..300).contains(&status) {
            let text = crate::transport::fetch::error_text(&response).await;
            return Err(status_error_with(status, &response.status_text(), &text, sent_session, readable(&response)));
        }
        if classify(status, header(&response, "content-type").as_deref(), true)? != ResponseBody::EventStream {
            return Err(Error::protocol(format!("the GET stream answered with {}", header(&response, "content-type").unwrap_or_default())));
        }
        Ok(Some((BodyReader::new(&response)?, in_flight)))
    }
}
