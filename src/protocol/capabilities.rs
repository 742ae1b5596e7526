//! Capabilities: which server capability each method needs, and the client
//! capabilities that follow from the handlers the user passed.

use serde_json::{json, Map, Value};

/// The server capability `method` needs, as a path into `capabilities`
/// (e.g. `["resources", "subscribe"]`), or `None` if any server must accept it.
pub fn required_by(method: &str) -> Option<&'static [&'static str]> {
    Some(match method {
        "tools/list" | "tools/call" => &["tools"],
        "resources/list" | "resources/templates/list" | "resources/read" => &["resources"],
        "resources/subscribe" | "resources/unsubscribe" => &["resources", "subscribe"],
        "prompts/list" | "prompts/get" => &["prompts"],
        "completion/complete" => &["completions"],
        "logging/setLevel" => &["logging"],
        "tasks/list" => &["tasks", "list"],
        "tasks/cancel" => &["tasks", "cancel"],
        "tasks/get" | "tasks/result" => &["tasks"],
        "skills/list" => &["extensions", "io.modelcontextprotocol/skills"],
        _ => return None,
    })
}

/// Whether `capabilities` declares `path`: every step present, and a boolean
/// flag at the end (like `subscribe`) true.
pub fn declares(capabilities: &Value, path: &[&str]) -> bool {
    let mut node = capabilities;
    for step in path {
        match node.get(step) {
            None | Some(Value::Null) | Some(Value::Bool(false)) => return false,
            Some(next) => node = next,
        }
    }
    true
}

/// Checks that the server declared what `method` needs; the message names it.
pub fn check_server_supports(capabilities: &Value, method: &str) -> Result<(), String> {
    required_by(method).map_or(Ok(()), |path| check_declared(capabilities, method, path))
}

/// Checks that a server of revision `version` offers `completion/complete`.
/// 2024-11-05 had no `completions` capability: a server completed the
/// arguments of the prompts and resource templates it declared.
pub fn check_completion(capabilities: &Value, version: &str) -> Result<(), String> {
    if version == "2024-11-05" && (declares(capabilities, &["prompts"]) || declares(capabilities, &["resources"])) {
        return Ok(());
    }
    check_server_supports(capabilities, "completion/complete")
}

/// Checks that the server declared `path`, which `method` needs; the message
/// names both.
pub fn check_declared(capabilities: &Value, method: &str, path: &[&str]) -> Result<(), String> {
    if declares(capabilities, path) {
        return Ok(());
    }
    Err(crate::error::cold_format!("{method}: the server did not declare the \"{}\" capability", path.join(".")))
}

/// Which client handlers exist.
#[derive(Debug, Clone, Copy, Default)]
pub struct HandlerSet {
    /// A `sampling/createMessage` handler.
    pub sampling: bool,
    /// An `elicitation/create` handler.
    pub elicitation: bool,
    /// A `roots/list` handler.
    pub roots: bool,
}

/// The client capabilities to declare: one per handler present, then the
/// user's `extra` merged over them (for sub-capabilities such as
/// `sampling.tools`, or experimental ones).
pub fn client_capabilities(handlers: HandlerSet, extra: Option<&Value>) -> Value {
    let mut capabilities = Map::new();
    if handlers.sampling {
        capabilities.insert("sampling".into(), json!({}));
    }
    if handlers.elicitation {
        capabilities.insert("elicitation".into(), json!({ "form": {}, "url": {} }));
    }
    if handlers.roots {
        capabilities.insert("roots".into(), json!({ "listChanged": true }));
    }
    let mut capabilities = Value::Object(capabilities);
    if let Some(extra) = extra {
        merge(&mut capabilities, extra);
    }
    capabilities
}

/// Deep-merges `patch` into `base`: objects merge key by key, `null` removes, anything else replaces.
fn merge(base: &mut Value, patch: &Value) {
    match (base, patch) {
        (Value::Object(base), Value::Object(patch)) => {
            // By `insert` and `get_mut`, not `entry`, whose search the first call's module
            // would carry for this alone.
            for (key, value) in patch {
                // `null` takes away what a handler declares (elicitation's `url`, say).
                if value.is_null() {
                    base.remove(key);
                    continue;
                }
                if !base.contains_key(key) {
                    base.insert(key.clone(), Value::Null);
                }
                if let Some(slot) = base.get_mut(key) {
                    merge(slot, value);
                }
            }
        }
        (base, patch) => *base = patch.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_capability_checks() {
        let caps = json!({"tools": {}, "resources": {"subscribe": false}, "logging": {}, "tasks": {"list": {}}});
        assert!(check_server_supports(&caps, "tools/call").is_ok());
        assert!(check_server_supports(&caps, "resources/read").is_ok());
        assert!(check_server_supports(&caps, "resources/subscribe").is_err());
        assert!(check_server_supports(&caps, "prompts/get").is_err());
        assert!(check_server_supports(&caps, "tasks/list").is_ok());
        assert!(check_server_supports(&caps, "tasks/cancel").is_err());
        assert!(check_server_supports(&json!({}), "ping").is_ok());
        let message = check_server_supports(&json!({}), "completion/complete").unwrap_err();
        assert!(message.contains("\"completions\""), "{message}");
    }

    #[test]
    fn capabilities_follow_handlers_and_extras_merge() {
        assert_eq!(client_capabilities(HandlerSet::default(), None), json!({}));
        let all = HandlerSet { sampling: true, elicitation: true, roots: true };
        // `null` takes away what a handler declares: a schema-valid form-only elicitation.
        let extra = json!({"sampling": {"tools": {}}, "elicitation": {"url": null}, "experimental": {"x": {}}});
        assert_eq!(
            client_capabilities(all, Some(&extra)),
            json!({
                "sampling": {"tools": {}},
                "elicitation": {"form": {}},
                "roots": {"listChanged": true},
                "experimental": {"x": {}}
            })
        );
    }
}
