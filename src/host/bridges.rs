//! LLM function-calling bridges: MCP tools to each provider's tool
//! definitions, the provider's tool calls back to MCP calls, and a
//! `CallToolResult` to the provider's tool-result message. What a provider
//! cannot take is adjusted and reported in `notes`, never dropped silently.

use serde_json::{json, Map, Value};

/// The LLM APIs the bridges speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// OpenAI Chat Completions (`tools`, `message.tool_calls`, `role: "tool"`).
    OpenAiChat,
    /// OpenAI Responses (`function` tools, `function_call` / `function_call_output` items).
    OpenAiResponses,
    /// Anthropic Messages (`input_schema`, `tool_use` / `tool_result` blocks).
    Anthropic,
    /// Google Gemini (`functionDeclarations`, `functionCall` / `functionResponse` parts).
    Gemini,
}

/// A converted value and what had to change on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The provider's JSON.
    pub value: Value,
    /// One line per adjustment, for the host to surface.
    pub notes: Vec<String>,
}

/// A tool call the model made, in MCP terms.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The provider's id for the call, echoed in the result.
    pub id: Option<String>,
    /// The (qualified) tool name the model used.
    pub name: String,
    /// The arguments object.
    pub arguments: Value,
}

/// What OpenAI's and Anthropic's APIs refuse at the top of a tool's parameters.
const REFUSED_AT_TOP: [&str; 5] = ["anyOf", "oneOf", "allOf", "enum", "not"];

/// The parameters schema for one tool: MCP's `inputSchema` as an object
/// schema the providers take. MCP asks servers for one, and a provider
/// refuses a whole request over one tool's. OpenAI and Anthropic refuse a
/// top-level combination too: it becomes one object with every branch's
/// properties (the first one named wins), requiring what the top level
/// requires. Each change is noted; the server still checks the arguments
/// against its own schema.
fn parameters(tool: &Value, name: &str, notes: &mut Vec<String>) -> Value {
    let mut note = |what: &str| notes.push(format!("{name}: {what}"));
    let mut schema = match tool.get("inputSchema") {
        None => Map::from_iter([("type".to_owned(), json!("object"))]),
        Some(Value::Object(schema)) if schema.get("type").is_none_or(|kind| kind == "object") => schema.clone(),
        Some(_) => {
            note("its input schema is not an object's; offered with no parameters");
            return json!({"type": "object", "properties": {}});
        }
    };
    if REFUSED_AT_TOP.iter().any(|key| schema.contains_key(*key)) {
        let branches = ["allOf", "anyOf", "oneOf"].into_iter().filter_map(|key| schema.get(key)?.as_array()).flatten();
        let mut properties = Map::new();
        for (key, value) in
            std::iter::once(&schema).chain(branches.filter_map(Value::as_object)).filter_map(|b| b.get("properties")?.as_object()).flatten()
        {
            properties.entry(key.clone()).or_insert_with(|| value.clone());
        }
        schema.retain(|key, _| !REFUSED_AT_TOP.contains(&key.as_str()));
        schema.insert("properties".into(), Value::Object(properties));
        note("flattened the top level of its input schema");
    }
    if !schema.contains_key("type") {
        schema.insert("type".into(), json!("object"));
        note("added `type: \"object\"` to its input schema");
    }
    if !schema.contains_key("properties") {
        schema.insert("properties".into(), json!({}));
        note("added an empty `properties` to its input schema");
    }
    Value::Object(schema)
}

/// The provider's tool definitions for `(qualified name, MCP Tool)` pairs.
pub fn tool_definitions(provider: Provider, tools: &[(String, Value)]) -> Converted {
    let mut notes = Vec::new();
    let mut definitions = Vec::new();
    for (name, tool) in tools {
        let description =
            tool.get("description").and_then(Value::as_str).or_else(|| tool.get("title").and_then(Value::as_str)).unwrap_or_default();
        let schema = parameters(tool, name, &mut notes);
        definitions.push(match provider {
            Provider::OpenAiChat => {
                json!({"type": "function", "function": {"name": name, "description": description, "parameters": schema}})
            }
            Provider::OpenAiResponses => {
                json!({"type": "function", "name": name, "description": description, "parameters": schema, "strict": false})
            }
            Provider::Anthropic => json!({"name": name, "description": description, "input_schema": schema}),
            Provider::Gemini => json!({"name": name, "description": description, "parametersJsonSchema": schema}),
        });
    }
    let value = match provider {
        Provider::Gemini => json!([{"functionDeclarations": definitions}]),
        _ => Value::Array(definitions),
    };
    Converted { value, notes }
}

fn arguments_from_string(raw: Option<&Value>, name: &str) -> Result<Value, String> {
    match raw {
        None => Ok(json!({})),
        Some(Value::String(text)) if text.trim().is_empty() => Ok(json!({})),
        Some(Value::String(text)) => match crate::protocol::json::parse(text) {
            Ok(value @ Value::Object(_)) => Ok(value),
            Ok(_) => Err(format!("the arguments of {name} are not a JSON object")),
            Err(e) => Err(format!("the arguments of {name} are not valid JSON: {e}")),
        },
        Some(value @ Value::Object(_)) => Ok(value.clone()),
        Some(_) => Err(format!("the arguments of {name} are not a JSON object")),
    }
}

fn text_of(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The tool calls in a provider's reply: an OpenAI chat `message`, a
/// Responses `output` array (or the whole response), an Anthropic message or
/// its `content`, a Gemini `content` or response.
///
/// # Errors
/// A message naming the call whose arguments are not a JSON object.
pub fn tool_calls(provider: Provider, reply: &Value) -> Result<Vec<ToolCall>, String> {
    let list = |value: Option<&Value>| value.and_then(Value::as_array).cloned().unwrap_or_default();
    let mut calls = Vec::new();
    match provider {
        Provider::OpenAiChat => {
            let message = reply.pointer("/choices/0/message").unwrap_or(reply);
            for call in list(message.get("tool_calls")) {
                let name = call.pointer("/function/name").and_then(Value::as_str).unwrap_or_default().to_owned();
                let arguments = arguments_from_string(call.pointer("/function/arguments"), &name)?;
                calls.push(ToolCall { id: text_of(&call, "id"), name, arguments });
            }
        }
        // (where the items are, their type, the id field, the arguments field)
        Provider::OpenAiResponses | Provider::Anthropic => {
            let (field, kind, id, args) = match provider {
                Provider::OpenAiResponses => ("output", "function_call", "call_id", "arguments"),
                _ => ("content", "tool_use", "id", "input"),
            };
            let items = if reply.is_array() { list(Some(reply)) } else { list(reply.get(field)) };
            for item in items.iter().filter(|i| i.get("type").and_then(Value::as_str) == Some(kind)) {
                let name = text_of(item, "name").unwrap_or_default();
                let arguments = arguments_from_string(item.get(args), &name)?;
                calls.push(ToolCall { id: text_of(item, id), name, arguments });
            }
        }
        Provider::Gemini => {
            let content = reply.pointer("/candidates/0/content").unwrap_or(reply);
            for part in list(content.get("parts")) {
                if let Some(call) = part.get("functionCall") {
                    let name = text_of(call, "name").unwrap_or_default();
                    let arguments = arguments_from_string(call.get("args"), &name)?;
                    calls.push(ToolCall { id: text_of(call, "id"), name, arguments });
                }
            }
        }
    }
    Ok(calls)
}

/// One MCP content block as text, for providers (or block types) that only take text.
fn as_text(block: &Value) -> String {
    match block.get("type").and_then(Value::as_str) {
        Some("text") => text_of(block, "text").unwrap_or_default(),
        Some("resource_link") => format!("[resource {}]", text_of(block, "uri").unwrap_or_default()),
        Some("resource") => {
            let resource = block.get("resource").cloned().unwrap_or_default();
            text_of(&resource, "text").unwrap_or_else(|| {
                format!(
                    "[resource {} ({} bytes base64)]",
                    text_of(&resource, "uri").unwrap_or_default(),
                    resource.get("blob").and_then(Value::as_str).map_or(0, str::len)
                )
            })
        }
        Some(kind @ ("image" | "audio")) => format!("[{kind} {}]", text_of(block, "mimeType").unwrap_or_default()),
        other => format!("[{} content]", other.unwrap_or("unknown")),
    }
}

/// The result's content, with `structuredContent` as JSON text when no text
/// block carries it already (the spec asks servers to, not all do).
fn content_blocks(result: &Value) -> Vec<Value> {
    let mut blocks = result.get("content").and_then(Value::as_array).cloned().unwrap_or_default();
    let has_text = blocks.iter().any(|b| b.get("type").and_then(Value::as_str) == Some("text"));
    if let (Some(structured), false) = (result.get("structuredContent"), has_text) {
        blocks.push(json!({"type": "text", "text": structured.to_string()}));
    }
    blocks
}

/// The image types both OpenAI's and Anthropic's APIs take in a tool result;
/// another is sent as text.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// Content for providers that take text and images: anything else becomes
/// text, and is reported.
fn media_parts(
    blocks: &[Value],
    tool: &str,
    notes: &mut Vec<String>,
    image: impl Fn(&str, &str) -> Value,
    text: impl Fn(String) -> Value,
) -> Vec<Value> {
    blocks
        .iter()
        .map(|block| match (block.get("type").and_then(Value::as_str), text_of(block, "mimeType"), text_of(block, "data")) {
            (Some("image"), Some(mime), Some(data)) if IMAGE_TYPES.contains(&mime.as_str()) => image(&mime, &data),
            (Some("text"), ..) => text(as_text(block)),
            (kind, ..) => {
                notes.push(format!("{tool}: a block of type {} was sent as text", kind.unwrap_or("unknown")));
                text(as_text(block))
            }
        })
        .collect()
}

/// The provider's tool-result message for an MCP `CallToolResult`.
pub fn tool_result(provider: Provider, call: &ToolCall, result: &Value) -> Converted {
    let mut notes = Vec::new();
    let blocks = content_blocks(result);
    let is_error = result.get("isError").and_then(Value::as_bool).unwrap_or(false);
    let mut text_only = |blocks: &[Value], what: &str| -> String {
        for block in blocks {
            let kind = block.get("type").and_then(Value::as_str).unwrap_or("unknown");
            if kind != "text" {
                notes.push(format!("{}: {what} take text only; a block of type {kind} was sent as a placeholder", call.name));
            }
        }
        blocks.iter().map(as_text).collect::<Vec<_>>().join("\n")
    };
    let value = match provider {
        Provider::OpenAiChat => {
            let text = text_only(&blocks, "OpenAI chat tool messages");
            json!({"role": "tool", "tool_call_id": call.id, "content": text})
        }
        Provider::OpenAiResponses => {
            let parts = media_parts(
                &blocks,
                &call.name,
                &mut notes,
                |mime, data| json!({"type": "input_image", "image_url": format!("data:{mime};base64,{data}")}),
                |text| json!({"type": "input_text", "text": text}),
            );
            json!({"type": "function_call_output", "call_id": call.id, "output": parts})
        }
        Provider::Anthropic => {
            let content = media_parts(
                &blocks,
                &call.name,
                &mut notes,
                |mime, data| json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}),
                |text| json!({"type": "text", "text": text}),
            );
            let mut result_block = Map::new();
            result_block.insert("type".into(), json!("tool_result"));
            result_block.insert("tool_use_id".into(), json!(call.id));
            result_block.insert("content".into(), Value::Array(content));
            if is_error {
                result_block.insert("is_error".into(), json!(true));
            }
            json!({"role": "user", "content": [Value::Object(result_block)]})
        }
        Provider::Gemini => {
            let text = text_only(&blocks, "Gemini function responses");
            let mut response = Map::new();
            response.insert(if is_error { "error" } else { "output" }.into(), json!(text));
            if let Some(structured) = result.get("structuredContent") {
                response.insert("structuredContent".into(), structured.clone());
            }
            let mut function_response = Map::new();
            function_response.insert("name".into(), json!(call.name));
            function_response.insert("response".into(), Value::Object(response));
            if let Some(id) = &call.id {
                function_response.insert("id".into(), json!(id));
            }
            json!({"role": "user", "parts": [{"functionResponse": function_response}]})
        }
    };
    Converted { value, notes }
}

#[cfg(test)]
#[path = "bridges_tests.rs"]
mod tests;
