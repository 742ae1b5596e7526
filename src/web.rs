//! The Rust API on the web platform: a [`Client`] over the platform's
//! `fetch`, in browsers (Leptos, Dioxus, Yew apps), Cloudflare Workers
//! (the `worker` crate) and Node, all on `wasm32-unknown-unknown`.
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcp_wasm::Error> {
//! use mcp_wasm::client::RequestOptions;
//! use mcp_wasm::protocol::types::CallToolParams;
//! use mcp_wasm::web::{self, WebOptions};
//!
//! let options = WebOptions::default().header("x-api-key", "secret");
//! let client = web::connect("https://example.com/mcp", options).await?;
//! let tools = client.list_all_tools(&RequestOptions::default()).await?;
//! let result = client.call_tool(CallToolParams::new("echo").argument("message", "hi"), &RequestOptions::default()).await?;
//! println!("{} tools; echo said {}", tools.len(), result.text());
//! client.close().await;
//! # Ok(()) }
//! ```

use crate::client::{Client, ClientOptions, Snapshot};
use crate::error::Error;
use crate::session::Connector;
use crate::transport::auth::Authorizer;
use crate::transport::connector::WebConnector;
use crate::transport::fetch::Fetch;
use crate::transport::headers::HeaderSource;
#[cfg(feature = "oauth")]
use crate::transport::oauth::{OAuth, OAuthConfig};
use crate::transport::sse::SseReader;
use crate::transport::web_runtime::WebRuntime;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// How to reach a server over the web platform, and how the client behaves.
#[derive(Debug, Clone, Default)]
pub struct WebOptions {
    /// The client's behaviour: era, timeouts, handlers, limits, cache.
    pub client: ClientOptions,
    /// Extra headers on every request.
    pub headers: HeaderSource,
    /// The `fetch` to use; the global one by default.
    pub fetch: Fetch,
    /// OAuth 2.1, for a server that requires authorization. Its `mcp_url`
    /// is set from the URL connected to.
    #[cfg(feature = "oauth")]
    pub auth: Option<OAuthConfig>,
    /// An authorizer of one's own, used in place of `auth`.
    pub authorizer: Option<Rc<dyn Authorizer>>,
    /// Forces `EventSource` or `fetch` for the HTTP+SSE transport.
    pub sse_reader: Option<SseReader>,
}

impl WebOptions {
    /// Adds a header sent with every request, to those set before in any
    /// form (an array of pairs, a `Headers` object, a plain object). A
    /// `HeaderSource::Function` is asked anew before each request, so it
    /// cannot be added to: it is replaced by this one header.
    #[must_use]
    pub fn header(mut self, name: &str, value: &str) -> Self {
        let pairs = js_sys::Array::new();
        if let HeaderSource::Fixed(existing) = &self.headers {
            // Read through `Headers`, which takes every form of `HeadersInit`; an invalid one
            // is kept for the request to refuse, as it would have been.
            match web_sys::Headers::new_with_str_sequence_sequence(existing) {
                Ok(headers) => {
                    for pair in js_sys::try_iter(&headers).ok().flatten().into_iter().flatten().flatten() {
                        pairs.push(&pair);
                    }
                }
                Err(_) => return self,
            }
        }
        pairs.push(&js_sys::Array::of2(&JsValue::from_str(name), &JsValue::from_str(value)));
        self.headers = HeaderSource::Fixed(pairs.into());
        self
    }

    /// Sets the client's options.
    #[must_use]
    pub fn client(mut self, client: ClientOptions) -> Self {
        self.client = client;
        self
    }
}

/// The connector for `url` with `options`' headers, `fetch` and OAuth.
///
/// # Errors
/// [`Error::InvalidArgument`] when OAuth is asked for over plain HTTP to a
/// host other than loopback: the tokens would be readable on the way.
pub fn connector(url: &str, options: &WebOptions) -> Result<Rc<dyn Connector>, Error> {
    let auth = match &options.authorizer {
        Some(authorizer) => Some(authorizer.clone()),
        None => oauth(url, options)?,
    };
    Ok(Rc::new(WebConnector {
        url: url.to_owned(),
        fetch: options.fetch.clone(),
        headers: options.headers.clone(),
        auth,
        sse_reader: options.sse_reader,
        max_message_bytes: options.client.limits.max_message_bytes,
    }))
}

/// The OAuth flow `options.auth` asks for, if any.
#[cfg(feature = "oauth")]
fn oauth(url: &str, options: &WebOptions) -> Result<Option<Rc<dyn Authorizer>>, Error> {
    match &options.auth {
        Some(config) => oauth_flow(url, config, &options.fetch).map(Some),
        None => Ok(None),
    }
}

/// Kept out of `connector`, which a page's first connection (without
/// `auth`) runs: then none of this is in the code it loads first.
#[cfg(feature = "oauth")]
#[inline(never)]
fn oauth_flow(url: &str, config: &OAuthConfig, fetch: &Fetch) -> Result<Rc<dyn Authorizer>, Error> {
    if !crate::protocol::oauth::endpoint_allowed(url) {
        return Err(Error::invalid_argument(format!("with auth, the MCP URL must be https, or http on a loopback host: {url}")));
    }
    let config = OAuthConfig { mcp_url: url.to_owned(), ..config.clone() };
    Ok(Rc::new(OAuth::new(config, fetch.clone())))
}

#[cfg(not(feature = "oauth"))]
#[allow(clippy::unnecessary_wraps)]
fn oauth(_: &str, _: &WebOptions) -> Result<Option<Rc<dyn Authorizer>>, Error> {
    Ok(None)
}

/// Connects to the MCP server at `url`, choosing the era and the transport
/// (see [`Client::connect_with`]).
///
/// # Errors
/// As [`Client::connect_with`], and as [`connector`].
pub async fn connect(url: &str, options: WebOptions) -> Result<Client, Error> {
    let connector = connector(url, &options)?;
    Client::connect_with(connector, Rc::new(WebRuntime), options.client).await
}

/// Continues a connection saved with [`Client::snapshot`] or
/// [`Client::suspend`], for example in a later Worker invocation. Pass the
/// same options as to [`connect`]: they are not in the snapshot.
///
/// # Errors
/// As [`Client::resume_with`], and as [`connector`].
pub async fn resume(snapshot: Snapshot, options: WebOptions) -> Result<Client, Error> {
    let connector = connector(&snapshot.url, &options)?;
    Client::resume_with(snapshot, connector, Rc::new(WebRuntime), options.client).await
}
