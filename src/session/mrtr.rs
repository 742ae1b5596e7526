//! Multi-round-trip requests (2026-07-28): a result of type `input_required`
//! asks the client for input first. Each input is fulfilled by the same
//! [`ClientHandler`] that answers the legacy era's server requests, and the
//! request is sent again, under a new id, with the answers and the server's
//! `requestState` byte for byte, until a final result or the round cap.

use super::handler::{ClientHandler, InboundContext};
use super::{CallOptions, Session};
use crate::error::Error;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::modern::{classify_result, retry_params, Outcome};
use futures::future::{self, FutureExt};
use serde_json::{Map, Value};

/// The default round cap, as in the official SDKs.
pub const DEFAULT_MAX_ROUNDS: u32 = 10;

/// Sends `method` and follows `input_required` results to the end.
/// `prepare` turns plain params into what goes on the wire (it adds `_meta`);
/// `call` gives the options of each round.
///
/// # Errors
/// Any round's request error; [`Error::Protocol`] for a bad `resultType`;
/// [`Error::Unsupported`] when the server asks for input the client has no
/// handler for; the handler's own error; [`Error::InputRoundsExceeded`].
pub async fn request_with_input(
    session: &Session,
    handler: Option<&dyn ClientHandler>,
    method: &str,
    params: Option<Value>,
    prepare: &dyn Fn(Option<Value>) -> Value,
    call: &dyn Fn() -> CallOptions,
    max_rounds: u32,
) -> Result<Outcome, Error> {
    let mut params = params;
    for _ in 0..=max_rounds {
        let result = session.request(method, Some(prepare(params.clone())), call()).await?;
        let (requests, state) = match classify_result(result).map_err(Error::Protocol)? {
            Outcome::InputRequired { requests, state } => (requests, state),
            done => return Ok(done),
        };
        let answers = requests.into_iter().map(|request| {
            let ctx = InboundContext { id: RequestId::String(request.key.clone()), cancelled: future::pending().boxed_local() };
            let work = handler.and_then(|h| h.handle(&request.method, request.params.clone(), ctx));
            async move {
                let Some(work) = work else {
                    return Err(Error::Unsupported(format!(
                        "the server asked for {} input, and the client has no handler for it",
                        request.method
                    )));
                };
                work.await.map(|answer| (request.key, answer)).map_err(Error::Rpc)
            }
        });
        let answers: Map<String, Value> = future::try_join_all(answers).await?.into_iter().collect();
        params = Some(retry_params(params, answers, state));
    }
    Err(Error::InputRoundsExceeded { rounds: max_rounds })
}

#[cfg(test)]
mod tests;
