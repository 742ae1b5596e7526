//! A message written as JSON text straight from its parts: no tree of the
//! whole message is built first, and the text goes into a byte buffer
//! rather than through the formatting machinery. The members come in the
//! order the spec's examples use: `jsonrpc`, `id`, `method`, `params`,
//! `result`, `error`.

use super::{ErrorObject, Message, RequestId};
use serde::ser::{Serialize, SerializeMap, Serializer};

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Number(n) => serializer.serialize_i64(*n),
            Self::String(s) => serializer.serialize_str(s),
        }
    }
}

impl Serialize for ErrorObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("code", &self.code)?;
        map.serialize_entry("message", &self.message)?;
        if let Some(data) = &self.data {
            map.serialize_entry("data", data)?;
        }
        map.end()
    }
}

impl Serialize for Message {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        match self {
            Self::Request { id, method, params } => {
                map.serialize_entry("id", id)?;
                map.serialize_entry("method", method)?;
                if let Some(params) = params {
                    map.serialize_entry("params", params)?;
                }
            }
            Self::Notification { method, params } => {
                map.serialize_entry("method", method)?;
                if let Some(params) = params {
                    map.serialize_entry("params", params)?;
                }
            }
            Self::Response { id, outcome } => {
                map.serialize_entry("id", id)?;
                match outcome {
                    Ok(result) => map.serialize_entry("result", result)?,
                    Err(error) => map.serialize_entry("error", error)?,
                }
            }
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ErrorObject, Message, RequestId};
    use serde_json::json;

    #[test]
    fn the_text_is_the_value_written_out() {
        let messages = [
            Message::Request {
                id: RequestId::Number(7),
                method: "tools/call".into(),
                params: Some(json!({"name": "é\"\n", "b": [1.5, null]}).into()),
            },
            Message::Request { id: RequestId::String("a\"b".into()), method: "ping".into(), params: None },
            Message::Notification { method: "notifications/initialized".into(), params: None },
            Message::Notification { method: "n".into(), params: Some(json!({"z": 1, "a": 2}).into()) },
            Message::Response { id: Some(RequestId::Number(-3)), outcome: Ok(json!({"roots": []})) },
            Message::Response { id: None, outcome: Err(ErrorObject { code: -32700, message: "parse".into(), data: None }) },
            Message::Response {
                id: Some(RequestId::Number(1)),
                outcome: Err(ErrorObject { code: -32602, message: "bad".into(), data: Some(json!({"why": 1})) }),
            },
        ];
        for message in messages {
            assert_eq!(message.to_json(), message.to_value().to_string(), "{message:?}");
        }
        // Large params held as their text go in as that text, in the same place.
        let text = json!({"name": "t\"é", "arguments": {"text": "x".repeat(20_000), "n": [1.5, -0.0]}}).to_string();
        let params = || Some(super::super::Params::from_text(text.clone()).unwrap());
        assert!(matches!(params(), Some(super::super::Params::Text(_))));
        for message in [
            Message::Request { id: RequestId::String("r\"1".into()), method: "tools/call".into(), params: params() },
            Message::Request { id: RequestId::Number(-9), method: "m\u{1}".into(), params: params() },
            Message::Notification { method: "notifications/x".into(), params: params() },
        ] {
            assert_eq!(message.to_json(), message.to_value().to_string());
            assert_eq!(message.to_json(), serde_json::to_string(&message).unwrap());
        }
    }
}
