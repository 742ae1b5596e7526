use crate::error::Error;
use crate::protocol::jsonrpc::envelope::Envelope;
use crate::protocol::jsonrpc::{decode_or_raw, DecodeError, Decoded, ErrorObject, Message, RequestId};
use futures::future::LocalBoxFuture;
use serde_json::Value;
use std::rc::Rc;

/// What happens to a connection's streams, for the client to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionStatus {
    /// A stream dropped; the transport waits `delay_ms`, then reconnects.
    Reconnecting {
        /// Which attempt this is, from 1.
        attempt: u32,
        /// How long it waits first.
        delay_ms: u32,
    },
    /// The server-to-client stream is back after a drop.
    Reconnected,
    /// The server no longer knows the session (seen on a stream of its own).
    SessionExpired,
}

/// A large result's JSON text, shared by the session, the reply and JS. A
/// `String` rather than a `str`: the transport moves the body it read into
/// it, so a 5 MiB result does not take another 5 MiB of wasm memory.
pub type ResultText = Rc<String>;

/// A large message that the transport keeps outside the session (in JS),
/// having handed on a text without what its checks do not read
/// (`protocol::jsonrpc::elide`): the checks read that text, and whoever needs
/// the full value reads the message in.
pub trait KeptMessage: std::fmt::Debug {
    /// The whole message's text, copied in; `None` if it cannot be read.
    fn read(&self) -> Option<String>;
    /// The length in bytes of the result's `structuredContent`, when the
    /// text the checks read lacks it: for what checks it in its place.
    fn structured_bytes(&self) -> Option<usize>;
    /// The whole message's length in bytes.
    fn bytes(&self) -> usize;
    /// The concrete type, for the binding that hands the kept message to its caller.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A [`KeptMessage`], shared by the session, the reply and JS.
pub type Kept = Rc<dyn KeptMessage>;

/// What a transport hands back to the session.
#[derive(Debug)]
pub enum Inbound {
    /// A message from the server.
    Message(Message),
    /// The stream that should have carried the response to request `id` failed
    /// or ended without it.
    RequestFailed {
        /// The request that can no longer be answered.
        id: RequestId,
        /// Why.
        error: Error,
    },
    /// A large successful response to `id`, its result left as the server's
    /// text (`jsonrpc::raw_result` checked the envelope): the session parses
    /// it only for a caller that asks for the value.
    RawResponse {
        /// The request it answers.
        id: RequestId,
        /// The result's JSON text.
        text: ResultText,
        /// The whole message, when `text` lacks what its checks do not read.
        kept: Option<Kept>,
    },
    /// The one channel every response arrives on broke (the HTTP+SSE event
    /// stream, a user transport): no pending request can be answered now.
    ConnectionLost(Error),
    /// Something happened to the connection's streams.
    Status(ConnectionStatus),
    /// A message larger than the client reads was skipped on a shared
    /// stream; its envelope says which request it answered or was.
    Oversized {
        /// What the skipped bytes said about the message.
        envelope: Envelope,
        /// Its size.
        bytes: usize,
        /// The limit it went past (`maxMessageBytes`).
        limit: usize,
    },
    /// A message of more values than the client reads
    /// ([`crate::protocol::json::MAX_VALUES`]) was left unread; its envelope
    /// says which request it answered or was.
    TooManyValues(Envelope),
}

/// Where a transport delivers what it receives. Called synchronously, in order.
pub type InboundSink = Rc<dyn Fn(Inbound)>;

/// Decodes one JSON text from the server and hands what it holds to `sink`:
/// a result as its text alone, other messages decoded, and one of more
/// values than the client reads as [`Inbound::TooManyValues`]. Returns
/// whether it held the response to `awaited`.
///
/// # Errors
/// Why the text is not JSON-RPC; nothing was handed over then.
pub fn deliver_text(sink: &InboundSink, text: String, allow_batch: bool, awaited: Option<&RequestId>) -> Result<bool, DecodeError> {
    let messages = match decode_or_raw(text, allow_batch) {
        Ok(Decoded::Messages(messages)) => messages,
        Ok(Decoded::RawResult(id, raw)) => {
            let answered = awaited == Some(&id);
            sink(Inbound::RawResponse { id, text: Rc::new(raw), kept: None });
            return Ok(answered);
        }
        Err(error) => return deliver_unread(sink, error, awaited),
    };
    let mut answered = false;
    let count = messages.len();
    for mut message in messages {
        if let (Message::Response { id, outcome }, Some(awaited)) = (&mut message, awaited) {
            answered |= match *id {
                Some(ref id) => id == awaited,
                None => blame(id, outcome, awaited, count),
            };
        }
        sink(Inbound::Message(message));
    }
    Ok(answered)
}

/// Gives an error of id `null` the id of the one request its body answers,
/// when it is the body's only message (of `count`): a server that could not
/// read the request (JSON-RPC's parse error, a refused header) answers so,
/// and the request fails with the server's code and message rather than as
/// a response that answers nothing. In a batch it may be about another
/// message, and the request's own answer may follow. Apart from
/// [`deliver_text`], for the reason [`deliver_unread`] is.
#[inline(never)]
fn blame(id: &mut Option<RequestId>, outcome: &Result<Value, ErrorObject>, awaited: &RequestId, count: usize) -> bool {
    if outcome.is_ok() || count != 1 {
        return false;
    }
    *id = Some(awaited.clone());
    true
}

/// [`deliver_text`] for a text that did not decode. Apart from it: a first
/// call's messages decode, and the core's split (scripts/split/) leaves a
/// function it never enters out of the module a page loads first.
#[inline(never)]
fn deliver_unread(sink: &InboundSink, error: DecodeError, awaited: Option<&RequestId>) -> Result<bool, DecodeError> {
    let DecodeError::TooManyValues(envelope) = error else { return Err(error) };
    let answered = awaited.is_some() && envelope.response_id() == awaited;
    sink(Inbound::TooManyValues(envelope));
    Ok(answered)
}

/// Moves JSON-RPC messages to and from one server.
pub trait Transport {
    /// Delivers `message` to the server. The future completes once the server
    /// has accepted it (for HTTP: once the response headers are in); replies
    /// arrive later through the [`InboundSink`] the transport was built with.
    fn send(&self, message: Message) -> LocalBoxFuture<'static, Result<(), Error>>;
    /// Records the negotiated protocol revision, for transports that send it in headers.
    fn set_protocol_version(&self, version: &'static str);
    /// Starts receiving messages the server sends outside any request (the
    /// Streamable HTTP GET stream). Called once the session is initialized;
    /// transports without such a channel do nothing.
    fn listen(&self) {}
    /// Cancels a request by closing what carries it. Returns `false` when the
    /// session must send `notifications/cancelled` instead (the legacy way).
    fn cancel_request(&self, _id: &RequestId) -> bool {
        false
    }
    /// The session no longer waits for request `id`: it was answered (on
    /// whatever stream), failed, timed out, or its caller let it go. A stream
    /// resumed only for its response can stop.
    fn request_ended(&self, _id: &RequestId) {}
    /// The milliseconds the transport's sends have spent waiting on a person
    /// so far (an OAuth consent page), a wait in progress included; it never
    /// decreases. A request's timeout does not count that time, since how
    /// long someone takes to sign in is not the server's delay; the session
    /// allows ten minutes of it past a request's timeout.
    fn user_wait_ms(&self) -> u64 {
        0
    }
    /// The `Authorization` header the transport's next request would carry,
    /// if any: it names the authorization context that private cached
    /// results belong to, so it is asked for before a cached result is served.
    fn authorization(&self) -> LocalBoxFuture<'_, Result<Option<String>, Error>> {
        Box::pin(async { Ok(None) })
    }
    /// The server-issued session id, for transports that have one.
    fn session_id(&self) -> Option<String> {
        None
    }
    /// Forgets the server-side session (after it expired), so that the next
    /// `initialize` starts a new one. Aborts the transport's open streams.
    fn reset_session(&self) {}
    /// The id of the last event the GET stream delivered, so that a later
    /// connection can resume it (see `snapshot`).
    fn last_event_id(&self) -> Option<String> {
        None
    }
    /// Takes over a session an earlier connection started: its id, and where
    /// its GET stream left off. Transports without sessions ignore it.
    fn adopt_session(&self, _session_id: Option<String>, _last_event_id: Option<String>) {}
    /// Ends the connection: aborts open streams and releases server state.
    /// Called once.
    fn close(&self) -> LocalBoxFuture<'static, ()>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    fn delivering(text: String, awaited: Option<&RequestId>) -> (Result<bool, DecodeError>, Vec<Inbound>) {
        let got = Rc::new(RefCell::new(Vec::new()));
        let log = got.clone();
        let sink: InboundSink = Rc::new(move |inbound| log.borrow_mut().push(inbound));
        let answered = deliver_text(&sink, text, false, awaited);
        let got = got.borrow_mut().drain(..).collect();
        (answered, got)
    }

    #[test]
    fn a_text_is_handed_over_as_what_it_holds() {
        let awaited = RequestId::Number(3);
        let (answered, got) = delivering(r#"{"jsonrpc":"2.0","id":3,"result":{"ok":true}}"#.into(), Some(&awaited));
        assert!(matches!((answered, got.as_slice()), (Ok(true), [Inbound::RawResponse { text, .. }]) if text.as_str() == r#"{"ok":true}"#));
        let (answered, got) = delivering(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#.into(), Some(&awaited));
        assert!(matches!((answered, got.as_slice()), (Ok(false), [Inbound::Message(Message::Notification { .. })])));
        let (answered, got) = delivering("{".into(), None);
        assert!(matches!(answered, Err(DecodeError::Syntax(_))) && got.is_empty());
    }

    /// A server that could not read the request answers with id `null`: the
    /// one request the body answers fails with its error. Without a request
    /// to blame (the GET stream), or for a result, nothing changes.
    #[test]
    fn an_error_of_id_null_answers_the_awaited_request() {
        let refusal = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
        let awaited = RequestId::Number(5);
        let (answered, got) = delivering(refusal.into(), Some(&awaited));
        assert!(
            matches!((answered, got.as_slice()), (Ok(true), [Inbound::Message(Message::Response { id: Some(id), outcome: Err(e) })]) if id == &awaited && e.message == "Parse error"),
            "{got:?}"
        );
        let (answered, got) = delivering(refusal.into(), None);
        assert!(matches!((answered, got.as_slice()), (Ok(false), [Inbound::Message(Message::Response { id: None, .. })])));
        // A batch (2025-03-26) that holds the request's own answer besides.
        let sink_log = Rc::new(RefCell::new(Vec::new()));
        let log = sink_log.clone();
        let sink: InboundSink = Rc::new(move |inbound| log.borrow_mut().push(inbound));
        let batch = format!(r#"[{refusal},{{"jsonrpc":"2.0","id":5,"result":{{}}}}]"#);
        assert_eq!(deliver_text(&sink, batch, true, Some(&awaited)), Ok(true));
        let got = sink_log.borrow();
        assert!(
            matches!(
                got.as_slice(),
                [Inbound::Message(Message::Response { id: None, .. }), Inbound::Message(Message::Response { id: Some(_), outcome: Ok(_) })]
            ),
            "{got:?}"
        );
    }

    #[test]
    fn a_message_of_too_many_values_is_handed_over_unread() {
        let zeros = vec!["0"; crate::protocol::json::MAX_VALUES].join(",");
        let awaited = RequestId::Number(4);
        let error = format!(r#"{{"jsonrpc":"2.0","id":4,"error":{{"code":-1,"message":"m","data":[{zeros}]}}}}"#);
        let (answered, got) = delivering(error, Some(&awaited));
        assert!(
            matches!((answered, got.as_slice()), (Ok(true), [Inbound::TooManyValues(envelope)]) if envelope.response_id() == Some(&awaited))
        );
    }
}
