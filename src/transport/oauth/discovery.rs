//! Finding the authorization server: the protected-resource metadata (RFC
//! 9728) names it, its own metadata (RFC 8414 or OIDC discovery) describes
//! it; a 2025-03-26 server without either uses its origin and fixed paths.

use super::crypto::auth_error;
use super::{require_secure, CorsProxy, OAuth, Server};
use crate::error::Error;
use crate::protocol::oauth::{self as rules, Challenge};
use crate::transport::fetch::{read_text_capped, AbortOnDrop, Follow, HttpRequest};
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use web_sys::Headers;

/// The most an authorization server's metadata, registration or token reply
/// may hold: these are small JSON documents, and a server that sends more is
/// cut off at this point.
pub(super) const OAUTH_REPLY_LIMIT: usize = 256 * 1024;

impl OAuth {
    /// Sends one request of the flow (never to the MCP server), through the
    /// CORS proxy if there is one. A request the browser refuses to show us is
    /// reported as the likely CORS problem it is.
    pub(super) async fn send(
        &self,
        step: &str,
        request: (&str, &str),
        headers: Headers,
        body: Option<&str>,
        follow: Follow,
    ) -> Result<(AbortOnDrop, web_sys::Response), Error> {
        let (method, url) = request;
        let target = match &self.config.cors_proxy {
            None => url.to_owned(),
            Some(CorsProxy::Prefix(prefix)) => format!("{prefix}{}", String::from(js_sys::encode_uri_component(url))),
            Some(CorsProxy::Function(rewrite)) => rewrite
                .call1(&JsValue::UNDEFINED, &JsValue::from_str(url))
                .ok()
                .and_then(|v| v.as_string())
                .ok_or_else(|| auth_error(step, "auth.corsProxy must return the URL to fetch"))?,
        };
        let controller = AbortOnDrop::new()?;
        let request = HttpRequest { method, url: &target, headers, body, signal: &controller.signal(), follow };
        match self.fetch.send(request).await {
            Ok(response) => Ok((controller, response)),
            Err(Error::Network { message }) if crate::transport::fetch::in_browser() && self.config.cors_proxy.is_none() => Err(auth_error(
                step,
                format!("{url} could not be fetched from this page, likely CORS: the authorization server does not allow this origin. Set auth.corsProxy to route its requests through a proxy ({message})"),
            )),
            Err(Error::Network { message }) => Err(auth_error(step, format!("{url}: {message}"))),
            // A refused redirect: the server answered, so no CORS hint.
            Err(Error::Protocol(message)) => Err(auth_error(step, message)),
            Err(other) => Err(other),
        }
    }

    /// GETs a metadata document; `None` for a status other than 2xx or a body
    /// that is not JSON.
    pub(super) async fn get_json(&self, url: &str) -> Result<Option<Value>, Error> {
        let headers = Headers::new().map_err(|e| auth_error("discovery", crate::transport::fetch::js_message(&e)))?;
        let _ = headers.set("accept", "application/json");
        let (_controller, response) = self.send("discovery", ("GET", url), headers, None, Follow::Any).await?;
        if !(200..300).contains(&response.status()) {
            return Ok(None);
        }
        let text = read_text_capped(&response, OAUTH_REPLY_LIMIT, "oauthReplyBytes").await?;
        Ok(crate::protocol::json::parse(&text).ok())
    }

    /// Finds the authorization server, or returns the known one when nothing
    /// says it changed. `fresh` reads the protected-resource metadata again
    /// even so: a refused token may mean the server moved.
    pub(super) async fn discover(&self, challenge: Option<&Challenge>, fresh: bool) -> Result<Server, Error> {
        let known = self.server.borrow().clone();
        if let Some(server) = known.as_ref().filter(|_| !fresh && challenge.and_then(Challenge::resource_metadata).is_none()) {
            return Ok(server.clone());
        }
        // A candidate the browser cannot read (often a 404 without CORS
        // headers) is skipped; its error only matters if none answers.
        let mut unreachable = None;
        let mut resource = None;
        for url in rules::resource_metadata_urls(&self.config.mcp_url, challenge) {
            require_secure("discovery", "protected resource metadata URL", &url)?;
            match self.get_json(&url).await {
                Ok(Some(found)) => {
                    resource = Some(found);
                    break;
                }
                Ok(None) => {}
                Err(error) => unreachable = Some(error),
            }
        }
        let mcp_url = &self.config.mcp_url;
        let (issuer, resource_scopes, indicator) = match &resource {
            Some(metadata) => {
                // RFC 9728 §3.3: metadata that does not name this resource must not be used.
                let named = metadata
                    .get("resource")
                    .and_then(Value::as_str)
                    .ok_or_else(|| auth_error("discovery", "the protected resource metadata names no resource"))?;
                if !rules::resource_matches(named, mcp_url) {
                    return Err(auth_error("discovery", format!("the protected resource metadata is for {named}, not {mcp_url}")));
                }
                let issuer = metadata
                    .get("authorization_servers")
                    .and_then(Value::as_array)
                    .and_then(|servers| servers.first())
                    .and_then(Value::as_str)
                    .ok_or_else(|| auth_error("discovery", "the protected resource metadata lists no authorization server"))?;
                // Tokens are asked for the resource exactly as the server names it. The issuer
                // is kept as written too: RFC 8414 §3.3 and RFC 9207 compare it exactly, and
                // only the metadata URLs drop a trailing slash.
                (issuer.to_owned(), metadata.get("scopes_supported").cloned(), named.to_owned())
            }
            // 2025-03-26: no resource metadata; the MCP server's origin is the issuer.
            None => (rules::split_url(mcp_url).map(|(origin, _)| origin).unwrap_or_default(), None, rules::canonical_resource(mcp_url)),
        };
        require_secure("discovery", "authorization server", &issuer)?;
        if let Some(server) = known.filter(|server| server.issuer == issuer) {
            let server = Server { resource_scopes, resource: indicator, ..server };
            *self.server.borrow_mut() = Some(server.clone());
            return Ok(server);
        }
        let server = self.describe(issuer, resource.is_some(), unreachable).await?;
        let server = Server { resource_scopes, resource: indicator, ..server };
        *self.server.borrow_mut() = Some(server.clone());
        Ok(server)
    }

    /// Fetches the metadata of the authorization server `issuer`.
    async fn describe(&self, issuer: String, from_resource: bool, mut unreachable: Option<Error>) -> Result<Server, Error> {
        let needs_pkce = self.config.grant == super::Grant::AuthorizationCode;
        let mut metadata = None;
        let mut refused = None;
        for url in rules::authorization_server_metadata_urls(&issuer) {
            require_secure("discovery", "authorization server metadata URL", &url)?;
            let found = match self.get_json(&url).await {
                Ok(found) => found,
                Err(error) => {
                    unreachable = Some(error);
                    None
                }
            };
            let Some(found) = found else { continue };
            // A document whose issuer is not the one its URL was built from is discarded
            // (RFC 8414 §3.3), and the next URL tried. That holds for 2025-03-26's metadata
            // at the MCP server's origin too: an issuer taken from the server's word would
            // let it claim a trusted one and be sent that issuer's credentials.
            match rules::check_authorization_server(&found, &issuer, needs_pkce) {
                Ok(()) => {
                    metadata = Some(found);
                    break;
                }
                Err(why) => refused = Some(auth_error("discovery", why)),
            }
        }
        let metadata = match (metadata, refused) {
            (Some(metadata), _) => metadata,
            (None, Some(refused)) => return Err(refused),
            // The 2025-03-26 default endpoints, for a server with no metadata at all.
            (None, None) if !from_resource => json!({
                "issuer": issuer,
                "authorization_endpoint": format!("{issuer}/authorize"),
                "token_endpoint": format!("{issuer}/token"),
                "registration_endpoint": format!("{issuer}/register"),
                "code_challenge_methods_supported": ["S256"],
            }),
            (None, None) => {
                return Err(
                    unreachable.unwrap_or_else(|| auth_error("discovery", format!("no metadata for the authorization server {issuer}")))
                )
            }
        };
        Ok(Server { issuer, metadata, resource_scopes: None, resource: String::new() })
    }

    /// An endpoint of the authorization server, checked before use.
    pub(super) fn endpoint(server: &Server, name: &str) -> Result<String, Error> {
        let uri = server.metadata.get(name).and_then(Value::as_str).ok_or_else(|| auth_error("discovery", format!("no {name}")))?;
        require_secure("discovery", name, uri)?;
        Ok(uri.to_owned())
    }
}
