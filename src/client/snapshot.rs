//! What a connection needs to continue in a later process (a Worker's next
//! invocation, a page after a reload) without a new handshake: the era, the
//! negotiated revision, the session id, where the GET stream left off, and
//! what the server declared (not its `instructions`, which can run to
//! kilobytes). Small, plain JSON, versioned.

use crate::protocol::lifecycle::ServerIdentity;
use crate::protocol::{modern, version};
use serde_json::{Map, Value};

/// The format written by this release; older formats are refused by name.
pub const FORMAT: u64 = 1;

/// A connection at rest.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The MCP endpoint.
    pub url: String,
    /// `true` for 2026-07-28 (no session; `server/discover`'s result is kept).
    pub modern: bool,
    /// `"streamable-http"` or `"sse"`.
    pub transport: String,
    /// The negotiated revision and what the server declared.
    pub identity: ServerIdentity,
    /// The `Mcp-Session-Id`, if the server issued one.
    pub session_id: Option<String>,
    /// The last event id seen on the GET stream, to resume it.
    pub last_event_id: Option<String>,
}

impl Snapshot {
    /// The JSON form handed to users (camelCase, `format` first).
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("format".into(), Value::from(FORMAT));
        object.insert("url".into(), Value::from(self.url.as_str()));
        object.insert("era".into(), Value::from(if self.modern { "modern" } else { "legacy" }));
        object.insert("transport".into(), Value::from(self.transport.as_str()));
        object.insert("protocolVersion".into(), Value::from(self.identity.protocol_version));
        if let Some(id) = &self.session_id {
            object.insert("sessionId".into(), Value::from(id.as_str()));
        }
        if let Some(id) = &self.last_event_id {
            object.insert("lastEventId".into(), Value::from(id.as_str()));
        }
        object.insert("serverCapabilities".into(), self.identity.capabilities.clone());
        object.insert("serverInfo".into(), self.identity.server_info.clone());
        Value::Object(object)
    }

    /// Reads a snapshot, checking every field, so that a corrupted or
    /// foreign value in storage is refused with a reason instead of
    /// producing a connection that fails later.
    ///
    /// # Errors
    /// What is wrong, naming the field.
    pub fn from_value(value: &Value) -> Result<Self, String> {
        let object = value.as_object().ok_or("a snapshot must be an object")?;
        let text = |name: &str| object.get(name).and_then(Value::as_str);
        let optional = |name: &str| match object.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("snapshot.{name} must be a string")),
        };
        match object.get("format").and_then(Value::as_u64) {
            Some(FORMAT) => {}
            Some(other) => return Err(format!("snapshot format {other} is not supported (this release reads format {FORMAT})")),
            None => return Err("snapshot.format is missing: this is not a snapshot".into()),
        }
        let url = text("url").ok_or("snapshot.url must be a string")?.to_owned();
        let modern = match text("era") {
            Some("modern") => true,
            Some("legacy") => false,
            _ => return Err("snapshot.era must be \"legacy\" or \"modern\"".into()),
        };
        let transport = match text("transport") {
            Some(t @ ("streamable-http" | "sse")) => t.to_owned(),
            _ => return Err("snapshot.transport must be \"streamable-http\" or \"sse\"".into()),
        };
        let requested = text("protocolVersion").ok_or("snapshot.protocolVersion must be a string")?;
        let protocol_version =
            if modern { (requested == modern::VERSION).then_some(modern::VERSION) } else { version::supported(requested) }.ok_or_else(
                || format!("snapshot.protocolVersion {requested:?} is not spoken in the {} era", if modern { "modern" } else { "legacy" }),
            )?;
        let capabilities =
            object.get("serverCapabilities").filter(|c| c.is_object()).cloned().ok_or("snapshot.serverCapabilities must be an object")?;
        let server_info = object.get("serverInfo").filter(|c| c.is_object()).cloned().ok_or("snapshot.serverInfo must be an object")?;
        let session_id = optional("sessionId")?;
        // Checked as a server's would be: one that could not go out in a header would fail
        // every call of the resumed client the same way, and never be renewed.
        if session_id.as_deref().is_some_and(|id| !crate::protocol::lifecycle::valid_session_id(id)) {
            return Err("snapshot.sessionId must be 1 to 8192 visible ASCII characters".into());
        }
        if modern && session_id.is_some() {
            return Err("snapshot.sessionId cannot be set in the modern era, which has no sessions".into());
        }
        Ok(Self {
            url,
            modern,
            transport,
            // Instructions can run to kilobytes; a snapshot stays small without them.
            identity: ServerIdentity { protocol_version, capabilities, server_info, instructions: None },
            session_id,
            last_event_id: optional("lastEventId")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn legacy() -> Snapshot {
        Snapshot {
            url: "http://127.0.0.1:1/mcp".into(),
            modern: false,
            transport: "streamable-http".into(),
            identity: ServerIdentity {
                protocol_version: "2025-06-18",
                capabilities: json!({ "tools": { "listChanged": true } }),
                server_info: json!({ "name": "s", "version": "1" }),
                instructions: None,
            },
            session_id: Some("abc".into()),
            last_event_id: Some("7".into()),
        }
    }

    #[test]
    fn round_trips_through_json_text() {
        let snapshot = legacy();
        let text = snapshot.to_value().to_string();
        let back = Snapshot::from_value(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, snapshot);
        assert_eq!(snapshot.to_value()["era"], "legacy");
        assert_eq!(snapshot.to_value()["sessionId"], "abc");
    }

    #[test]
    fn a_stateless_modern_connection_has_no_session_fields() {
        let snapshot = Snapshot { modern: true, session_id: None, last_event_id: None, ..legacy() };
        let snapshot = Snapshot { identity: ServerIdentity { protocol_version: modern::VERSION, ..snapshot.identity.clone() }, ..snapshot };
        let value = snapshot.to_value();
        assert!(value.get("sessionId").is_none() && value.get("lastEventId").is_none());
        assert_eq!(Snapshot::from_value(&value).unwrap(), snapshot);
    }

    #[test]
    fn bad_snapshots_are_refused_with_the_field_named() {
        let good = legacy().to_value();
        let with = |key: &str, value: Value| {
            let mut v = good.clone();
            v[key] = value;
            Snapshot::from_value(&v).unwrap_err()
        };
        assert!(Snapshot::from_value(&json!("x")).unwrap_err().contains("object"));
        assert!(with("format", json!(2)).contains("format 2"));
        assert!(with("era", json!("future")).contains("snapshot.era"));
        assert!(with("transport", json!("custom")).contains("snapshot.transport"));
        assert!(with("protocolVersion", json!("2026-07-28")).contains("legacy era"));
        assert!(with("protocolVersion", json!("1999-01-01")).contains("1999-01-01"));
        assert!(with("sessionId", json!(5)).contains("snapshot.sessionId"));
        assert!(with("sessionId", json!("abc\r\nX-Injected: 1")).contains("snapshot.sessionId"));
        assert!(with("sessionId", json!("s".repeat(8193))).contains("snapshot.sessionId"));
        assert!(with("sessionId", json!("")).contains("snapshot.sessionId"));
        assert!(with("serverCapabilities", json!([])).contains("serverCapabilities"));
        assert!(with("url", Value::Null).contains("snapshot.url"));
        let mut modern = good.clone();
        modern["era"] = json!("modern");
        modern["protocolVersion"] = json!(modern::VERSION);
        assert!(Snapshot::from_value(&modern).unwrap_err().contains("no sessions"));
        let mut no_format = good;
        no_format.as_object_mut().unwrap().remove("format");
        assert!(Snapshot::from_value(&no_format).unwrap_err().contains("not a snapshot"));
    }
}
