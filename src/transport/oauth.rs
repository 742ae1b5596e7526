//! The OAuth 2.1 flow of MCP authorization over `fetch` (browsers, Workers,
//! Node): discovery (RFC 9728, RFC 8414 / OIDC, the 2025-03-26 fallbacks),
//! client registration (pre-registered, Client ID Metadata Document, dynamic
//! registration), PKCE S256 through WebCrypto, the user's consent through a
//! caller-supplied `authorize` function, the token exchange with the RFC 8707
//! `resource`, refresh, step-up on `insufficient_scope`, and the
//! `client_credentials` grant for machine clients. Tokens are only ever sent
//! to the MCP server and the authorization server's token endpoint.

use super::fetch::{header, js_message, read_text_capped, AbortOnDrop, Fetch, HttpRequest};
use crate::error::Error;
use crate::protocol::oauth::{self as rules, Challenge, ClientAuth};
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use js_sys::{Function, Promise, Reflect, Uint8Array};
use serde_json::{json, Value};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Headers;

/// The most an authorization server's metadata, registration or token reply
/// may hold: these are small JSON documents, and a server that sends more is
/// cut off at this point.
const OAUTH_REPLY_LIMIT: usize = 256 * 1024;

/// Which grant the client uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// The authorization-code flow with a user's consent.
    AuthorizationCode,
    /// A machine client's own credentials.
    ClientCredentials,
    /// Enterprise-managed cross-app access (SEP-990): the user's ID token is
    /// exchanged at their IdP for an ID-JAG (RFC 8693), which the client
    /// presents to the MCP server's authorization server (RFC 7523).
    CrossAppAccess,
}

/// The enterprise identity provider side of [`Grant::CrossAppAccess`].
#[derive(Debug, Clone)]
pub struct EnterpriseIdentity {
    /// The user's ID token from the IdP.
    pub id_token: String,
    /// The IdP's token endpoint, which performs the token exchange.
    pub token_endpoint: String,
    /// This client's id at the IdP.
    pub client_id: Option<String>,
}

/// What the caller configured.
#[derive(Debug, Clone)]
pub struct OAuthConfig {
    /// The MCP endpoint the tokens are for.
    pub mcp_url: String,
    /// A pre-registered client id.
    pub client_id: Option<String>,
    /// Its secret, for confidential clients.
    pub client_secret: Option<String>,
    /// A Client ID Metadata Document URL, used as the client id where the server supports it.
    pub client_metadata_url: Option<String>,
    /// `client_name` for dynamic registration.
    pub client_name: String,
    /// Where the authorization server sends the user back.
    pub redirect_uri: Option<String>,
    /// Scopes to ask for instead of the discovered ones.
    pub scope: Option<String>,
    /// `(authorizationUrl) => callbackUrl | Promise<callbackUrl>`: shows the user the consent page.
    pub authorize: Option<Function>,
    /// The grant.
    pub grant: Grant,
    /// The IdP, for [`Grant::CrossAppAccess`].
    pub identity: Option<EnterpriseIdentity>,
    /// The token endpoint authentication to ask for in dynamic registration.
    pub token_endpoint_auth_method: Option<String>,
    /// A PKCS#8 PEM private key: the client authenticates with a signed JWT (`private_key_jwt`).
    pub private_key_pem: Option<String>,
    /// `ES256` (default) or `RS256`.
    pub signing_algorithm: Option<String>,
    /// A Web-Storage-shaped object (`getItem`, `setItem`, `removeItem`, sync
    /// or async) keeping registrations, tokens and a pending authorization
    /// across page loads.
    pub storage: Option<JsValue>,
    /// The URL the authorization server redirected back to, to finish a
    /// redirect flow started before this page loaded.
    pub callback_url: Option<String>,
    /// Routes discovery, registration and token requests through a proxy, for
    /// authorization servers that do not allow this page's origin: a prefix
    /// the encoded URL is appended to, or a function of the URL.
    pub cors_proxy: Option<CorsProxy>,
}

/// How [`OAuthConfig::cors_proxy`] rewrites a URL.
#[derive(Debug, Clone)]
pub enum CorsProxy {
    /// `prefix + encodeURIComponent(url)`.
    Prefix(String),
    /// `(url) => proxiedUrl`.
    Function(Function),
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Tokens {
    access: String,
    refresh: Option<String>,
    scope: Option<String>,
}

/// An authorization the user has not finished yet (a redirect flow leaves the page).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Pending {
    state: String,
    verifier: String,
    redirect_uri: String,
    scope: Option<String>,
}

#[derive(Debug, Clone)]
struct Server {
    issuer: String,
    metadata: Value,
    resource_scopes: Option<Value>,
}

#[derive(Debug, Clone)]
struct Client {
    id: String,
    secret: Option<String>,
    auth: ClientAuth,
}

/// How a client registration is kept: per authorization server.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredClient {
    id: String,
    secret: Option<String>,
    auth: String,
}

type Flow = Shared<LocalBoxFuture<'static, Result<(), Error>>>;

/// One authorization context: the tokens for one MCP server.
#[derive(Debug)]
pub struct OAuth {
    config: OAuthConfig,
    fetch: Fetch,
    tokens: RefCell<Option<Tokens>>,
    server: RefCell<Option<Server>>,
    client: RefCell<Option<Client>>,
    /// A flow in progress, shared by every request that hit the 401.
    flow: RefCell<Option<Flow>>,
}

fn auth_error(step: &str, why: impl std::fmt::Display) -> Error {
    Error::Auth(format!("{step}: {why}"))
}

/// Random bytes from the platform's CSPRNG.
fn random_bytes(length: u32) -> Result<Vec<u8>, Error> {
    let crypto = Reflect::get(&js_sys::global(), &"crypto".into()).map_err(|_| auth_error("PKCE", "no crypto"))?;
    let bytes = Uint8Array::new_with_length(length);
    let fill = Reflect::get(&crypto, &"getRandomValues".into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
    fill.ok_or_else(|| auth_error("PKCE", "no crypto.getRandomValues"))?
        .call1(&crypto, &bytes)
        .map_err(|e| auth_error("PKCE", js_message(&e)))?;
    Ok(bytes.to_vec())
}

/// SHA-256 through WebCrypto, which browsers, Workers and Node all have.
async fn sha256(data: &[u8]) -> Result<Vec<u8>, Error> {
    let crypto = Reflect::get(&js_sys::global(), &"crypto".into()).map_err(|_| auth_error("PKCE", "no crypto"))?;
    let subtle = Reflect::get(&crypto, &"subtle".into()).map_err(|_| auth_error("PKCE", "no crypto.subtle"))?;
    let digest = Reflect::get(&subtle, &"digest".into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
    let promise = digest
        .ok_or_else(|| auth_error("PKCE", "no crypto.subtle.digest"))?
        .call2(&subtle, &"SHA-256".into(), &Uint8Array::from(data))
        .map_err(|e| auth_error("PKCE", js_message(&e)))?;
    let buffer = JsFuture::from(Promise::from(promise)).await.map_err(|e| auth_error("PKCE", js_message(&e)))?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// Signs a JWT client assertion with WebCrypto.
async fn sign_assertion(pem: &str, algorithm: &str, client_id: &str, audience: &str) -> Result<String, Error> {
    let fail = |e: JsValue| auth_error("client assertion", js_message(&e));
    let der = rules::pem_body(pem).ok_or_else(|| auth_error("client assertion", "the private key is not a PEM block"))?;
    let (import, sign) = match algorithm {
        "ES256" => (json!({"name": "ECDSA", "namedCurve": "P-256"}), json!({"name": "ECDSA", "hash": "SHA-256"})),
        "RS256" => (json!({"name": "RSASSA-PKCS1-v1_5", "hash": "SHA-256"}), json!({"name": "RSASSA-PKCS1-v1_5"})),
        other => return Err(auth_error("client assertion", format!("unsupported signing algorithm {other}"))),
    };
    let crypto = Reflect::get(&js_sys::global(), &"crypto".into()).map_err(fail)?;
    let subtle = Reflect::get(&crypto, &"subtle".into()).map_err(fail)?;
    let method = |name: &str| Reflect::get(&subtle, &name.into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
    let import_key = method("importKey").ok_or_else(|| auth_error("client assertion", "no crypto.subtle.importKey"))?;
    // Small algorithm objects: JSON.parse keeps this module free of the js layer.
    let to_js = |v: &Value| js_sys::JSON::parse(&v.to_string()).unwrap_or(JsValue::NULL);
    let args = js_sys::Array::of5(
        &"pkcs8".into(),
        &Uint8Array::from(der.as_slice()),
        &to_js(&import),
        &JsValue::FALSE,
        &js_sys::Array::of1(&"sign".into()),
    );
    let key = JsFuture::from(Promise::from(import_key.apply(&subtle, &args).map_err(fail)?)).await.map_err(fail)?;
    let jti = rules::base64url(&random_bytes(16)?);
    let now = (js_sys::Date::now() / 1000.0) as u64;
    let input = rules::jwt_signing_input(algorithm, client_id, audience, &jti, now);
    let sign_fn = method("sign").ok_or_else(|| auth_error("client assertion", "no crypto.subtle.sign"))?;
    let signed = sign_fn.call3(&subtle, &to_js(&sign), &key, &Uint8Array::from(input.as_bytes())).map_err(fail)?;
    let signature = JsFuture::from(Promise::from(signed)).await.map_err(fail)?;
    // WebCrypto's ECDSA signature is already the JWS form (r || s).
    Ok(format!("{input}.{}", rules::base64url(&Uint8Array::new(&signature).to_vec())))
}

impl OAuth {
    /// An authorization context with no tokens yet.
    pub fn new(config: OAuthConfig, fetch: Fetch) -> Self {
        Self { config, fetch, tokens: RefCell::new(None), server: RefCell::new(None), client: RefCell::new(None), flow: RefCell::new(None) }
    }

    fn key(&self, what: &str) -> String {
        format!("mcp-wasm:oauth:{}:{what}", rules::canonical_resource(&self.config.mcp_url))
    }

    async fn storage_call(&self, method: &str, args: &[JsValue]) -> Option<JsValue> {
        let storage = self.config.storage.as_ref()?;
        let function = Reflect::get(storage, &method.into()).ok()?.dyn_into::<Function>().ok()?;
        let returned = function.apply(storage, &args.iter().collect()).ok()?;
        JsFuture::from(Promise::resolve(&returned)).await.ok()
    }

    async fn load<T: serde::de::DeserializeOwned>(&self, what: &str) -> Option<T> {
        let text = self.storage_call("getItem", &[self.key(what).into()]).await?.as_string()?;
        serde_json::from_str(&text).ok()
    }

    async fn save<T: serde::Serialize>(&self, what: &str, value: &T) {
        if let Ok(text) = serde_json::to_string(value) {
            let _ = self.storage_call("setItem", &[self.key(what).into(), text.into()]).await;
        }
    }

    async fn forget(&self, what: &str) {
        let _ = self.storage_call("removeItem", &[self.key(what).into()]).await;
    }

    /// Takes up tokens kept from an earlier page load, if the storage has them.
    pub async fn restore(&self) {
        if self.tokens.borrow().is_none() {
            if let Some(tokens) = self.load::<Tokens>("tokens").await {
                *self.tokens.borrow_mut() = Some(tokens);
            }
        }
    }

    /// The `Authorization` header value to send, if there is a token.
    pub fn bearer(&self) -> Option<String> {
        self.tokens.borrow().as_ref().map(|t| format!("Bearer {}", t.access))
    }

    /// After a 401: refresh if possible, else run the whole flow. Concurrent
    /// callers share one flow.
    ///
    /// # Errors
    /// [`Error::Auth`] naming the step that failed.
    pub async fn unauthorized(self: &std::rc::Rc<Self>, challenge: Option<Challenge>) -> Result<(), Error> {
        self.shared_flow(challenge, false).await
    }

    /// After a 403 `insufficient_scope`: authorize again with the union of the
    /// scopes held and those asked for.
    ///
    /// # Errors
    /// [`Error::Auth`] naming the step that failed.
    pub async fn step_up(self: &std::rc::Rc<Self>, challenge: Challenge) -> Result<(), Error> {
        self.shared_flow(Some(challenge), true).await
    }

    fn shared_flow(self: &std::rc::Rc<Self>, challenge: Option<Challenge>, step_up: bool) -> Flow {
        if let Some(flow) = self.flow.borrow().clone() {
            return flow;
        }
        let me = self.clone();
        let flow = async move {
            let outcome = me.run(challenge, step_up).await;
            me.flow.borrow_mut().take();
            outcome
        }
        .boxed_local()
        .shared();
        *self.flow.borrow_mut() = Some(flow.clone());
        flow
    }

    async fn run(&self, challenge: Option<Challenge>, step_up: bool) -> Result<(), Error> {
        if let Some(callback) = self.config.callback_url.clone() {
            // Finishing a redirect flow: the code is here, the verifier in storage.
            if let Some(pending) = self.load::<Pending>("pending").await {
                self.discover(challenge.as_ref()).await?;
                return self.exchange(&callback, pending).await;
            }
        }
        let refresh = self.tokens.borrow().as_ref().and_then(|t| t.refresh.clone());
        if let (Some(refresh), false) = (refresh, step_up) {
            if self.refresh(&refresh).await.is_ok() {
                return Ok(());
            }
        }
        self.discover(challenge.as_ref()).await?;
        match self.config.grant {
            Grant::ClientCredentials => self.client_credentials(challenge.as_ref()).await,
            Grant::CrossAppAccess => self.cross_app_access(challenge.as_ref()).await,
            Grant::AuthorizationCode => self.authorization_code(challenge.as_ref(), step_up).await,
        }
    }

    /// Sends one request of the flow (never to the MCP server), through the
    /// CORS proxy if there is one. A request the browser refuses to show us is
    /// reported as the likely CORS problem it is.
    async fn send(
        &self,
        step: &str,
        method: &str,
        url: &str,
        headers: Headers,
        body: Option<&str>,
    ) -> Result<(AbortOnDrop, web_sys::Response), Error> {
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
        let request = HttpRequest { method, url: &target, headers, body, signal: &controller.signal() };
        match self.fetch.send(request).await {
            Ok(response) => Ok((controller, response)),
            Err(Error::Network { message }) if super::fetch::in_browser() && self.config.cors_proxy.is_none() => Err(auth_error(
                step,
                format!("{url} could not be fetched from this page, likely CORS: the authorization server does not allow this origin. Set auth.corsProxy to route its requests through a proxy ({message})"),
            )),
            Err(Error::Network { message }) => Err(auth_error(step, format!("{url}: {message}"))),
            Err(other) => Err(other),
        }
    }

    async fn get_json(&self, url: &str) -> Result<Option<Value>, Error> {
        let headers = Headers::new().map_err(|e| auth_error("discovery", js_message(&e)))?;
        let _ = headers.set("accept", "application/json");
        let (_controller, response) = self.send("discovery", "GET", url, headers, None).await?;
        if !(200..300).contains(&response.status()) {
            return Ok(None);
        }
        let text = read_text_capped(&response, OAUTH_REPLY_LIMIT, "oauthReplyBytes").await?;
        Ok(serde_json::from_str(&text).ok())
    }

    async fn post_form(&self, url: &str, form: &[(&str, &str)], basic: Option<(&str, &str)>) -> Result<Value, Error> {
        let headers = Headers::new().map_err(|e| auth_error("token", js_message(&e)))?;
        let _ = headers.set("content-type", "application/x-www-form-urlencoded");
        let _ = headers.set("accept", "application/json");
        if let Some((id, secret)) = basic {
            // RFC 6749 §2.3.1: both parts form-encoded before base64.
            let pair = format!(
                "{}:{}",
                rules::form_encode(&[("", id)]).trim_start_matches('='),
                rules::form_encode(&[("", secret)]).trim_start_matches('=')
            );
            let _ = headers.set("authorization", &format!("Basic {}", rules::base64(pair.as_bytes())));
        }
        let body = rules::form_encode(form);
        let (_controller, response) = self.send("token endpoint", "POST", url, headers, Some(&body)).await?;
        let status = response.status();
        let text = read_text_capped(&response, OAUTH_REPLY_LIMIT, "oauthReplyBytes").await?;
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if !(200..300).contains(&status) {
            let error = value.get("error").and_then(Value::as_str).unwrap_or("HTTP error");
            return Err(auth_error("token endpoint", format!("HTTP {status}: {error}")));
        }
        Ok(value)
    }

    /// Finds the authorization server: from the protected-resource metadata,
    /// or, for 2025-03-26 servers without it, at the MCP server's origin.
    async fn discover(&self, challenge: Option<&Challenge>) -> Result<(), Error> {
        if self.server.borrow().is_some() && challenge.and_then(Challenge::resource_metadata).is_none() {
            return Ok(());
        }
        let mut resource = None;
        // A candidate the browser cannot read (often a 404 without CORS headers)
        // is skipped; its error only matters if no candidate answers.
        let mut unreachable = None;
        for url in rules::resource_metadata_urls(&self.config.mcp_url, challenge) {
            match self.get_json(&url).await {
                Ok(Some(found)) => {
                    resource = Some(found);
                    break;
                }
                Ok(None) => {}
                Err(error) => unreachable = Some(error),
            }
        }
        let (issuer, resource_scopes) = match &resource {
            Some(metadata) => {
                if let Some(named) = metadata.get("resource").and_then(Value::as_str) {
                    if !rules::resource_matches(named, &self.config.mcp_url) {
                        return Err(auth_error(
                            "discovery",
                            format!("the protected resource metadata is for {named}, not {}", self.config.mcp_url),
                        ));
                    }
                }
                let issuer = metadata
                    .get("authorization_servers")
                    .and_then(Value::as_array)
                    .and_then(|servers| servers.first())
                    .and_then(Value::as_str)
                    .ok_or_else(|| auth_error("discovery", "the protected resource metadata lists no authorization server"))?;
                (issuer.trim_end_matches('/').to_owned(), metadata.get("scopes_supported").cloned())
            }
            // 2025-03-26: no resource metadata; the MCP server's origin is the issuer.
            None => (rules::split_url(&self.config.mcp_url).map(|(origin, _)| origin).unwrap_or_default(), None),
        };
        let needs_pkce = self.config.grant == Grant::AuthorizationCode;
        let mut metadata = None;
        let mut issuer = issuer;
        for url in rules::authorization_server_metadata_urls(&issuer) {
            let found = match self.get_json(&url).await {
                Ok(found) => found,
                Err(error) => {
                    unreachable = Some(error);
                    None
                }
            };
            if let Some(found) = found {
                if resource.is_none() {
                    // 2025-03-26 found the metadata at the MCP server's origin and
                    // did not require its issuer to match that origin.
                    if let Some(named) = found.get("issuer").and_then(Value::as_str) {
                        issuer = named.to_owned();
                    }
                }
                rules::check_authorization_server(&found, &issuer, needs_pkce).map_err(|why| auth_error("discovery", why))?;
                metadata = Some(found);
                break;
            }
        }
        let metadata = match (metadata, &resource) {
            (Some(metadata), _) => metadata,
            // The 2025-03-26 default endpoints, for a server with no metadata at all.
            (None, None) => json!({
                "issuer": issuer,
                "authorization_endpoint": format!("{issuer}/authorize"),
                "token_endpoint": format!("{issuer}/token"),
                "registration_endpoint": format!("{issuer}/register"),
                "code_challenge_methods_supported": ["S256"],
            }),
            (None, Some(_)) => {
                return Err(
                    unreachable.unwrap_or_else(|| auth_error("discovery", format!("no metadata for the authorization server {issuer}")))
                )
            }
        };
        *self.server.borrow_mut() = Some(Server { issuer, metadata, resource_scopes });
        Ok(())
    }

    fn server(&self) -> Result<Server, Error> {
        self.server.borrow().clone().ok_or_else(|| auth_error("discovery", "not done"))
    }

    fn endpoint(server: &Server, name: &str) -> Result<String, Error> {
        let uri = server.metadata.get(name).and_then(Value::as_str).ok_or_else(|| auth_error("discovery", format!("no {name}")))?;
        if !rules::endpoint_allowed(uri) {
            return Err(auth_error("discovery", format!("the {name} {uri:?} is neither https nor http on a loopback host")));
        }
        Ok(uri.to_owned())
    }

    /// Pre-registered credentials, a Client ID Metadata Document URL, or
    /// dynamic registration, in that order.
    async fn register(&self, server: &Server) -> Result<Client, Error> {
        if let Some(client) = self.client.borrow().clone() {
            return Ok(client);
        }
        let stored_key = format!("client:{}", server.issuer);
        if self.config.client_id.is_none() {
            if let Some(stored) = self.load::<StoredClient>(&stored_key).await {
                let auth = match stored.auth.as_str() {
                    "basic" => ClientAuth::Basic,
                    "post" => ClientAuth::Post,
                    _ => ClientAuth::None,
                };
                let client = Client { id: stored.id, secret: stored.secret, auth };
                *self.client.borrow_mut() = Some(client.clone());
                return Ok(client);
            }
        }
        let supported = server.metadata.get("token_endpoint_auth_methods_supported");
        let client = if let Some(id) = &self.config.client_id {
            let secret = self.config.client_secret.clone();
            let auth = rules::choose_client_auth(self.config.token_endpoint_auth_method.as_deref(), supported, secret.is_some());
            Client { id: id.clone(), secret, auth }
        } else if let (Some(url), true) =
            (&self.config.client_metadata_url, server.metadata.get("client_id_metadata_document_supported") == Some(&Value::Bool(true)))
        {
            Client { id: url.clone(), secret: None, auth: ClientAuth::None }
        } else {
            let endpoint = Self::endpoint(server, "registration_endpoint")
                .map_err(|_| auth_error("registration", "the server offers no registration and no client id was given"))?;
            let redirect_uris: Vec<&str> = self.config.redirect_uri.as_deref().into_iter().collect();
            let local = redirect_uris.iter().any(|u| u.contains("://localhost") || u.contains("://127.0.0.1"));
            let method = self.config.token_endpoint_auth_method.clone().unwrap_or_else(|| "none".into());
            let grants: &[&str] = match self.config.grant {
                Grant::AuthorizationCode => &["authorization_code", "refresh_token"],
                Grant::ClientCredentials => &["client_credentials"],
                Grant::CrossAppAccess => &["urn:ietf:params:oauth:grant-type:jwt-bearer"],
            };
            let body = json!({
                "client_name": self.config.client_name,
                "redirect_uris": redirect_uris,
                "grant_types": grants,
                "response_types": ["code"],
                "token_endpoint_auth_method": method,
                "application_type": if local { "native" } else { "web" },
            });
            let headers = Headers::new().map_err(|e| auth_error("registration", js_message(&e)))?;
            let _ = headers.set("content-type", "application/json");
            let text = body.to_string();
            let (_controller, response) = self.send("registration", "POST", &endpoint, headers, Some(&text)).await?;
            let status = response.status();
            let answer: Value =
                serde_json::from_str(&read_text_capped(&response, OAUTH_REPLY_LIMIT, "oauthReplyBytes").await?).unwrap_or(Value::Null);
            if !(200..300).contains(&status) {
                return Err(auth_error("registration", format!("HTTP {status}: {answer}")));
            }
            let id = answer.get("client_id").and_then(Value::as_str).ok_or_else(|| auth_error("registration", "no client_id"))?;
            let secret = answer.get("client_secret").and_then(Value::as_str).map(str::to_owned);
            let registered = answer.get("token_endpoint_auth_method").and_then(Value::as_str);
            let auth = rules::choose_client_auth(registered.or(Some(method.as_str())), supported, secret.is_some());
            Client { id: id.to_owned(), secret, auth }
        };
        *self.client.borrow_mut() = Some(client.clone());
        if self.config.client_id.is_none() {
            let auth = match client.auth {
                ClientAuth::Basic => "basic",
                ClientAuth::Post => "post",
                ClientAuth::None => "none",
            };
            let stored = StoredClient { id: client.id.clone(), secret: client.secret.clone(), auth: auth.into() };
            self.save(&stored_key, &stored).await;
        }
        Ok(client)
    }

    /// The form and Basic credentials for a token request, by client authentication.
    fn client_form<'a>(client: &'a Client, form: &mut Vec<(&'a str, &'a str)>) -> Option<(&'a str, &'a str)> {
        match (client.auth, client.secret.as_deref()) {
            (ClientAuth::Basic, Some(secret)) => Some((client.id.as_str(), secret)),
            (ClientAuth::Post, Some(secret)) => {
                form.push(("client_id", &client.id));
                form.push(("client_secret", secret));
                None
            }
            _ => {
                form.push(("client_id", &client.id));
                None
            }
        }
    }

    async fn store(&self, answer: &Value, asked_scope: Option<&str>) -> Result<(), Error> {
        let access = answer.get("access_token").and_then(Value::as_str).ok_or_else(|| auth_error("token endpoint", "no access_token"))?;
        let previous = self.tokens.borrow().clone().unwrap_or_default();
        *self.tokens.borrow_mut() = Some(Tokens {
            access: access.to_owned(),
            // A rotating server sends a new refresh token; one that does not keeps the old.
            refresh: answer.get("refresh_token").and_then(Value::as_str).map(str::to_owned).or(previous.refresh),
            scope: answer
                .get("scope")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .or_else(|| asked_scope.map(str::to_owned))
                .or(previous.scope),
        });
        let tokens = self.tokens.borrow().clone();
        if let Some(tokens) = tokens {
            self.save("tokens", &tokens).await;
        }
        Ok(())
    }

    async fn refresh(&self, refresh_token: &str) -> Result<(), Error> {
        let server = self.server()?;
        let client = self.client.borrow().clone().ok_or_else(|| auth_error("refresh", "no client"))?;
        let endpoint = Self::endpoint(&server, "token_endpoint")?;
        let resource = rules::canonical_resource(&self.config.mcp_url);
        let mut form = vec![("grant_type", "refresh_token"), ("refresh_token", refresh_token), ("resource", resource.as_str())];
        let basic = Self::client_form(&client, &mut form);
        let answer = self.post_form(&endpoint, &form, basic).await?;
        self.store(&answer, None).await
    }

    async fn client_credentials(&self, challenge: Option<&Challenge>) -> Result<(), Error> {
        let server = self.server()?;
        let client = self.register(&server).await?;
        let endpoint = Self::endpoint(&server, "token_endpoint")?;
        let resource = rules::canonical_resource(&self.config.mcp_url);
        let scope = self
            .config
            .scope
            .clone()
            .or_else(|| rules::select_scope(challenge.and_then(Challenge::scope), server.resource_scopes.as_ref(), false));
        let mut form = vec![("grant_type", "client_credentials"), ("resource", resource.as_str())];
        if let Some(scope) = &scope {
            form.push(("scope", scope));
        }
        let assertion = match &self.config.private_key_pem {
            Some(pem) => {
                Some(sign_assertion(pem, self.config.signing_algorithm.as_deref().unwrap_or("ES256"), &client.id, &server.issuer).await?)
            }
            None => None,
        };
        let basic = match &assertion {
            Some(assertion) => {
                form.push(("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"));
                form.push(("client_assertion", assertion));
                form.push(("client_id", &client.id));
                None
            }
            None => Self::client_form(&client, &mut form),
        };
        let answer = self.post_form(&endpoint, &form, basic).await?;
        self.store(&answer, scope.as_deref()).await
    }

    /// SEP-990: trades the ID token for an ID-JAG at the IdP, then the ID-JAG
    /// for an access token at the MCP server's authorization server.
    async fn cross_app_access(&self, challenge: Option<&Challenge>) -> Result<(), Error> {
        let server = self.server()?;
        let identity = self.config.identity.clone().ok_or_else(|| auth_error("token exchange", "no auth.identity"))?;
        let resource = rules::canonical_resource(&self.config.mcp_url);
        let scope = self
            .config
            .scope
            .clone()
            .or_else(|| rules::select_scope(challenge.and_then(Challenge::scope), server.resource_scopes.as_ref(), false));
        let mut exchange = vec![
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"),
            ("requested_token_type", "urn:ietf:params:oauth:token-type:id-jag"),
            ("subject_token", identity.id_token.as_str()),
            ("subject_token_type", "urn:ietf:params:oauth:token-type:id_token"),
            ("audience", server.issuer.as_str()),
            ("resource", resource.as_str()),
        ];
        if let Some(id) = &identity.client_id {
            exchange.push(("client_id", id));
        }
        if let Some(scope) = &scope {
            exchange.push(("scope", scope));
        }
        let granted = self.post_form(&identity.token_endpoint, &exchange, None).await?;
        let assertion = granted
            .get("access_token")
            .and_then(Value::as_str)
            .ok_or_else(|| auth_error("token exchange", "the identity provider returned no ID-JAG"))?
            .to_owned();
        let client = self.register(&server).await?;
        let endpoint = Self::endpoint(&server, "token_endpoint")?;
        let mut form = vec![("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion.as_str())];
        if let Some(scope) = &scope {
            form.push(("scope", scope));
        }
        let basic = Self::client_form(&client, &mut form);
        let answer = self.post_form(&endpoint, &form, basic).await?;
        self.store(&answer, scope.as_deref()).await
    }

    async fn authorization_code(&self, challenge: Option<&Challenge>, step_up: bool) -> Result<(), Error> {
        let server = self.server()?;
        let authorize = self
            .config
            .authorize
            .clone()
            .ok_or_else(|| auth_error("authorization", "the server needs a user's consent, and no authorize function was given"))?;
        let redirect_uri = self.config.redirect_uri.clone().ok_or_else(|| auth_error("authorization", "no redirectUri"))?;
        let client = self.register(&server).await?;
        let offline =
            server.metadata.get("scopes_supported").and_then(Value::as_array).is_some_and(|s| s.iter().any(|v| v == "offline_access"));
        let wanted = self
            .config
            .scope
            .clone()
            .or_else(|| rules::select_scope(challenge.and_then(Challenge::scope), server.resource_scopes.as_ref(), offline));
        let scope = if step_up {
            let held = self.tokens.borrow().as_ref().and_then(|t| t.scope.clone());
            rules::scope_union(held.as_deref(), challenge.and_then(Challenge::scope))
        } else {
            wanted
        };
        let verifier = rules::base64url(&random_bytes(32)?);
        let challenge_value = rules::base64url(&sha256(verifier.as_bytes()).await?);
        let state = rules::base64url(&random_bytes(16)?);
        let resource = rules::canonical_resource(&self.config.mcp_url);
        let mut params = vec![
            ("response_type", "code"),
            ("client_id", client.id.as_str()),
            ("redirect_uri", redirect_uri.as_str()),
            ("code_challenge", challenge_value.as_str()),
            ("code_challenge_method", "S256"),
            ("state", state.as_str()),
            ("resource", resource.as_str()),
        ];
        if let Some(scope) = &scope {
            params.push(("scope", scope));
        }
        let endpoint = Self::endpoint(&server, "authorization_endpoint")?;
        let separator = if endpoint.contains('?') { '&' } else { '?' };
        let url = format!("{endpoint}{separator}{}", rules::form_encode(&params));
        // Kept before the user leaves: a redirect flow finishes on another page load.
        let pending =
            Pending { state: state.clone(), verifier: verifier.clone(), redirect_uri: redirect_uri.clone(), scope: scope.clone() };
        self.save("pending", &pending).await;
        let returned =
            authorize.call1(&JsValue::UNDEFINED, &JsValue::from_str(&url)).map_err(|e| auth_error("authorization", js_message(&e)))?;
        let callback = JsFuture::from(Promise::resolve(&returned)).await.map_err(|e| auth_error("authorization", js_message(&e)))?;
        let callback = callback.as_string().ok_or_else(|| auth_error("authorization", "authorize must resolve with the callback URL"))?;
        self.exchange(&callback, pending).await
    }

    /// Checks the callback and trades its code for tokens.
    async fn exchange(&self, callback: &str, pending: Pending) -> Result<(), Error> {
        let server = self.server()?;
        let client = self.register(&server).await?;
        let iss_required = server.metadata.get("authorization_response_iss_parameter_supported") == Some(&Value::Bool(true));
        let checked = rules::check_callback(callback, &pending.state, &server.issuer, iss_required);
        self.forget("pending").await;
        let code = checked.map_err(|why| auth_error("callback", why))?.code;
        let token_endpoint = Self::endpoint(&server, "token_endpoint")?;
        let resource = rules::canonical_resource(&self.config.mcp_url);
        let mut form = vec![
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", pending.redirect_uri.as_str()),
            ("code_verifier", pending.verifier.as_str()),
            ("resource", resource.as_str()),
        ];
        let basic = Self::client_form(&client, &mut form);
        let answer = self.post_form(&token_endpoint, &form, basic).await?;
        self.store(&answer, pending.scope.as_deref()).await
    }
}

/// Reads the challenge of a 401 or 403 response.
pub fn challenge_of(response: &web_sys::Response) -> Option<Challenge> {
    header(response, "www-authenticate").and_then(|h| rules::parse_challenge(&h))
}
