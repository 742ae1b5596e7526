//! The legacy-era `initialize` exchange: the params the client sends and the
//! checks on the server's answer.

use super::json::take;
use super::version;
use serde_json::{Map, Value};

/// What the server said about itself in its `initialize` result.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerIdentity {
    /// The negotiated protocol revision.
    pub protocol_version: &'static str,
    /// `capabilities`, passed through as sent.
    pub capabilities: Value,
    /// `serverInfo`, passed through as sent (it has at least `name` and `version`).
    pub server_info: Value,
    /// `instructions`, if the server sent any.
    pub instructions: Option<String>,
}

/// Why an `initialize` result was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InitializeError {
    /// The result is not shaped as the spec requires.
    Malformed(String),
    /// The server answered with a protocol revision we do not speak.
    UnsupportedVersion(String),
}

/// The params of an `initialize` request.
pub fn initialize_params(offered_version: &str, capabilities: &Value, client_info: &Value) -> Value {
    let mut params = Map::new();
    params.insert("protocolVersion".into(), Value::from(offered_version));
    params.insert("capabilities".into(), capabilities.clone());
    params.insert("clientInfo".into(), client_info.clone());
    Value::Object(params)
}

/// Checks the server's `initialize` result and negotiates the version: the
/// server either echoes our offer or counters with one it prefers, which we
/// accept only if we speak it.
pub fn accept_initialize_result(result: Value) -> Result<ServerIdentity, InitializeError> {
    let Value::Object(mut map) = result else {
        return Err(InitializeError::Malformed("the initialize result is not an object".into()));
    };
    let answered = match map.get("protocolVersion") {
        Some(Value::String(v)) => v.clone(),
        _ => return Err(InitializeError::Malformed("protocolVersion is missing or not a string".into())),
    };
    let protocol_version = version::supported(&answered).ok_or(InitializeError::UnsupportedVersion(answered))?;
    let capabilities = match take(&mut map, "capabilities") {
        Some(c @ Value::Object(_)) => c,
        // Lenient on absence: some servers omit an empty capabilities object.
        None => Value::Object(Map::new()),
        Some(_) => return Err(InitializeError::Malformed("capabilities is not an object".into())),
    };
    let server_info = match take(&mut map, "serverInfo") {
        Some(Value::Object(info)) if info.get("name").is_some_and(Value::is_string) => Value::Object(info),
        _ => return Err(InitializeError::Malformed("serverInfo is missing or has no name".into())),
    };
    let instructions = match take(&mut map, "instructions") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => return Err(InitializeError::Malformed("instructions is not a string".into())),
    };
    Ok(ServerIdentity { protocol_version, capabilities, server_info, instructions })
}

/// The longest session id the client takes. Every request carries it, and
/// the proxies in front of servers commonly refuse a header line past 8 KiB.
pub const MAX_SESSION_ID_BYTES: usize = 8 * 1024;

/// Whether a session id (a server's, or a snapshot's) is usable: the spec limits it to visible
/// ASCII (0x21–0x7E), and it goes back out in a header, at most
/// [`MAX_SESSION_ID_BYTES`] of it.
pub fn valid_session_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= MAX_SESSION_ID_BYTES && id.bytes().all(|b| (0x21..=0x7E).contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids() {
        assert!(valid_session_id("0b6c-4f1e_~!"));
        assert!(!valid_session_id(""));
        assert!(!valid_session_id("has space"));
        assert!(!valid_session_id("naïve"));
        assert!(!valid_session_id("line\nbreak"));
        assert!(valid_session_id(&"s".repeat(MAX_SESSION_ID_BYTES)));
        assert!(!valid_session_id(&"s".repeat(MAX_SESSION_ID_BYTES + 1)));
    }
}
