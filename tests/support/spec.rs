//! Validates what the client sent against the MCP specification's JSON Schema,
//! with the crate's own validator. The schemas are vendored in `spec/`
//! (see `spec/README.md`).

use mcp_wasm::protocol::schema::validate_at;
use serde_json::Value;
use std::collections::HashMap;

const SPEC_2025_11_25: &str = include_str!("../../spec/2025-11-25/schema.json");
const SPEC_2026_07_28: &str = include_str!("../../spec/2026-07-28/schema.json");

/// The `$defs` name of each client request and notification, by method.
fn definitions(spec: &Value) -> HashMap<String, String> {
    let mut by_method = HashMap::new();
    for union in ["ClientRequest", "ClientNotification"] {
        let members = spec["$defs"][union]["anyOf"].as_array().cloned().unwrap_or_default();
        for member in members {
            let Some(name) = member["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")) else { continue };
            if let Some(method) = spec["$defs"][name]["properties"]["method"]["const"].as_str() {
                by_method.insert(method.to_owned(), name.to_owned());
            }
        }
    }
    by_method
}

/// Checks every JSON-RPC message in `bodies` (the POST bodies the client
/// sent) against the 2025-11-25 schema, except the era probe
/// (`server/discover`), which is checked against 2026-07-28. Panics with the
/// first message that does not match. Returns how many were checked.
#[allow(dead_code)] // each test binary uses one of the two
pub fn assert_valid_messages(bodies: &[String]) -> usize {
    assert_valid_against(bodies, false)
}

/// Checks every message against the 2026-07-28 schema (a modern session).
#[allow(dead_code)]
pub fn assert_valid_modern_messages(bodies: &[String]) -> usize {
    assert_valid_against(bodies, true)
}

fn assert_valid_against(bodies: &[String], modern: bool) -> usize {
    let legacy: Value = serde_json::from_str(SPEC_2025_11_25).expect("the spec schema is JSON");
    let newest: Value = serde_json::from_str(SPEC_2026_07_28).expect("the spec schema is JSON");
    let (legacy_methods, modern_methods) = (definitions(&legacy), definitions(&newest));
    let mut checked = 0;
    for body in bodies {
        let message: Value = serde_json::from_str(body).expect("the client sends JSON");
        let is_modern = modern || message.get("method").and_then(Value::as_str) == Some("server/discover");
        let (spec, by_method) = if is_modern { (&newest, &modern_methods) } else { (&legacy, &legacy_methods) };
        let definition = match message.get("method").and_then(Value::as_str) {
            Some(method) => by_method.get(method).cloned().unwrap_or_else(|| panic!("the spec has no client message {method}")),
            None if message.get("error").is_some() => "JSONRPCErrorResponse".to_owned(),
            None => "JSONRPCResultResponse".to_owned(),
        };
        if let Err(e) = validate_at(spec, &format!("/$defs/{definition}"), &message) {
            panic!("{body} does not match {definition}: {e}");
        }
        checked += 1;
    }
    checked
}
