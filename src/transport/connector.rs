//! The web's [`Connector`]: Streamable HTTP and HTTP+SSE over the platform's
//! `fetch` (or the caller's), with the caller's headers and OAuth.

use super::auth::Authorizer;
use super::fetch::{in_browser, Fetch};
use super::headers::HeaderSource;
#[cfg(feature = "legacy-sse")]
use super::legacy_sse::{LegacySse, LegacySseConfig};
use super::sse::SseReader;
use super::streamable_http::{StreamableHttp, StreamableHttpConfig};
use crate::error::Error;
use crate::session::{Channel, Connector, OpenContext, Session};
use futures::future::LocalBoxFuture;
use std::rc::Rc;

/// Opens Streamable HTTP and HTTP+SSE channels to one URL.
#[derive(Debug, Clone)]
pub struct WebConnector {
    /// The MCP endpoint.
    pub url: String,
    /// The `fetch` to use.
    pub fetch: Fetch,
    /// Extra headers for every request.
    pub headers: HeaderSource,
    /// Authorization (OAuth), when the server requires it.
    pub auth: Option<Rc<dyn Authorizer>>,
    /// Forces a reader for HTTP+SSE; by default `EventSource` in browsers
    /// when neither headers nor a custom `fetch` are needed, else `fetch`.
    pub sse_reader: Option<SseReader>,
    /// The largest JSON body or SSE event read.
    pub max_message_bytes: usize,
}

impl WebConnector {
    /// A connector to `url` with the global `fetch`, no extra headers and no OAuth.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            fetch: Fetch::default(),
            headers: HeaderSource::None,
            auth: None,
            sse_reader: None,
            max_message_bytes: crate::session::limits::Limits::DEFAULT.max_message_bytes,
        }
    }

    #[cfg(feature = "legacy-sse")]
    fn reader(&self) -> SseReader {
        match self.sse_reader {
            Some(reader) => reader,
            // EventSource cannot send headers, and cannot go through a custom fetch.
            None if is_browser_page() && !self.fetch.is_custom() && matches!(self.headers, HeaderSource::None) => SseReader::EventSource,
            None => SseReader::Fetch,
        }
    }
}

/// Whether this runs in a page with `EventSource` (not a Worker or Node).
#[cfg(feature = "legacy-sse")]
fn is_browser_page() -> bool {
    let global = js_sys::global();
    let defined = |name: &str| js_sys::Reflect::get(&global, &name.into()).is_ok_and(|v| !v.is_undefined());
    defined("document") && defined("EventSource")
}

impl Connector for WebConnector {
    fn url(&self) -> Option<String> {
        Some(self.url.clone())
    }

    fn prepare(&self) -> LocalBoxFuture<'static, ()> {
        let auth = self.auth.clone();
        Box::pin(async move {
            if let Some(auth) = auth {
                auth.restore().await;
            }
        })
    }

    fn open(&self, kind: Channel, context: &OpenContext) -> LocalBoxFuture<'static, Result<Session, Error>> {
        let (connector, context) = (self.clone(), context.clone());
        Box::pin(async move {
            match kind {
                Channel::StreamableHttp => {
                    let config = StreamableHttpConfig {
                        url: connector.url.clone(),
                        fetch: connector.fetch.clone(),
                        headers: connector.headers.clone(),
                        tool_schemas: context.tool_schemas.clone(),
                        auth: connector.auth.clone(),
                        max_message_bytes: connector.max_message_bytes,
                        open_timeout_ms: context.default_timeout_ms,
                    };
                    let (session, _) = Session::new(context.runtime.clone(), context.default_timeout_ms, |sink| {
                        Rc::new(StreamableHttp::new(config, sink))
                    });
                    Ok(session)
                }
                #[cfg(feature = "legacy-sse")]
                Channel::Sse => {
                    let config = LegacySseConfig {
                        url: connector.url.clone(),
                        fetch: connector.fetch.clone(),
                        headers: connector.headers.clone(),
                        reader: connector.reader(),
                        max_message_bytes: connector.max_message_bytes,
                    };
                    let (session, transport) =
                        Session::new(context.runtime.clone(), context.default_timeout_ms, |sink| Rc::new(LegacySse::new(config, sink)));
                    transport.open(context.default_timeout_ms).await?;
                    Ok(session)
                }
                #[cfg(not(feature = "legacy-sse"))]
                Channel::Sse => Err(Error::invalid_argument("HTTP+SSE is left out of this build (Cargo feature legacy-sse)".into())),
                Channel::Custom => Err(Error::invalid_argument("a URL connector opens HTTP channels only".into())),
            }
        })
    }

    fn hides_refusals(&self) -> bool {
        in_browser()
    }
}
