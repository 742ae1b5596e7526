//! The OAuth 2.1 flow of MCP authorization over `fetch` (browsers, Workers,
//! Node): discovery (RFC 9728, RFC 8414 / OIDC, the 2025-03-26 fallbacks),
//! client registration (pre-registered, Client ID Metadata Document, dynamic
//! registration), PKCE S256 through WebCrypto, the user's consent through a
//! caller-supplied `authorize` function, the token exchange with the RFC 8707
//! `resource`, refresh, step-up on `insufficient_scope`, and the grants for
//! machine clients.
//!
//! Everything an authorization server hands out is bound to its issuer:
//! tokens, refresh tokens and registrations are kept per issuer and used only
//! with it. When the resource names another authorization server, the client
//! registers anew there and never shows it another issuer's client id,
//! secret or refresh token. Requests that carry credentials follow no
//! redirect to another origin, and every authorization URL must be https
//! (or http on a loopback host).

mod consent_clock;
mod crypto;
mod discovery;
mod dpop;
mod grants;
mod redacted;
mod registration;
pub mod store;

use crate::error::Error;
use crate::protocol::oauth::{self as rules, Challenge, ClientAuth};
use crate::transport::auth::Authorizer;
use crate::transport::fetch::{header, Fetch};
use consent_clock::ConsentClock;
use crypto::auth_error;
use futures::future::{FutureExt, LocalBoxFuture, Shared, WeakShared};
use js_sys::Function;
use std::cell::RefCell;
use std::rc::Rc;
pub use store::Storage;
use store::Store;
use wasm_bindgen::JsValue;

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
    /// Workload identity (SEP-1933): a JWT the caller obtains from its
    /// platform is presented as an RFC 7523 authorization grant.
    JwtBearer,
}

/// The enterprise identity provider side of [`Grant::CrossAppAccess`].
#[derive(Clone)]
pub struct EnterpriseIdentity {
    /// The user's ID token from the IdP.
    pub id_token: String,
    /// The IdP's token endpoint, which performs the token exchange.
    pub token_endpoint: String,
    /// This client's id at the IdP.
    pub client_id: Option<String>,
}

/// The assertion of [`Grant::JwtBearer`]: fixed, or fetched when needed.
#[derive(Clone)]
pub enum Assertion {
    /// The JWT itself.
    Fixed(String),
    /// `() => string | Promise<string>`, called for each token request, so a
    /// Worker can ask its platform for a fresh one.
    Function(Function),
}

/// What the caller configured.
#[derive(Clone)]
pub struct OAuthConfig {
    /// The MCP endpoint the tokens are for.
    pub mcp_url: String,
    /// A pre-registered client id.
    pub client_id: Option<String>,
    /// Its secret, for confidential clients.
    pub client_secret: Option<String>,
    /// The authorization server the pre-registered client belongs to. Without
    /// it, the first one the client meets.
    pub issuer: Option<String>,
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
    /// The assertion, for [`Grant::JwtBearer`].
    pub assertion: Option<Assertion>,
    /// The token endpoint authentication to ask for in dynamic registration.
    pub token_endpoint_auth_method: Option<String>,
    /// A PKCS#8 PEM private key: the client authenticates with a signed JWT (`private_key_jwt`).
    pub private_key_pem: Option<String>,
    /// `ES256` (default) or `RS256`.
    pub signing_algorithm: Option<String>,
    /// Where registrations, tokens and a pending authorization are kept.
    pub storage: Rc<Storage>,
    /// The URL the authorization server redirected back to, to finish a
    /// redirect flow started before this page loaded.
    pub callback_url: Option<String>,
    /// Routes discovery, registration and token requests through a proxy, for
    /// authorization servers that do not allow this page's origin: a prefix
    /// the encoded URL is appended to, or a function of the URL.
    pub cors_proxy: Option<CorsProxy>,
    /// Bind tokens to a key with DPoP (RFC 9449): proofs on token requests
    /// and, for DPoP tokens, on every request to the MCP server.
    pub dpop: bool,
}

impl OAuthConfig {
    /// A configuration for `grant` with nothing else set: no client id (the
    /// client registers), `client_name` "mcp-wasm", the discovered scopes,
    /// tokens kept in memory only, no DPoP. Set the rest with struct update
    /// syntax. `mcp_url` is filled in by [`crate::web::connect`]; docs/rust-api.md
    /// ("Authorization") shows a machine client and a user's consent.
    #[must_use]
    pub fn new(grant: Grant) -> Self {
        Self {
            mcp_url: String::new(),
            client_id: None,
            client_secret: None,
            issuer: None,
            client_metadata_url: None,
            client_name: "mcp-wasm".into(),
            redirect_uri: None,
            scope: None,
            authorize: None,
            grant,
            identity: None,
            assertion: None,
            token_endpoint_auth_method: None,
            private_key_pem: None,
            signing_algorithm: None,
            storage: Rc::new(Storage::memory()),
            callback_url: None,
            cors_proxy: None,
            dpop: false,
        }
    }
}

/// How [`OAuthConfig::cors_proxy`] rewrites a URL.
#[derive(Clone)]
pub enum CorsProxy {
    /// `prefix + encodeURIComponent(url)`.
    Prefix(String),
    /// `(url) => proxiedUrl`.
    Function(Function),
}

/// Tokens, and the authorization server that issued them.
#[derive(Debug, Clone, Default, serde::Serialize)]
struct Tokens {
    #[serde(default)]
    issuer: String,
    access: String,
    refresh: Option<String>,
    scope: Option<String>,
    /// `token_type: DPoP`: the token goes with a proof of the key.
    #[serde(default)]
    dpop: bool,
}

/// An authorization the user has not finished yet (a redirect flow leaves the page).
#[derive(Debug, Clone, serde::Serialize)]
struct Pending {
    issuer: String,
    state: String,
    verifier: String,
    redirect_uri: String,
    scope: Option<String>,
}

impl store::Stored for Tokens {
    fn from_stored(stored: &serde_json::Value) -> Option<Self> {
        Some(Self {
            issuer: match stored.get("issuer") {
                None => String::new(),
                Some(issuer) => issuer.as_str()?.to_owned(),
            },
            access: store::string(stored, "access")?,
            refresh: store::optional_string(stored, "refresh")?,
            scope: store::optional_string(stored, "scope")?,
            dpop: match stored.get("dpop") {
                None => false,
                Some(dpop) => dpop.as_bool()?,
            },
        })
    }
}

impl store::Stored for Pending {
    fn from_stored(stored: &serde_json::Value) -> Option<Self> {
        Some(Self {
            issuer: store::string(stored, "issuer")?,
            state: store::string(stored, "state")?,
            verifier: store::string(stored, "verifier")?,
            redirect_uri: store::string(stored, "redirect_uri")?,
            scope: store::optional_string(stored, "scope")?,
        })
    }
}

/// The authorization server in use, as discovered.
#[derive(Debug, Clone)]
struct Server {
    issuer: String,
    metadata: serde_json::Value,
    /// `scopes_supported` of the protected resource.
    resource_scopes: Option<serde_json::Value>,
    /// The resource indicator to ask tokens for: the protected-resource
    /// metadata's own `resource`, or the canonical MCP URL without one.
    resource: String,
}

/// A client registration at one authorization server.
#[derive(Debug, Clone)]
struct Client {
    issuer: String,
    id: String,
    secret: Option<String>,
    auth: ClientAuth,
}

type FlowFuture = LocalBoxFuture<'static, Result<(), Error>>;
type Flow = Shared<FlowFuture>;

/// One authorization context: the tokens for one MCP server.
pub struct OAuth {
    config: OAuthConfig,
    fetch: Fetch,
    store: Store,
    tokens: RefCell<Option<Tokens>>,
    server: RefCell<Option<Server>>,
    client: RefCell<Option<Client>>,
    /// The issuer a pre-registered client without `auth.issuer` was first used with.
    pinned: RefCell<Option<String>>,
    /// A flow in progress, shared by every request that hit the 401 and
    /// kept alive by them alone.
    flow: RefCell<Option<WeakShared<FlowFuture>>>,
    /// The DPoP key, once loaded.
    dpop: RefCell<Option<Rc<dpop::Dpop>>>,
    /// The time its flows have waited on a person.
    consents: ConsentClock,
}

/// Whether a URL the flow would fetch or send the user to is acceptable:
/// https, or http on a loopback host.
fn require_secure(step: &str, what: &str, url: &str) -> Result<(), Error> {
    if rules::endpoint_allowed(url) {
        Ok(())
    } else {
        Err(auth_error(step, format!("the {what} {url:?} is neither https nor http on a loopback host")))
    }
}

impl OAuth {
    /// An authorization context with no tokens yet.
    pub fn new(config: OAuthConfig, fetch: Fetch) -> Self {
        let store = Store::new(config.storage.clone(), &rules::canonical_resource(&config.mcp_url));
        Self {
            config,
            fetch,
            store,
            tokens: RefCell::new(None),
            server: RefCell::new(None),
            client: RefCell::new(None),
            pinned: RefCell::new(None),
            flow: RefCell::new(None),
            dpop: RefCell::new(None),
            consents: ConsentClock::default(),
        }
    }

    /// The DPoP key, loaded (or made) on first use; `None` without `auth.dpop`.
    async fn dpop(&self) -> Result<Option<Rc<dpop::Dpop>>, Error> {
        if !self.config.dpop {
            return Ok(None);
        }
        if let Some(key) = self.dpop.borrow().clone() {
            return Ok(Some(key));
        }
        let name = format!("mcp-wasm:dpop:{}", rules::canonical_resource(&self.config.mcp_url));
        let key = Rc::new(dpop::Dpop::load(&name, !self.store.is_memory()).await?);
        // Two requests may have raced to load it: keep the first.
        let key = self.dpop.borrow_mut().get_or_insert(key).clone();
        Ok(Some(key))
    }

    /// Takes up tokens kept from an earlier page load, if the storage has them.
    pub async fn restore(&self) {
        if self.tokens.borrow().is_some() {
            return;
        }
        let Some(issuer) = self.store.load::<String>(None, "issuer").await else { return };
        let kept = self.store.load::<Tokens>(Some(&issuer), "tokens").await;
        if let Some(tokens) = kept.filter(|t| t.issuer == issuer && crate::protocol::oauth::access_token_usable(&t.access)) {
            *self.tokens.borrow_mut() = Some(tokens);
        }
    }

    /// The headers that authorize a request to the MCP server: `Authorization`
    /// with the token, and for a DPoP token a fresh `DPoP` proof for this
    /// method and URL. Empty without a token.
    ///
    /// # Errors
    /// [`Error::Auth`] if the proof cannot be signed.
    pub async fn request_headers(&self, method: &str, url: &str) -> Result<Vec<(&'static str, String)>, Error> {
        let Some(tokens) = self.tokens.borrow().clone() else { return Ok(Vec::new()) };
        let key = if tokens.dpop { self.dpop().await? } else { None };
        let Some(key) = key else { return Ok(vec![("authorization", format!("Bearer {}", tokens.access))]) };
        let proof = key.proof(method, url, Some(&tokens.access)).await?;
        Ok(vec![("authorization", format!("DPoP {}", tokens.access)), ("dpop", proof)])
    }

    /// Reads what a response of the MCP server says about DPoP: a fresh
    /// nonce is kept for the next proofs. Whether it is a `use_dpop_nonce`
    /// refusal with a new nonce, which one retry answers.
    pub fn needs_nonce(&self, url: &str, response: &web_sys::Response, challenge: Option<&Challenge>) -> bool {
        let Some(key) = self.dpop.borrow().clone() else { return false };
        let fresh = key.note_nonce(url, response);
        fresh && response.status() == 401 && challenge.and_then(Challenge::error) == Some("use_dpop_nonce")
    }

    /// After a 401: refresh if possible, else run the whole flow. Concurrent
    /// callers share one flow.
    ///
    /// # Errors
    /// [`Error::Auth`] naming the step that failed.
    pub async fn unauthorized(self: &Rc<Self>, challenge: Option<Challenge>) -> Result<(), Error> {
        self.shared_flow(challenge, false).await
    }

    /// After a 403 `insufficient_scope`: authorize again with the union of the
    /// scopes held and those asked for.
    ///
    /// # Errors
    /// [`Error::Auth`] naming the step that failed.
    pub async fn step_up(self: &Rc<Self>, challenge: Challenge) -> Result<(), Error> {
        self.shared_flow(Some(challenge), true).await
    }

    fn shared_flow(self: &Rc<Self>, challenge: Option<Challenge>, step_up: bool) -> Flow {
        if let Some(flow) = self.flow.borrow().as_ref().and_then(WeakShared::upgrade) {
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
        // Held weakly: when every caller waiting for the flow is gone (a
        // connect given up), the flow is dropped, its fetches with it.
        *self.flow.borrow_mut() = flow.downgrade();
        flow
    }

    async fn run(&self, challenge: Option<Challenge>, step_up: bool) -> Result<(), Error> {
        if let Some(callback) = self.config.callback_url.clone() {
            // Finishing a redirect flow: the code is here, the verifier in storage.
            if let Some(pending) = self.store.load::<Pending>(None, "pending").await {
                let server = self.discover(challenge.as_ref(), true).await?;
                if pending.issuer != server.issuer {
                    self.store.forget(None, "pending").await;
                    return Err(auth_error("callback", "the authorization server changed while the user was signing in; start again"));
                }
                return self.exchange(&server, &callback, pending).await;
            }
        }
        // A token the server refused may mean it moved to another
        // authorization server: look again rather than trust what was found.
        let held = self.tokens.borrow().is_some();
        let server = self.discover(challenge.as_ref(), held).await?;
        self.drop_tokens_of_other_issuers(&server.issuer);
        let refresh = self.tokens.borrow().as_ref().and_then(|t| t.refresh.clone());
        if let (Some(refresh), false) = (refresh, step_up) {
            if self.refresh(&server, &refresh).await.is_ok() {
                return Ok(());
            }
        }
        match self.config.grant {
            Grant::ClientCredentials => self.client_credentials(&server, challenge.as_ref()).await,
            Grant::CrossAppAccess => self.cross_app_access(&server, challenge.as_ref()).await,
            Grant::JwtBearer => self.jwt_bearer(&server, challenge.as_ref()).await,
            Grant::AuthorizationCode => self.authorization_code(&server, challenge.as_ref(), step_up).await,
        }
    }

    /// Tokens from another authorization server are never shown to this one,
    /// not even their refresh token.
    fn drop_tokens_of_other_issuers(&self, issuer: &str) {
        let foreign = self.tokens.borrow().as_ref().is_some_and(|t| t.issuer != issuer);
        if foreign {
            self.tokens.borrow_mut().take();
        }
    }
}

impl Authorizer for OAuth {
    fn restore(self: Rc<Self>) -> LocalBoxFuture<'static, ()> {
        Box::pin(async move { OAuth::restore(&self).await })
    }

    fn request_headers(self: Rc<Self>, method: &str, url: &str) -> LocalBoxFuture<'static, Result<Vec<(String, String)>, Error>> {
        let (method, url) = (method.to_owned(), url.to_owned());
        Box::pin(async move {
            let headers = OAuth::request_headers(&self, &method, &url).await?;
            Ok(headers.into_iter().map(|(name, value)| (name.to_owned(), value)).collect())
        })
    }

    fn needs_nonce(&self, url: &str, response: &web_sys::Response) -> bool {
        OAuth::needs_nonce(self, url, response, challenge_of(response).as_ref())
    }

    fn unauthorized(self: Rc<Self>, response: &web_sys::Response) -> LocalBoxFuture<'static, Result<(), Error>> {
        let challenge = challenge_of(response);
        Box::pin(async move { OAuth::unauthorized(&self, challenge).await })
    }

    fn step_up(self: Rc<Self>, response: &web_sys::Response) -> LocalBoxFuture<'static, Result<bool, Error>> {
        let challenge = challenge_of(response).filter(|c| c.error() == Some("insufficient_scope"));
        Box::pin(async move {
            let Some(challenge) = challenge else { return Ok(false) };
            OAuth::step_up(&self, challenge).await.map(|()| true)
        })
    }

    fn user_wait_ms(&self) -> u64 {
        self.consents.spent_ms()
    }
}

/// Reads the challenge of a 401 or 403 response.
pub fn challenge_of(response: &web_sys::Response) -> Option<Challenge> {
    header(response, "www-authenticate").and_then(|h| rules::parse_challenge(&h))
}

/// Reads a JS `storage` option: an object with the Web Storage methods, or
/// `"memory"` (and `null`) for memory only.
pub fn storage_from(value: Option<JsValue>) -> Result<Storage, String> {
    match value {
        None => Ok(Storage::memory()),
        Some(v) if v.as_string().as_deref() == Some("memory") => Ok(Storage::memory()),
        Some(v) if v.is_object() => Ok(Storage::Js(v)),
        Some(_) => Err("auth.storage must be \"memory\" or have getItem, setItem and removeItem".into()),
    }
}
