//! `Debug` for the authorization types, written by hand so that what they
//! print can go to a log: a client secret, a private key, an ID token, an
//! assertion, a callback URL (which carries the authorization code) and the
//! tokens a store keeps are shown as present or absent, never as their text.
//! A JS function shows as present too: its source says nothing useful, and
//! printing a JS value would bring the binding's general printer of values
//! into every module that can reach an `Authorizer`.

use super::store::Storage;
use super::{Assertion, CorsProxy, EnterpriseIdentity, OAuth, OAuthConfig};
use std::fmt;

/// Shown instead of a secret.
const REDACTED: &str = "<redacted>";

/// `Some("<redacted>")` for a secret that is set.
fn redact<T>(secret: Option<&T>) -> Option<&'static str> {
    secret.map(|_| REDACTED)
}

impl fmt::Debug for OAuthConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthConfig")
            .field("mcp_url", &self.mcp_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &redact(self.client_secret.as_ref()))
            .field("issuer", &self.issuer)
            .field("client_metadata_url", &self.client_metadata_url)
            .field("client_name", &self.client_name)
            .field("redirect_uri", &self.redirect_uri)
            .field("scope", &self.scope)
            .field("authorize", &self.authorize.is_some())
            .field("grant", &self.grant)
            .field("identity", &self.identity)
            .field("assertion", &self.assertion)
            .field("token_endpoint_auth_method", &self.token_endpoint_auth_method)
            .field("private_key_pem", &redact(self.private_key_pem.as_ref()))
            .field("signing_algorithm", &self.signing_algorithm)
            .field("storage", &self.storage)
            .field("callback_url", &redact(self.callback_url.as_ref()))
            .field("cors_proxy", &self.cors_proxy)
            .field("dpop", &self.dpop)
            .finish()
    }
}

impl fmt::Debug for EnterpriseIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EnterpriseIdentity")
            .field("id_token", &REDACTED)
            .field("token_endpoint", &self.token_endpoint)
            .field("client_id", &self.client_id)
            .finish()
    }
}

impl fmt::Debug for Assertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fixed(_) => f.debug_tuple("Fixed").field(&REDACTED).finish(),
            Self::Function(_) => f.write_str("Function"),
        }
    }
}

impl fmt::Debug for CorsProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Prefix(prefix) => f.debug_tuple("Prefix").field(prefix).finish(),
            Self::Function(_) => f.write_str("Function"),
        }
    }
}

impl fmt::Debug for Storage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Js(_) => f.write_str("Js"),
            Self::Memory(kept) => f.debug_struct("Memory").field("keys", &kept.borrow().len()).finish_non_exhaustive(),
        }
    }
}

/// What an authorization context is for and whether it holds a token; its
/// tokens, registrations and keys stay out.
impl fmt::Debug for OAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuth")
            .field("mcp_url", &self.config.mcp_url)
            .field("grant", &self.config.grant)
            .field("authorized", &self.tokens.borrow().is_some())
            .finish_non_exhaustive()
    }
}
