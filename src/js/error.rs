//! The two error classes users see, and the mapping from [`Error`].
//!
//! * `McpError`: the server answered with a JSON-RPC error; branch on `code`.
//! * `McpClientError`: the client could not get an answer; branch on `kind`.
//!
//! Both extend the built-in `Error`, so stacks and `instanceof Error` work.

use super::convert::to_js;
use crate::error::Error;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    /// A JSON-RPC error from the server.
    #[wasm_bindgen(reexport)]
    pub type McpError;
    #[wasm_bindgen(constructor, js_class = "McpError")]
    fn new_mcp_error(code: f64, message: &str, data: JsValue) -> McpError;

    /// A failure on the client's side: timeout, HTTP error, network error, …
    #[wasm_bindgen(reexport)]
    pub type McpClientError;
    #[wasm_bindgen(constructor, js_class = "McpClientError")]
    fn new_client_error(kind: &str, message: &str, status: JsValue) -> McpClientError;
}

/// The JS value a promise rejects with for `error`.
pub fn to_js_error(error: &Error) -> JsValue {
    match error {
        Error::Rpc(object) => {
            let data = object.data.as_ref().and_then(|d| to_js(d).ok()).unwrap_or(JsValue::UNDEFINED);
            // Codes are integers the server chose; f64 holds every one JSON-RPC uses.
            McpError::new_mcp_error(object.code as f64, &object.message, data).into()
        }
        other => {
            let status = other.status().map_or(JsValue::UNDEFINED, JsValue::from);
            McpClientError::new_client_error(other.kind(), &other.message(), status).into()
        }
    }
}
