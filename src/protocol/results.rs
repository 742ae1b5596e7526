//! Shape checks on results before they reach users: a typed API must not hand
//! over an object that contradicts its declared type. Unknown fields pass.

use super::jsonrpc::kind;
use super::pick::{member, pick_accepted, starts_with, Pick};
use serde_json::Value;

/// What was wrong with a result.
pub type ShapeError = String;

fn object<'a>(value: &'a Value, what: &str) -> Result<&'a serde_json::Map<String, Value>, ShapeError> {
    value.as_object().ok_or_else(|| crate::error::cold_format!("the {what} result is {}, not an object", kind(value)))
}

fn optional_string(map: &serde_json::Map<String, Value>, field: &str, what: &str) -> Result<(), ShapeError> {
    match map.get(field) {
        None | Some(Value::Null) | Some(Value::String(_)) => Ok(()),
        Some(other) => Err(crate::error::cold_format!("{what}.{field} is {}, not a string", kind(other))),
    }
}

/// Checks a paginated list result: `items_field` is an array of objects and
/// `nextCursor`, if present, is a string.
pub fn check_list(value: &Value, method: &str, items_field: &str) -> Result<(), ShapeError> {
    let map = object(value, method)?;
    optional_string(map, "nextCursor", method)?;
    match map.get(items_field) {
        Some(Value::Array(items)) => match items.iter().position(|t| !t.is_object()) {
            Some(i) => Err(crate::error::cold_format!("{method}: {items_field}[{i}] is not an object")),
            None => Ok(()),
        },
        Some(other) => Err(crate::error::cold_format!("{method}: {items_field} is {}, not an array", kind(other))),
        None => Err(crate::error::cold_format!("{method}: the result has no {items_field} array")),
    }
}

/// Checks each tool of a `tools/list` result has a string `name` and an object `inputSchema`.
pub fn check_tools(value: &Value) -> Result<(), ShapeError> {
    check_list(value, "tools/list", "tools")?;
    let tools = value.get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (i, tool) in tools.iter().enumerate() {
        if !tool.get("name").is_some_and(Value::is_string) {
            return Err(crate::error::cold_format!("tools/list: tools[{i}] has no string name"));
        }
        if !tool.get("inputSchema").is_some_and(Value::is_object) {
            return Err(crate::error::cold_format!("tools/list: tools[{i}] has no inputSchema object"));
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
                return Err(crate::error::cold_format!("tools/call: content[{i}] has no string type"));
            }
        }
        Some(other) => return Err(crate::error::cold_format!("tools/call: content is {}, not an array", kind(other))),
        None => return Err("tools/call: the result has no content array".into()),
    }
    match map.get("isError") {
        None | Some(Value::Bool(_)) => Ok(()),
        Some(other) => Err(crate::error::cold_format!("tools/call: isError is {}, not a boolean", kind(other))),
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
            return Err(crate::error::cold_format!("resources/read: contents[{i}] has no string uri"));
        }
        let text = item.get("text").is_some_and(Value::is_string);
        let blob = item.get("blob").is_some_and(Value::is_string);
        if !(text || blob) {
            return Err(crate::error::cold_format!("resources/read: contents[{i}] has neither text nor blob"));
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
        Some(i) => Err(crate::error::cold_format!("prompts/get: messages[{i}] needs a role and a content object")),
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
        Some(i) => Err(crate::error::cold_format!("{method}: {items_field}[{i}] has no string {field}")),
        None => Ok(()),
    }
}

/// What `kind` says of a value, read from its text (which decoding already
/// found to be JSON).
fn raw_kind(raw: &str) -> &'static str {
    match crate::protocol::pick::first_byte(raw) {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

fn is_string(raw: Option<&str>) -> bool {
    raw.is_some_and(|v| starts_with(v, b'"'))
}

/// A `tools/call` result read from its text: what the client needs of it.
#[derive(Debug)]
pub struct CallToolText<'a> {
    /// `isError: true`.
    pub failed: bool,
    /// `structuredContent`, as the server's text.
    pub structured: Option<&'a str>,
}

/// [`check_call_tool`] on a result's text, without building a tree of it.
/// `None` when the text alone cannot tell (not an object, a member given
/// twice): the caller checks the parsed value instead. The text is one that
/// `decode` or [`crate::protocol::scan`] accepted already, as a large result
/// is kept: values deeper than the content blocks' members, such as the
/// inside of `structuredContent`, are stepped over unchecked
/// ([`crate::protocol::scan::scan_accepted`]).
///
/// # Errors
/// As [`check_call_tool`], in the same words.
pub fn check_call_tool_text(text: &str) -> Option<Result<CallToolText<'_>, ShapeError>> {
    // A `content` that is not an array of objects makes the read fail: the
    // value check says what is wrong with it.
    let shape = Pick { names: ["isError", "structuredContent", "", ""], items: Some(("content", ["type", "", "", ""])) };
    let (fields, content) = pick_accepted(text, shape)?;
    let Some(blocks) = content else {
        return Some(Err("tools/call: the result has no content array".into()));
    };
    if let Some(i) = blocks.iter().position(|block| !is_string(member(block, 0))) {
        return Some(Err(crate::error::cold_format!("tools/call: content[{i}] has no string type")));
    }
    let failed = match member(&fields, 0).map(crate::protocol::pick::trim_space) {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => return Some(Err(crate::error::cold_format!("tools/call: isError is {}, not a boolean", raw_kind(other)))),
    };
    Some(Ok(CallToolText { failed, structured: member(&fields, 1) }))
}

/// [`check_read_resource`] on a result's text, without building a tree of
/// it; `None`, and the text it expects, as for [`check_call_tool_text`].
///
/// # Errors
/// As [`check_read_resource`], in the same words.
pub fn check_read_resource_text(text: &str) -> Option<Result<(), ShapeError>> {
    let shape = Pick { names: ["", "", "", ""], items: Some(("contents", ["uri", "text", "blob", ""])) };
    let Some(contents) = pick_accepted(text, shape)?.1 else {
        return Some(Err("resources/read: the result has no contents array".into()));
    };
    for (i, item) in contents.iter().enumerate() {
        if !is_string(member(item, 0)) {
            return Some(Err(crate::error::cold_format!("resources/read: contents[{i}] has no string uri")));
        }
        if !(is_string(member(item, 1)) || is_string(member(item, 2))) {
            return Some(Err(crate::error::cold_format!("resources/read: contents[{i}] has neither text nor blob")));
        }
    }
    Some(Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The text checks say what the value checks say, in the same words.
    #[test]
    fn the_text_checks_agree_with_the_value_checks() {
        let call_tool = [
            json!({"content": [{"type": "text", "text": "hi"}]}),
            json!({"content": [], "isError": true, "structuredContent": {"n": 1}}),
            json!({"content": [{"type": "text"}, {"text": "no type"}]}),
            json!({"content": [{"type": "text"}, 5]}),
            json!({"content": {"type": "text"}}),
            json!({"content": "text"}),
            json!({"isError": false}),
            json!({"content": [], "isError": "yes"}),
            json!({"content": [], "isError": null}),
            json!([1, 2]),
            json!("a string"),
        ];
        for value in call_tool {
            let text = value.to_string();
            let from_text = check_call_tool_text(&text).map(|r| r.map(drop)).unwrap_or_else(|| check_call_tool(&value));
            assert_eq!(from_text, check_call_tool(&value), "{text}");
        }
        let read = [
            json!({"contents": [{"uri": "a://b", "text": "x"}, {"uri": "a://c", "blob": "eA=="}]}),
            json!({"contents": [{"uri": "a://b"}]}),
            json!({"contents": [{"text": "x"}]}),
            json!({"contents": [{"uri": 5, "text": "x"}]}),
            json!({"contents": ["a://b"]}),
            json!({"contents": {"uri": "a://b"}}),
            json!({}),
            json!(null),
        ];
        for value in read {
            let text = value.to_string();
            let from_text = check_read_resource_text(&text).unwrap_or_else(|| check_read_resource(&value));
            assert_eq!(from_text, check_read_resource(&value), "{text}");
        }
    }

    #[test]
    fn the_call_tool_text_check_reads_is_error_and_keeps_structured_content_as_text() {
        let shape = check_call_tool_text(r#"{"content":[],"isError":true,"structuredContent": {"a": [1, 2]}}"#).unwrap().unwrap();
        assert!(shape.failed);
        assert_eq!(shape.structured, Some(r#"{"a": [1, 2]}"#));
        let shape = check_call_tool_text(r#"{"content":[]}"#).unwrap().unwrap();
        assert!(!shape.failed && shape.structured.is_none());
        assert!(check_call_tool_text(r#"{"content":[],"content":{}}"#).is_none(), "a member given twice: read the value");
        assert!(check_call_tool_text("[1]").is_none());
    }
}
