//! Checks on request params that users build, so a mistake is reported
//! locally with the field's name instead of as a server error.

use serde_json::Value;

/// Checks `tools/call` params: a string `name`, and `arguments`, if present, an object.
pub fn check_call_tool(params: &Value) -> Result<(), String> {
    if !params.get("name").is_some_and(Value::is_string) {
        return Err("callTool needs params.name, the tool's name as a string".into());
    }
    match params.get("arguments") {
        None | Some(Value::Null) | Some(Value::Object(_)) => Ok(()),
        Some(_) => Err("params.arguments must be an object".into()),
    }
}

/// Checks a pagination cursor, if given, is a string.
pub fn check_paginated(params: &Value) -> Result<(), String> {
    match params.get("cursor") {
        None | Some(Value::Null) | Some(Value::String(_)) => Ok(()),
        Some(_) => Err("params.cursor must be a string".into()),
    }
}
