//! Checks on request params that users build, so a mistake is reported
//! locally with the field's name instead of as a server error.

use super::jsonrpc::Params;
use super::pick::{member, pick, starts_with, string_value, Pick};
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

/// [`check_call_tool`] on params that may be text, without building a tree
/// of a large `arguments`. Gives the tool's name.
///
/// # Errors
/// As [`check_call_tool`], in the same words.
pub fn call_tool_name(params: &Params) -> Result<String, String> {
    let from_value = |value: &Value| {
        check_call_tool(value)?;
        Ok(value.get("name").and_then(Value::as_str).unwrap_or_default().to_owned())
    };
    let raw = match params {
        Params::Parsed(value) => return from_value(value),
        Params::Text(raw) => raw,
    };
    // A key written with escapes fails the read: the value tells.
    let Some((fields, _)) = pick(raw.get(), Pick { names: ["name", "arguments", "", ""], items: None }) else {
        return from_value(&params.to_value());
    };
    let name = member(&fields, 0).and_then(string_value);
    let Some(name) = name else {
        return Err("callTool needs params.name, the tool's name as a string".into());
    };
    match member(&fields, 1) {
        Some(raw) if !starts_with(raw, b'{') && raw != "null" => Err("params.arguments must be an object".into()),
        _ => Ok(name),
    }
}

/// Checks a pagination cursor, if given, is a string.
pub fn check_paginated(params: &Value) -> Result<(), String> {
    match params.get("cursor") {
        None | Some(Value::Null) | Some(Value::String(_)) => Ok(()),
        Some(_) => Err("params.cursor must be a string".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::call_tool_name;
    use crate::protocol::jsonrpc::Params;
    use serde_json::{json, Value};

    #[test]
    fn text_params_are_checked_in_the_same_words() {
        let padding = "x".repeat(20_000);
        for params in [
            json!({"name": "t", "arguments": {"big": padding}}),
            json!({"name": "t", "arguments": null, "pad": padding}),
            json!({"name": "t", "pad": padding}),
            json!({"name": 5, "pad": padding}),
            json!({"arguments": {}, "pad": padding}),
            json!({"name": "t", "arguments": [padding]}),
            json!({"name": "t", "arguments": "text", "pad": padding}),
        ] {
            let text = Params::from_text(params.to_string()).unwrap();
            assert!(matches!(text, Params::Text(_)), "{params}");
            assert_eq!(call_tool_name(&text), call_tool_name(&Params::Parsed(params.clone())), "{params}");
        }
        let escaped = Params::from_text(format!(r#"{{"name":"t","pad":"{padding}"}}"#)).unwrap();
        assert_eq!(call_tool_name(&escaped), Ok("t".to_owned()));
        assert_eq!(call_tool_name(&Params::Parsed(Value::Null)), Err("callTool needs params.name, the tool's name as a string".into()));
    }
}
