//! What a connection needs to continue in a later process (a Worker's next
//! invocation, a page after a reload) without a new handshake: the era, the
//! negotiated revision, the session id, where the GET stream left off, and
//! what the server declared (not its `instructions`, which can run to
//! kilobytes), and what the client told the server it wants (its logging
//! level and resource subscriptions). Small, plain JSON, versioned.

use crate::protocol::json_write::{write_str, write_u64, write_value};
use crate::protocol::lifecycle::ServerIdentity;
use crate::protocol::{modern, version};
use serde_json::Value;

/// The format written by this release; older formats are refused by name.
pub const FORMAT: u64 = 1;

/// The most JSON of `capabilities` and `serverInfo` together that a snapshot
/// keeps. Every snapshot carries them, and a server that declared megabytes
/// would make one too large for where snapshots are kept (a Durable
/// Object's value, a KV entry, `sessionStorage`).
pub const MAX_DECLARED_BYTES: usize = 64 * 1024;

/// Refuses to snapshot what a server declared past [`MAX_DECLARED_BYTES`].
pub(crate) fn check_declared_size(identity: &ServerIdentity) -> Result<(), crate::error::Error> {
    let mut declared = String::new();
    write_value(&mut declared, &identity.capabilities);
    write_value(&mut declared, &identity.server_info);
    if declared.len() <= MAX_DECLARED_BYTES {
        return Ok(());
    }
    Err(crate::error::Error::LimitExceeded {
        limit: "snapshot",
        message: crate::error::cold_format!(
            "the server declared {} bytes of capabilities and serverInfo, and a snapshot keeps {MAX_DECLARED_BYTES} at most",
            declared.len()
        ),
    })
}

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
    /// The level set with `set_logging_level`. The modern era sends it with
    /// every request; a renewed legacy session is told it again.
    pub log_level: Option<String>,
    /// The subscribed resources, sorted. The modern era listens for them; a
    /// renewed legacy session is subscribed to them again.
    pub subscriptions: Vec<String>,
}

impl Snapshot {
    /// The JSON form handed to users (camelCase, `format` first).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.to_text()).unwrap_or_default()
    }

    /// [`Snapshot::to_value`] as JSON text, written without building the
    /// value first: what `McpClient.snapshot()` hands to `JSON.parse`.
    pub fn to_text(&self) -> String {
        let mut out = String::from("{\"format\":");
        write_u64(&mut out, FORMAT);
        let mut field = |name: &str, value: &str| {
            out.push_str(",\"");
            out.push_str(name);
            out.push_str("\":");
            write_str(&mut out, value);
        };
        field("url", &self.url);
        field("era", if self.modern { "modern" } else { "legacy" });
        field("transport", &self.transport);
        field("protocolVersion", self.identity.protocol_version);
        if let Some(id) = &self.session_id {
            field("sessionId", id);
        }
        if let Some(id) = &self.last_event_id {
            field("lastEventId", id);
        }
        out.push_str(",\"serverCapabilities\":");
        write_value(&mut out, &self.identity.capabilities);
        out.push_str(",\"serverInfo\":");
        write_value(&mut out, &self.identity.server_info);
        if self.log_level.is_some() || !self.subscriptions.is_empty() {
            self.write_told(&mut out);
        }
        out.push('}');
        out
    }

    /// The logging level and subscriptions, into the text of `to_text`.
    /// Apart from it, for the reason `ClientState::tell` is apart from
    /// `Client::snapshot`.
    #[inline(never)]
    fn write_told(&self, out: &mut String) {
        if let Some(level) = &self.log_level {
            out.push_str(",\"logLevel\":");
            write_str(out, level);
        }
        if let Some((first, others)) = self.subscriptions.split_first() {
            out.push_str(",\"subscriptions\":[");
            write_str(out, first);
            for uri in others {
                out.push(',');
                write_str(out, uri);
            }
            out.push(']');
        }
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
            log_level: log_level(optional("logLevel")?)?,
            subscriptions: subscriptions(object.get("subscriptions"))?,
        })
    }
}

/// `logLevel`, one of the levels `set_logging_level` takes.
fn log_level(level: Option<String>) -> Result<Option<String>, String> {
    match level {
        Some(level) if !super::connection::LOGGING_LEVELS.contains(&level.as_str()) => {
            Err(format!("snapshot.logLevel {level:?} is not a logging level"))
        }
        level => Ok(level),
    }
}

/// `subscriptions`, sorted and without repeats as the client keeps them.
fn subscriptions(value: Option<&Value>) -> Result<Vec<String>, String> {
    let uris = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(uris)) => uris,
        Some(_) => return Err("snapshot.subscriptions must be an array of URIs".into()),
    };
    let mut uris = uris
        .iter()
        .map(|uri| uri.as_str().map(str::to_owned).ok_or_else(|| "snapshot.subscriptions must be an array of URIs".to_owned()))
        .collect::<Result<Vec<_>, _>>()?;
    uris.sort_unstable();
    uris.dedup();
    Ok(uris)
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
            log_level: Some("error".into()),
            subscriptions: vec!["file:///a".into(), "file:///b".into()],
        }
    }

    #[test]
    fn the_text_is_the_values_text_in_order() {
        for snapshot in
            [legacy(), Snapshot { session_id: None, last_event_id: None, log_level: None, subscriptions: Vec::new(), ..legacy() }]
        {
            let text = snapshot.to_text();
            assert_eq!(serde_json::to_string(&snapshot.to_value()).unwrap(), text);
            assert!(text.starts_with(r#"{"format":1,"url":"http://127.0.0.1:1/mcp","era":"legacy","#), "{text}");
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
        assert_eq!(
            (&snapshot.to_value()["logLevel"], &snapshot.to_value()["subscriptions"]),
            (&json!("error"), &json!(["file:///a", "file:///b"]))
        );
    }

    /// A snapshot written before the client kept these reads as one that
    /// set no level and subscribed to nothing; what storage holds unsorted
    /// is sorted, as the client keeps it.
    #[test]
    fn the_level_and_subscriptions_are_optional_and_read_sorted() {
        let mut value = legacy().to_value();
        let object = value.as_object_mut().unwrap();
        object.remove("logLevel");
        object.insert("subscriptions".into(), json!(["file:///b", "file:///a", "file:///b"]));
        let read = Snapshot::from_value(&value).unwrap();
        assert_eq!((read.log_level, read.subscriptions), (None, vec!["file:///a".to_owned(), "file:///b".to_owned()]));
        let bare = Snapshot { log_level: None, subscriptions: Vec::new(), ..legacy() }.to_value();
        assert!(bare.get("logLevel").is_none() && bare.get("subscriptions").is_none());
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
        assert!(with("logLevel", json!("loud")).contains("snapshot.logLevel"));
        assert!(with("logLevel", json!(3)).contains("snapshot.logLevel"));
        assert!(with("subscriptions", json!("file:///a")).contains("snapshot.subscriptions"));
        assert!(with("subscriptions", json!([1])).contains("snapshot.subscriptions"));
        let mut modern = good.clone();
        modern["era"] = json!("modern");
        modern["protocolVersion"] = json!(modern::VERSION);
        assert!(Snapshot::from_value(&modern).unwrap_err().contains("no sessions"));
        let mut no_format = good;
        no_format.as_object_mut().unwrap().remove("format");
        assert!(Snapshot::from_value(&no_format).unwrap_err().contains("not a snapshot"));
    }
}
