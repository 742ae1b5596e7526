//! The legacy-era handshake over a [`Session`]: `initialize`, version
//! negotiation, `notifications/initialized`.

use crate::error::Error;
use crate::protocol::lifecycle::{accept_initialize_result, initialize_params, InitializeError, ServerIdentity};
use crate::protocol::methods;
use crate::session::{CallOptions, Session};
use serde_json::Value;

/// What the client offers in `initialize`.
#[derive(Debug, Clone)]
pub struct Offer {
    /// The protocol revision to offer.
    pub protocol_version: &'static str,
    /// The client's capabilities.
    pub capabilities: Value,
    /// `clientInfo`: at least `name` and `version`.
    pub client_info: Value,
}

/// Which step of the handshake failed. Only a refused `initialize` itself can
/// mean "an older server"; a refused `notifications/initialized` cannot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The `initialize` request got no answer, or an error.
    Initialize,
    /// Everything after it: the answer's checks and `notifications/initialized`.
    AfterAnswer,
}

/// A failed handshake and where it failed.
#[derive(Debug, Clone)]
pub struct HandshakeError {
    /// Where.
    pub stage: Stage,
    /// What went wrong.
    pub error: Error,
}

impl From<HandshakeError> for Error {
    fn from(failure: HandshakeError) -> Self {
        failure.error
    }
}

/// Runs the handshake, each step with the options `call` gives. On any failure after the server answered (an
/// unsupported version, a malformed result) the session is closed, so the
/// server's session state is released.
///
/// # Errors
/// [`Error::UnsupportedVersion`] if the server counters with a revision we do
/// not speak; [`Error::Protocol`] for a malformed result; any request error.
pub async fn initialize(session: &Session, offer: &Offer, call: &dyn Fn() -> CallOptions) -> Result<ServerIdentity, HandshakeError> {
    let params = initialize_params(offer.protocol_version, &offer.capabilities, &offer.client_info);
    let result = session
        .request(methods::INITIALIZE, Some(params), call())
        .await
        .map_err(|error| HandshakeError { stage: Stage::Initialize, error })?;
    let after = |error| HandshakeError { stage: Stage::AfterAnswer, error };
    let identity = match accept_initialize_result(result) {
        Ok(identity) => identity,
        Err(refusal) => {
            session.close_in_background();
            return Err(after(match refusal {
                InitializeError::UnsupportedVersion(v) => Error::UnsupportedVersion(v),
                InitializeError::Malformed(why) => Error::Protocol(why),
            }));
        }
    };
    session.transport().set_protocol_version(identity.protocol_version);
    // The caller's cancellation stops the wait for the server to take it, too.
    if let Err(error) = session.notify_until(methods::INITIALIZED, None, call().cancel).await {
        session.close_in_background();
        return Err(after(error));
    }
    session.transport().listen();
    Ok(identity)
}

#[cfg(test)]
mod tests;
