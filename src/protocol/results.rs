//! Shape checks on results before they reach users: a typed API must not hand
//! over an object that contradicts its declared type. Unknown fields pass.

use super::jsonrpc::kind;
use serde_json::Value;

/// What was wrong with a result.
pub type ShapeError = String;

fn object<'a>(value: &'a Value, what: &str) -> Result<&'a serde_json::Map<String, Value>, ShapeError> {
    value.as_object().ok_or_else(|| format!("the {what} result is {}, not an object", kind(value)))
}

fn optional_string(map: &serde_json::Map<String, Value>, field: &str, what: &str) -> Result<(), ShapeError> {
    match map.get(field) {
        None | Some(Value::Null) | Some(Value::String(_)) => Ok(()),
        Some(other) => Err(format!("{what}.{field} is {}, not a string", kind(other))),
    }
}

/// Checks a paginated list result: `items_field` is an array of objects and
/// `nextCursor`, if present, is a string.
pub fn check_list(value: &Value, method: &str, items_field: &str) -> Result<(), ShapeError> {
    let map = object(value, method)?;
    optional_string(map, "nextCursor", method)?;
    match map.get(items_field) {
        Some(Value::Array(items)) => match items.iter().position(|t| !t.is_object()) {
            Some(i) => Err(format!("{method}: {items_field}[{i}] is not an object")),
            None => Ok(()),
        },
        Some(other) => Err(format!("{method}: {items_field} is {}, not an array", kind(other))),
        None => Err(format!("{method}: the result has no {items_field} array")),
    }
}

/// Checks each tool of a `tools/list` result has a string `name` and an object `inputSchema`.
pub fn check_tools(value: &Value) -> Result<(), ShapeError> {
    check_list(value, "tools/list", "tools")?;
    let tools = value.get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (i, tool) in tools.iter().enumerate() {
        if !tool.get("name").is_some_and(Value::is_string) {
            return Err(format!("tools/list: tools[{i}] has no string name"));
        }
        if !tool.get("inputSchema").is_some_and(Value::is_object) {
            return Err(format!("tools/list: tools[{i}] has no inputSchema object"));
        }
    }
    Ok(())
}

/// Checks a `tools/call` result: `content` is an array of typed blocks and
/// `isError`, if present, is a boolean.
pub fn check_call_tool(value: &Value) -> Result<(), ShapeError> {
    let map = object(value, "tools/call")?;
    match map.get("content") {
        Some(Value::Array(blocks)) => {
            if let Some(i) = blocks.iter().position(|b| !b.get("type").is_some_and(Value::is_string)) {
                return Err(format!("tools/call: content[{i}] has no string type"));
            }
        }
        Some(other) => return Err(format!("tools/call: content is {}, not an array", kind(other))),
        None => return Err("tools/call: the result has no content array".into()),
    }
    match map.get("isError") {
        None | Some(Value::Bool(_)) => Ok(()),
        Some(other) => Err(format!("tools/call: isError is {}, not a boolean", kind(other))),
    }
}

/// Checks that a result is an object (e.g. the empty result of `ping`).
pub fn check_object(value: &Value, method: &str) -> Result<(), ShapeError> {
    object(value, method).map(|_| ())
}

/// Checks a `resources/read` result: `contents` is an array of objects that
/// each have a string `uri` and either `text` or `blob`.
pub fn check_read_resource(value: &Value) -> Result<(), ShapeError> {
    let map = object(value, "resources/read")?;
    let Some(Value::Array(contents)) = map.get("contents") else {
        return Err("resources/read: the result has no contents array".into());
    };
    for (i, item) in contents.iter().enumerate() {
        if !item.get("uri").is_some_and(Value::is_string) {
            return Err(format!("resources/read: contents[{i}] has no string uri"));
        }
        let text = item.get("text").is_some_and(Value::is_string);
        let blob = item.get("blob").is_some_and(Value::is_string);
        if !(text || blob) {
            return Err(format!("resources/read: contents[{i}] has neither text nor blob"));
        }
    }
    Ok(())
}

/// Checks a `prompts/get` result: `messages` is an array of objects with a role and content.
pub fn check_get_prompt(value: &Value) -> Result<(), ShapeError> {
    let map = object(value, "prompts/get")?;
    optional_string(map, "description", "prompts/get")?;
    let Some(Value::Array(messages)) = map.get("messages") else {
        return Err("prompts/get: the result has no messages array".into());
    };
    match messages.iter().position(|m| !(m.get("role").is_some_and(Value::is_string) && m.get("content").is_some_and(Value::is_object))) {
        Some(i) => Err(format!("prompts/get: messages[{i}] needs a role and a content object")),
        None => Ok(()),
    }
}

/// Checks a `completion/complete` result: `completion.values` is an array of strings.
pub fn check_complete(value: &Value) -> Result<(), ShapeError> {
    let map = object(value, "completion/complete")?;
    match map.get("completion").and_then(|c| c.get("values")) {
        Some(Value::Array(values)) if values.iter().all(Value::is_string) => Ok(()),
        _ => Err("completion/complete: completion.values must be an array of strings".into()),
    }
}

/// Checks that every item of a list has a string `field` (e.g. `uri` of resources, `name` of prompts).
pub fn check_items_have(value: &Value, method: &str, items_field: &str, field: &str) -> Result<(), ShapeError> {
    check_list(value, method, items_field)?;
    let items = value.get(items_field).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    match items.iter().position(|item| !item.get(field).is_some_and(Value::is_string)) {
        Some(i) => Err(format!("{method}: {items_field}[{i}] has no string {field}")),
        None => Ok(()),
    }
}
