//! The `McpClient` class.

use super::abort::aborted;
use super::convert::{params_from_js, to_js};
use super::error::to_js_error;
use super::options::{connect_options, endpoint_url, request_options, RequestOptions};
use crate::error::Error;
use crate::protocol::lifecycle::ServerIdentity;
use crate::protocol::{methods, params, results};
use crate::session::lifecycle::{initialize, Offer};
use crate::session::paging::collect_pages;
use crate::session::{CallOptions, Session};
use crate::transport::fetch::Fetch;
use crate::transport::streamable_http::{StreamableHttp, StreamableHttpConfig};
use crate::transport::web_runtime::WebRuntime;
use js_sys::Promise;
use serde_json::{json, Value};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

/// A connection to one MCP server over HTTP.
///
/// Create one with {@link McpClient.connect}; it is ready to use when the
/// promise resolves. Every method returns a Promise and takes an optional
/// `options` bag with an `AbortSignal` and a timeout. Call {@link McpClient.close}
/// when done, so the server can release the session.
///
/// @example
/// ```ts
/// const client = await McpClient.connect("https://example.com/mcp");
/// const { tools } = await client.listTools();
/// const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
/// await client.close();
/// ```
#[wasm_bindgen]
pub struct McpClient {
    state: Rc<ClientState>,
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("protocol_version", &self.state.identity.protocol_version)
            .field("session", &self.state.session)
            .finish()
    }
}

struct ClientState {
    session: Session,
    transport: Rc<StreamableHttp>,
    identity: ServerIdentity,
}

/// The reason to reject with after `signal` fired: `signal.reason` itself, as
/// the web platform's own APIs do.
fn abort_reason(signal: Option<&AbortSignal>) -> JsValue {
    signal.map_or(JsValue::UNDEFINED, AbortSignal::reason)
}

impl ClientState {
    /// Sends a request; rejects with an `McpError`, an `McpClientError`, or
    /// the abort signal's reason.
    async fn request(&self, method: &str, params: Option<Value>, options: &RequestOptions) -> Result<Value, JsValue> {
        let cancel = match &options.signal {
            // Nothing is sent for a request that was aborted before it started.
            Some(signal) if signal.aborted() => return Err(signal.reason()),
            Some(signal) => Some(aborted(signal)),
            None => None,
        };
        let call = CallOptions { timeout_ms: options.timeout_ms, cancel };
        match self.session.request(method, params, call).await {
            Ok(result) => Ok(result),
            Err(Error::Cancelled { .. }) => Err(abort_reason(options.signal.as_ref())),
            Err(error) => Err(to_js_error(&error)),
        }
    }
}

/// What a promise rejects with, as an error type the paging walk can carry.
struct Rejection(JsValue);

impl From<Error> for Rejection {
    fn from(error: Error) -> Self {
        Self(fail(error))
    }
}

fn fail(error: Error) -> JsValue {
    to_js_error(&error)
}

fn checked(result: Value, check: impl FnOnce(&Value) -> Result<(), String>) -> Result<JsValue, JsValue> {
    check(&result).map_err(|why| fail(Error::Protocol(why)))?;
    to_js(&result).map_err(fail)
}

#[wasm_bindgen]
impl McpClient {
    /// Connects to the MCP server at `url` and performs the `initialize`
    /// handshake, offering protocol revision 2025-11-25 and accepting the
    /// server's counter-offer of 2025-06-18, 2025-03-26 or 2024-11-05.
    ///
    /// @throws {McpClientError} `invalid-argument` for a bad URL or option;
    /// `network`, `http`, `protocol` or `timeout` when the server cannot be
    /// reached or answers wrongly; `unsupported-version` when it insists on a
    /// revision this client does not speak.
    /// @throws {McpError} when the server refuses `initialize`.
    pub async fn connect(
        #[wasm_bindgen(unchecked_param_type = "string | URL")] url: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "McpClientOptions")] options: JsValue,
    ) -> Result<McpClient, JsValue> {
        let url = endpoint_url(&url).map_err(fail)?;
        let options = connect_options(&options).map_err(fail)?;
        if let Some(signal) = options.signal.as_ref().filter(|s| s.aborted()) {
            return Err(signal.reason());
        }
        let config = StreamableHttpConfig { url, fetch: Fetch::new(options.fetch.clone()), headers: options.headers.clone() };
        let (session, transport) = Session::new(Rc::new(WebRuntime), options.timeout_ms, |sink| {
            Rc::new(StreamableHttp::new(config, sink))
        });
        let offer = Offer {
            protocol_version: options.protocol_version,
            capabilities: json!({}),
            client_info: options.client_info,
        };
        let call = CallOptions { timeout_ms: None, cancel: options.signal.as_ref().map(aborted) };
        match initialize(&session, &offer, call).await {
            Ok(identity) => Ok(McpClient { state: Rc::new(ClientState { session, transport, identity }) }),
            Err(error) => {
                session.close().await;
                Err(match error {
                    Error::Cancelled { .. } => abort_reason(options.signal.as_ref()),
                    other => fail(other),
                })
            }
        }
    }

    /// The server's `serverInfo`: its name, version and optional title.
    #[wasm_bindgen(getter, js_name = serverInfo, unchecked_return_type = "Implementation")]
    pub fn server_info(&self) -> JsValue {
        to_js(&self.state.identity.server_info).unwrap_or(JsValue::UNDEFINED)
    }

    /// The capabilities the server declared in `initialize`.
    #[wasm_bindgen(getter, js_name = serverCapabilities, unchecked_return_type = "ServerCapabilities")]
    pub fn server_capabilities(&self) -> JsValue {
        to_js(&self.state.identity.capabilities).unwrap_or(JsValue::UNDEFINED)
    }

    /// The negotiated protocol revision, e.g. `"2025-11-25"`.
    #[wasm_bindgen(getter, js_name = protocolVersion, unchecked_return_type = "SupportedProtocolVersion")]
    pub fn protocol_version(&self) -> String {
        self.state.identity.protocol_version.to_owned()
    }

    /// The `Mcp-Session-Id` the server issued, or `undefined` for a stateless server.
    #[wasm_bindgen(getter, js_name = sessionId)]
    pub fn session_id(&self) -> Option<String> {
        self.state.transport.session_id()
    }

    /// The server's `instructions` for the model, if it sent any.
    #[wasm_bindgen(getter)]
    pub fn instructions(&self) -> Option<String> {
        self.state.identity.instructions.clone()
    }

    /// Lists one page of the server's tools. Pass `params.cursor` (a previous
    /// result's `nextCursor`) for the next page, or use {@link McpClient.listAllTools}.
    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "Promise<ListToolsResult>")]
    pub fn list_tools(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let params = params_from_js(&params, "params").map_err(fail)?;
            if let Some(p) = &params {
                params::check_paginated(p).map_err(|why| fail(Error::InvalidArgument(why)))?;
            }
            let options = request_options(&options).map_err(fail)?;
            let result = state.request(methods::TOOLS_LIST, params, &options).await?;
            checked(result, results::check_tools)
        })
    }

    /// Lists every tool, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllTools, unchecked_return_type = "Promise<Tool[]>")]
    pub fn list_all_tools(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let options = request_options(&options).map_err(fail)?;
            let walk = collect_pages("tools", |cursor| {
                let (state, options) = (&state, &options);
                async move {
                    let params = cursor.map(|c| json!({ "cursor": c }));
                    let page = state.request(methods::TOOLS_LIST, params, options).await.map_err(Rejection)?;
                    results::check_tools(&page).map_err(|why| Rejection(fail(Error::Protocol(why))))?;
                    Ok::<_, Rejection>(page)
                }
            });
            let tools = walk.await.map_err(|Rejection(value)| value)?;
            to_js(&Value::Array(tools)).map_err(fail)
        })
    }

    /// Calls a tool. A tool that fails still resolves, with `isError: true`;
    /// only protocol failures reject.
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CallToolRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let params = params_from_js(&params, "params")
                .and_then(|p| p.ok_or_else(|| Error::InvalidArgument("callTool needs params".into())))
                .and_then(|p| params::check_call_tool(&p).map(|()| p).map_err(Error::InvalidArgument))
                .map_err(fail)?;
            let options = request_options(&options).map_err(fail)?;
            let result = state.request(methods::TOOLS_CALL, Some(params), &options).await?;
            checked(result, results::check_call_tool)
        })
    }

    /// Checks that the server is responsive.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn ping(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let options = request_options(&options).map_err(fail)?;
            let result = state.request(methods::PING, None, &options).await?;
            results::check_object(&result, methods::PING).map_err(|why| fail(Error::Protocol(why)))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Closes the connection: rejects every pending request with an
    /// `McpClientError` of kind `closed`, aborts open streams and asks the
    /// server to end the session (HTTP DELETE). Safe to call more than once.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            state.session.close().await;
            Ok(JsValue::UNDEFINED)
        })
    }
}
