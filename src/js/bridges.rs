//! `ToolBridge`: an MCP client's tools in an LLM API's function-calling
//! format, the model's tool calls back as MCP calls, and tool results as the
//! API's tool-result message. The conversions live in `host::bridges`.

use super::convert::{from_js, to_js};
use super::error::to_js_error;
use crate::error::Error;
use crate::host::bridges::{self, Provider, ToolCall};
use crate::host::naming;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// Converts between MCP tools and one LLM API's function calling. Tool names
/// the API would refuse are rewritten (and mapped back when the model calls
/// them); anything else the API cannot take is listed in `notes`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct ToolBridge {
    provider: Provider,
    /// (name offered to the model, MCP tool name)
    names: Vec<(String, String)>,
    definitions: Value,
    notes: Vec<String>,
}

fn provider_of(name: &str) -> Result<(Provider, naming::NameRules), Error> {
    match name {
        "openai-chat" => Ok((Provider::OpenAiChat, naming::OPENAI)),
        "openai-responses" => Ok((Provider::OpenAiResponses, naming::OPENAI)),
        "anthropic" => Ok((Provider::Anthropic, naming::ANTHROPIC)),
        "gemini" => Ok((Provider::Gemini, naming::GEMINI)),
        other => Err(Error::InvalidArgument(format!("unknown provider {other:?}: use openai-chat, openai-responses, anthropic or gemini"))),
    }
}

fn throw(error: Error) -> JsValue {
    to_js_error(&error)
}

#[wasm_bindgen]
impl ToolBridge {
    /// A bridge for `provider` over `tools` (as `listTools` returns them).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "LlmProvider")] provider: &str,
        #[wasm_bindgen(unchecked_param_type = "Tool[]")] tools: JsValue,
    ) -> Result<ToolBridge, JsValue> {
        let (provider, rules) = provider_of(provider).map_err(throw)?;
        let tools = from_js(&tools, "tools").map_err(throw)?;
        let tools = tools.as_array().cloned().ok_or_else(|| throw(Error::InvalidArgument("tools must be an array of MCP tools".into())))?;
        let mut mcp_names = Vec::new();
        for tool in &tools {
            let name =
                tool.get("name").and_then(Value::as_str).ok_or_else(|| throw(Error::InvalidArgument("every tool needs a name".into())))?;
            mcp_names.push(name.to_owned());
        }
        let pairs: Vec<(&str, &str)> = mcp_names.iter().map(|n| ("", n.as_str())).collect();
        let offered = naming::assign(&pairs, "", &rules);
        let mut notes: Vec<String> = offered
            .iter()
            .zip(&mcp_names)
            .filter(|(o, m)| o != m)
            .map(|(o, m)| format!("{m}: offered as {o}, a name the API accepts"))
            .collect();
        let converted = bridges::tool_definitions(provider, &offered.iter().cloned().zip(tools).collect::<Vec<_>>());
        notes.extend(converted.notes);
        Ok(ToolBridge { provider, names: offered.into_iter().zip(mcp_names).collect(), definitions: converted.value, notes })
    }

    /// The tool definitions to send to the model.
    #[wasm_bindgen(getter, unchecked_return_type = "ProviderToolDefinitions")]
    pub fn definitions(&self) -> Result<JsValue, JsValue> {
        to_js(&self.definitions).map_err(throw)
    }

    /// What was adjusted for this API, one line each: for the definitions,
    /// then for every tool result that lost something on the way.
    #[wasm_bindgen(getter)]
    pub fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// The tool calls in a model reply, with MCP tool names. Throws an
    /// `McpClientError` of kind `invalid-argument` if arguments are not a JSON
    /// object or a call names a tool the bridge did not offer.
    #[wasm_bindgen(js_name = parseToolCalls, unchecked_return_type = "BridgeToolCall[]")]
    pub fn parse_tool_calls(&self, #[wasm_bindgen(unchecked_param_type = "object")] reply: JsValue) -> Result<JsValue, JsValue> {
        let reply = from_js(&reply, "reply").map_err(throw)?;
        let calls = bridges::tool_calls(self.provider, &reply).map_err(|why| throw(Error::InvalidArgument(why)))?;
        let mut out = Vec::new();
        for call in calls {
            let tool = self.names.iter().find(|(offered, _)| *offered == call.name).map(|(_, mcp)| mcp.clone());
            let tool =
                tool.ok_or_else(|| throw(Error::InvalidArgument(format!("the model called {}, which was not offered", call.name))))?;
            out.push(json!({"id": call.id, "name": tool, "offeredName": call.name, "arguments": call.arguments}));
        }
        to_js(&Value::Array(out)).map_err(throw)
    }

    /// The API's tool-result message for a call and its `CallToolResult`.
    #[wasm_bindgen(js_name = toolResultMessage, unchecked_return_type = "ProviderToolResult")]
    pub fn tool_result_message(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "BridgeToolCall")] call: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallToolResult")] result: JsValue,
    ) -> Result<JsValue, JsValue> {
        let call = from_js(&call, "call").map_err(throw)?;
        let result = from_js(&result, "result").map_err(throw)?;
        let name = call.get("offeredName").or_else(|| call.get("name")).and_then(Value::as_str).unwrap_or_default().to_owned();
        let id = call.get("id").and_then(Value::as_str).map(str::to_owned);
        let converted = bridges::tool_result(self.provider, &ToolCall { id, name, arguments: Value::Null }, &result);
        self.notes.extend(converted.notes);
        to_js(&converted.value).map_err(throw)
    }
}
