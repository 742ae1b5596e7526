//! The `auth` option, read field by field into the OAuth flow's configuration.

use super::fields::{field, function, invalid};
use crate::error::Error;
use crate::transport::oauth::{storage_from, Assertion, CorsProxy, EnterpriseIdentity, Grant, OAuthConfig};
use js_sys::Reflect;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};

fn text(object: &JsValue, name: &str) -> Result<Option<String>, Error> {
    match field(object, name) {
        None => Ok(None),
        Some(v) => v.as_string().map(Some).ok_or_else(|| invalid(format!("auth.{name} must be a string"))),
    }
}

/// Reads `auth`, if given; its `mcp_url` is filled in by the caller.
///
/// # Errors
/// [`Error::InvalidArgument`] naming the bad field.
pub fn auth_options(object: &JsValue) -> Result<Option<OAuthConfig>, Error> {
    match field(object, "auth") {
        Some(auth) => read_auth(&auth).map(Some),
        None => Ok(None),
    }
}

/// Kept out of `connect_options`, whose first call passes no `auth`: then
/// none of this is in the code a page loads first (scripts/split/).
#[inline(never)]
fn read_auth(auth: &JsValue) -> Result<OAuthConfig, Error> {
    if !auth.is_object() {
        return Err(invalid("auth must be an object"));
    }
    let redirect_uri = text(auth, "redirectUri")?;
    if let Some(uri) = &redirect_uri {
        if !crate::protocol::oauth::redirect_uri_allowed(uri) {
            return Err(invalid("auth.redirectUri must be https, or http on localhost, 127.0.0.1 or [::1], without a fragment"));
        }
    }
    let grant = match text(auth, "grant")?.as_deref() {
        None | Some("authorization_code") => Grant::AuthorizationCode,
        Some("client_credentials") => Grant::ClientCredentials,
        Some("cross_app_access") => Grant::CrossAppAccess,
        Some("jwt_bearer") => Grant::JwtBearer,
        Some(_) => {
            return Err(invalid(
                "auth.grant must be \"authorization_code\", \"client_credentials\", \"cross_app_access\" or \"jwt_bearer\"",
            ))
        }
    };
    let assertion = match field(auth, "assertion") {
        None if grant == Grant::JwtBearer => return Err(invalid("auth.assertion is required for jwt_bearer")),
        None => None,
        Some(f) if f.is_function() => Some(Assertion::Function(f.unchecked_into())),
        Some(jwt) => {
            Some(Assertion::Fixed(jwt.as_string().ok_or_else(|| invalid("auth.assertion must be a JWT or a function returning one"))?))
        }
    };
    let issuer = text(auth, "issuer")?;
    if let Some(issuer) = issuer.as_deref().filter(|i| !crate::protocol::oauth::endpoint_allowed(i)) {
        return Err(invalid(format!("auth.issuer {issuer:?} must be https, or http on a loopback host")));
    }
    let identity = match field(auth, "identity") {
        None if grant == Grant::CrossAppAccess => return Err(invalid("auth.identity is required for cross_app_access")),
        None => None,
        Some(identity) => Some(EnterpriseIdentity {
            id_token: text(&identity, "idToken")?.ok_or_else(|| invalid("auth.identity.idToken must be a string"))?,
            token_endpoint: text(&identity, "tokenEndpoint")?.ok_or_else(|| invalid("auth.identity.tokenEndpoint must be a string"))?,
            client_id: text(&identity, "clientId")?,
        }),
    };
    Ok(OAuthConfig {
        mcp_url: String::new(),
        client_id: text(auth, "clientId")?,
        client_secret: text(auth, "clientSecret")?,
        issuer,
        assertion,
        dpop: match field(auth, "dpop") {
            None => false,
            Some(flag) => flag.as_bool().ok_or_else(|| invalid("auth.dpop must be a boolean"))?,
        },
        client_metadata_url: text(auth, "clientMetadataUrl")?,
        client_name: text(auth, "clientName")?.unwrap_or_else(|| "mcp-wasm".into()),
        redirect_uri,
        scope: text(auth, "scope")?,
        authorize: function(auth, "authorize")?,
        grant,
        identity,
        token_endpoint_auth_method: text(auth, "tokenEndpointAuthMethod")?,
        private_key_pem: text(auth, "privateKey")?,
        storage: Rc::new(
            storage_from(match Reflect::get(auth, &"storage".into()) {
                // Absent: sessionStorage where there is one. `null` and "memory": memory only.
                Ok(absent) if absent.is_undefined() => {
                    Reflect::get(&js_sys::global(), &"sessionStorage".into()).ok().filter(|s| s.is_object())
                }
                Ok(null) if null.is_null() => None,
                Ok(storage) => Some(storage),
                Err(_) => None,
            })
            .map_err(invalid)?,
        ),
        callback_url: text(auth, "callbackUrl")?,
        cors_proxy: match field(auth, "corsProxy") {
            None => None,
            Some(f) if f.is_function() => Some(CorsProxy::Function(f.unchecked_into())),
            Some(p) => Some(CorsProxy::Prefix(p.as_string().ok_or_else(|| invalid("auth.corsProxy must be a URL prefix or a function"))?)),
        },
        signing_algorithm: match text(auth, "signingAlgorithm")? {
            None => None,
            Some(a) if a == "ES256" || a == "RS256" => Some(a),
            Some(_) => return Err(invalid("auth.signingAlgorithm must be \"ES256\" or \"RS256\"")),
        },
    })
}
