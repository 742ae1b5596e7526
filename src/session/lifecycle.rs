//! The legacy-era handshake over a [`Session`]: `initialize`, version
//! negotiation, `notifications/initialized`.

use super::{CallOptions, Session};
use crate::error::Error;
use crate::protocol::lifecycle::{accept_initialize_result, initialize_params, InitializeError, ServerIdentity};
use crate::protocol::methods;
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

/// Runs the handshake. On any failure after the server answered (an
/// unsupported version, a malformed result) the session is closed, so the
/// server's session state is released.
///
/// # Errors
/// [`Error::UnsupportedVersion`] if the server counters with a revision we do
/// not speak; [`Error::Protocol`] for a malformed result; any request error.
pub async fn initialize(session: &Session, offer: &Offer, options: CallOptions) -> Result<ServerIdentity, Error> {
    let params = initialize_params(offer.protocol_version, &offer.capabilities, &offer.client_info);
    let result = session.request(methods::INITIALIZE, Some(params), options).await?;
    let identity = match accept_initialize_result(result) {
        Ok(identity) => identity,
        Err(refusal) => {
            session.close().await;
            return Err(match refusal {
                InitializeError::UnsupportedVersion(v) => Error::UnsupportedVersion(v),
                InitializeError::Malformed(why) => Error::Protocol(why),
            });
        }
    };
    session.transport().set_protocol_version(identity.protocol_version);
    if let Err(error) = session.notify(methods::INITIALIZED, None).await {
        session.close().await;
        return Err(error);
    }
    session.transport().listen();
    Ok(identity)
}

#[cfg(test)]
mod tests;
