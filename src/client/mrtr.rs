//! Multi-round-trip requests (2026-07-28): a result of type `input_required`
//! asks the client for input first. Each input is fulfilled by the same
//! [`ClientHandler`] that answers the legacy era's server requests, and the
//! request is sent again, under a new id, with the answers and the server's
//! `requestState` byte for byte, until a final result or the round cap.

use crate::error::Error;
use crate::protocol::jsonrpc::Params;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::modern::{classify_result, complete_text, retry_params, InputRequest, Outcome};
use crate::session::handler::{ClientHandler, InboundContext};
use crate::session::{Answer, CallOptions, ConsentTime, LargeResult, Session};
use futures::future::{self, Either, FutureExt, LocalBoxFuture, Shared};
use serde_json::{Map, Value};
use std::rc::Rc;

/// Why an input phase stopped before its handlers answered.
#[derive(Clone, Debug)]
enum Stop {
    /// The caller gave up, for this reason.
    Cancelled(String),
    /// The request's timeout ran out while the handlers worked.
    TimedOut(u32),
    /// The client closed.
    Closed,
}

impl Stop {
    fn reason(&self) -> String {
        match self {
            Self::Cancelled(reason) => reason.clone(),
            Self::TimedOut(ms) => format!("the request timed out after {ms} ms while its input was being gathered"),
            Self::Closed => "the client closed".into(),
        }
    }

    fn into_error(self) -> Error {
        match self {
            Self::Cancelled(reason) => Error::Cancelled { reason },
            Self::TimedOut(ms) => Error::Timeout { ms },
            Self::Closed => Error::Closed,
        }
    }
}

/// The requests a server may answer with `input_required` (2026-07-28): on any
/// other, following one would run the user's handlers (a sampling call, a
/// question to the person) for a list.
const ASKS_FOR_INPUT: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];

/// Sends `method` and follows `input_required` results to the end.
/// `prepare` turns plain params into what goes on the wire (it adds `_meta`);
/// `call` gives the options of each round, and of each input phase: the
/// handlers answering a round's input get its `cancel` and `timeout_ms`, so a
/// handler that never settles cannot hold the request past either.
///
/// # Errors
/// Any round's request error; [`Error::Protocol`] for a bad `resultType`;
/// [`Error::MissingCapability`] when the server asks for input the client has no
/// handler for; the handler's own error; [`Error::Cancelled`] or
/// [`Error::Timeout`] while handlers work; [`Error::LimitExceeded`] for more
/// input requests in one round than the client handles at once;
/// [`Error::InputRoundsExceeded`].
pub async fn request_with_input(
    session: &Session,
    handler: Option<&dyn ClientHandler>,
    method: &str,
    params: Option<Params>,
    prepare: &dyn Fn(Option<Params>) -> Params,
    call: &dyn Fn() -> CallOptions,
    max_rounds: u32,
) -> Result<Outcome, Error> {
    let mut params = params;
    for round in 0..=max_rounds {
        let result = match session.request_params(method, Some(prepare(params.clone())), call()).await? {
            Answer::Parsed(value) => value,
            // A large result: a complete one stays text; anything else is
            // small once its parts are taken apart, and is parsed.
            Answer::Text(LargeResult { text, kept: None }) => {
                match complete_text(Rc::try_unwrap(text).unwrap_or_else(|shared| shared.as_ref().clone())) {
                    Ok(done) => return Ok(Outcome::CompleteText(done)),
                    Err(text) => crate::protocol::json::parse_message(&text).map_err(|e| crate::session::result_unread(&e))?,
                }
            }
            // The transport keeps messages outside wasm only in the legacy era; read one whole.
            Answer::Text(large) => large.parse()?,
        };
        let (requests, state) = match classify_result(result).map_err(Error::Protocol)? {
            Outcome::InputRequired { .. } if !ASKS_FOR_INPUT.contains(&method) => {
                return Err(Error::protocol(crate::error::cold_format!(
                    "the server asked for input in answer to {method}, which cannot take any"
                )));
            }
            Outcome::InputRequired { requests, state } => (requests, state),
            done => return Ok(done),
        };
        // The last round's input would never be sent: nobody is asked for it.
        if round == max_rounds {
            break;
        }
        let answers = gather_input(session, handler, requests, call).await?;
        params = Some(next_round(params, answers, state));
    }
    Err(Error::InputRoundsExceeded { rounds: max_rounds })
}

/// The params of the next round: the first round's, with the answers and the server's state.
// Apart, as `gather_input` is: a call whose server asks for no input never runs it.
#[inline(never)]
fn next_round(params: Option<Params>, answers: Vec<(String, Value)>, state: Option<String>) -> Params {
    Params::Parsed(retry_params(params.map(Params::into_value), answers.into_iter().collect::<Map<String, Value>>(), state))
}

/// Answers one round's input requests with `handler`, within the round's cancellation
/// and timeout.
///
/// A future of its own, not awaited inline: a call whose server asks for no input
/// never polls it, and the core's split (scripts/split/) leaves it out of the module
/// a page loads first.
#[inline(never)]
fn gather_input<'a>(
    session: &'a Session,
    handler: Option<&'a dyn ClientHandler>,
    requests: Vec<InputRequest>,
    call: &'a dyn Fn() -> CallOptions,
) -> LocalBoxFuture<'a, Result<Vec<(String, Value)>, Error>> {
    async move {
        let max = session.max_server_requests();
        if requests.len() > max {
            return Err(Error::LimitExceeded {
                limit: "maxServerRequests",
                message: format!("the server asked for {} inputs at once; the client handles {max}", requests.len()),
            });
        }
        let stop = stop_signal(session, call());
        let answers = requests.into_iter().map(|request| {
            let cancelled = stop.clone().map(|stop| stop.reason()).boxed_local();
            let ctx = InboundContext { id: RequestId::String(request.key.clone()), cancelled };
            let work = handler.and_then(|h| h.handle(&request.method, request.params.clone(), ctx));
            async move {
                let Some(work) = work else {
                    // What a 2026-07-28 server answers with -32021 when it knows beforehand.
                    return Err(Error::MissingCapability(format!("{} input (the client has no handler for it)", request.method)));
                };
                work.await.map(|answer| (request.key, answer)).map_err(Error::Rpc)
            }
        });
        let stopped = stop.clone();
        let finished = future::select(Box::pin(future::try_join_all(answers)), stop).await;
        // The handlers are polled first so that they hear of a stop, and they
        // may answer at once: no further round goes out once the call stopped.
        if let Some(stop) = stopped.peek() {
            return Err(stop.clone().into_error());
        }
        match finished {
            Either::Left((answers, _)) => answers,
            Either::Right((stop, _)) => Err(stop.into_error()),
        }
    }
    .boxed_local()
}

/// Completes when the caller cancels, the round's timeout runs out or the
/// client closes, whichever comes first; shared by the round's handlers.
fn stop_signal(session: &Session, options: CallOptions) -> Shared<LocalBoxFuture<'static, Stop>> {
    let timeout_ms = options.timeout_ms.unwrap_or_else(|| session.default_timeout_ms());
    session
        .stop_after(timeout_ms, options.cancel, ConsentTime::Counts)
        .map(move |stopped| match stopped {
            Error::Cancelled { reason } => Stop::Cancelled(reason),
            Error::Closed => Stop::Closed,
            _ => Stop::TimedOut(timeout_ms),
        })
        .boxed_local()
        .shared()
}

#[cfg(test)]
mod tests;
