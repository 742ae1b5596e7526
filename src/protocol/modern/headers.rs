//! The standard headers of 2026-07-28 that mirror tool arguments:
//! `Mcp-Param-{Name}` for each `inputSchema` property annotated with
//! `x-mcp-header`, and the rules that make such an annotation valid.

use serde_json::Value;

const SENTINEL_START: &str = "=?base64?";
const SENTINEL_END: &str = "?=";

/// RFC 9110 token characters, the only ones a header name may use.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// The header text for an argument value, or `None` when it must be left
/// out (`null`, or not a primitive). Text that is not plain visible ASCII
/// (non-ASCII, control characters, surrounding spaces, or the sentinel
/// itself) goes as `=?base64?…?=`.
pub fn encode_header_value(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Bool(b) => (if *b { "true" } else { "false" }).to_owned(),
        Value::Number(n) => match n.as_i64() {
            Some(i) if i.unsigned_abs() <= 9_007_199_254_740_991 => {
                let mut text = String::new();
                crate::protocol::json_write::write_i64(&mut text, i);
                text
            }
            _ => n.to_string(),
        },
        _ => return None,
    };
    // Printable ASCII, so its only whitespace can be spaces.
    let padded = text.starts_with(' ') || text.ends_with(' ');
    let plain = text.chars().all(|c| c.is_ascii() && !c.is_ascii_control())
        && !padded
        && !(text.starts_with(SENTINEL_START) && text.ends_with(SENTINEL_END));
    Some(if plain { text } else { [SENTINEL_START, &crate::protocol::encoding::base64(text.as_bytes()), SENTINEL_END].concat() })
}

/// How deep a chain of `properties` the rules follow: a server's schema past it
/// makes the tool invalid rather than the client recurse as deep as it says.
const MAX_PROPERTY_DEPTH: usize = 32;

/// Whether any property of a tool's input schema carries `x-mcp-header`.
pub fn has_param_headers(input_schema: &Value) -> bool {
    input_schema.get("properties").is_some_and(has_annotation_below)
}

/// The `Mcp-Param-*` headers for a `tools/call` of a tool with `input_schema`:
/// each annotated property, at any depth of `properties`, read from the
/// arguments at the same path.
pub fn param_headers(input_schema: &Value, arguments: Option<&Value>) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Some(arguments) = arguments {
        mirror(input_schema, arguments, &mut headers, 0);
    }
    headers
}

fn mirror(schema: &Value, arguments: &Value, headers: &mut Vec<(String, String)>, depth: usize) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object).filter(|_| depth < MAX_PROPERTY_DEPTH) else { return };
    for (name, property) in properties {
        let Some(argument) = arguments.get(name) else { continue };
        if let Some(value) =
            property.get("x-mcp-header").and_then(Value::as_str).and_then(|header| Some((header, encode_header_value(argument)?)))
        {
            headers.push((format!("Mcp-Param-{}", value.0), value.1));
        }
        mirror(property, argument, headers, depth + 1);
    }
}

fn has_annotation_below(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| key == "x-mcp-header" || has_annotation_below(value)),
        Value::Array(items) => items.iter().any(has_annotation_below),
        _ => false,
    }
}

/// Why a tool's `x-mcp-header` annotations are invalid, if they are: the spec
/// makes the client drop such a tool from `tools/list`.
pub fn tool_header_problem(tool: &Value) -> Option<String> {
    let input = tool.get("inputSchema")?;
    let schema = input.as_object()?;
    if schema.contains_key("x-mcp-header") {
        return Some("x-mcp-header annotates the input schema itself, not a property".into());
    }
    // Most tools annotate nothing: one walk says so.
    if !has_annotation_below(input) {
        return None;
    }
    properties_problem(schema, &mut Vec::new(), &mut std::collections::HashSet::new())
}

/// `path` and then `last`, as a dotted name for messages.
#[cold]
fn dotted(path: &[&str], last: &str) -> String {
    let mut text = String::new();
    for step in path {
        text.push_str(step);
        text.push('.');
    }
    text.push_str(last);
    text
}

/// The rules for one schema, reached through the properties `path`, whose `properties` may
/// carry annotations: they are allowed only at the end of a chain of `properties` keys, not
/// through `$defs`, `items`, `oneOf` and the like (SEP-2243).
fn properties_problem<'a>(
    schema: &'a serde_json::Map<String, Value>,
    path: &mut Vec<&'a str>,
    seen: &mut std::collections::HashSet<String>,
) -> Option<String> {
    for (key, value) in schema {
        if key != "properties" && key != "x-mcp-header" && has_annotation_below(value) {
            return Some(crate::error::cold_format!("an x-mcp-header annotation is reached through {}", dotted(path, key)));
        }
    }
    let properties = schema.get("properties").and_then(Value::as_object)?;
    if path.len() >= MAX_PROPERTY_DEPTH {
        return properties.values().any(has_annotation_below).then(|| "x-mcp-header annotations lie too deep".into());
    }
    for (name, property) in properties {
        let Some(object) = property.as_object().filter(|_| has_annotation_below(property)) else { continue };
        if let Some(annotation) = object.get("x-mcp-header") {
            let Some(header) = annotation.as_str().filter(|h| !h.is_empty() && h.chars().all(is_tchar)) else {
                return Some(crate::error::cold_format!("property {}: x-mcp-header must be a header-name token", dotted(path, name)));
            };
            if !seen.insert(header.to_ascii_lowercase()) {
                return Some(crate::error::cold_format!("x-mcp-header {header:?} is used twice"));
            }
            // SEP-2243: only these carry a header; a `number` would not survive
            // the trip through a header value exactly.
            let primitive = matches!(object.get("type").and_then(Value::as_str), Some("string" | "integer" | "boolean"));
            if !primitive {
                return Some(crate::error::cold_format!(
                    "property {}: x-mcp-header needs a string, integer or boolean type",
                    dotted(path, name)
                ));
            }
        }
        path.push(name);
        let problem = properties_problem(object, path, seen);
        path.pop();
        if problem.is_some() {
            return problem;
        }
    }
    None
}
