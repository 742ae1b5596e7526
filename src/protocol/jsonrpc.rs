//! JSON-RPC 2.0 messages.
//!
//! Decoding is strict and total: any byte string yields either messages or a
//! [`DecodeError`] that says what was wrong, never a panic. Params and results
//! stay `serde_json::Value` so that fields this crate does not interpret
//! (`_meta`, extensions) reach the user untouched.

pub mod elide;
mod encode;
pub mod envelope;
mod params;

pub use params::{Params, ParamsText};

use super::json::take;
use super::json_write;
use super::pick::{has_backslash, offset_in};
use super::scan;
use serde_json::{Map, Value};
use std::fmt;

/// A request id: the spec allows a string or an integer (never `null` on a request).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RequestId {
    /// An integer id. The client allocates these.
    Number(i64),
    /// A string id, as some servers use for their own requests.
    String(String),
}

impl RequestId {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::String(s) => Some(Self::String(s.clone())),
            Value::Number(n) => n.as_i64().map(Self::Number),
            _ => None,
        }
    }

    /// Reads a `progressToken` or a `requestId` from params: a string or an integer.
    pub fn from_token(value: &Value) -> Option<Self> {
        Self::from_value(value)
    }

    /// The id as JSON.
    pub fn to_value(&self) -> Value {
        match self {
            Self::Number(n) => Value::from(*n),
            Self::String(s) => Value::from(s.as_str()),
        }
    }

    /// Appends the id as JSON: a number, or a string.
    pub(crate) fn write_json(&self, json: &mut String) {
        match self {
            Self::Number(n) => json_write::write_i64(json, *n),
            Self::String(s) => json_write::write_str(json, s),
        }
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// The `error` member of a JSON-RPC response.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorObject {
    /// The error code, e.g. −32601 for "method not found".
    pub code: i64,
    /// A short description from the server.
    pub message: String,
    /// Extra information from the server, if any.
    pub data: Option<Value>,
}

/// Standard JSON-RPC error codes the client produces or recognises.
pub mod codes {
    /// The method does not exist or is not available.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid method parameters.
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal JSON-RPC error.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// The request is not one the receiver will handle (too large, too many at once).
    pub const INVALID_REQUEST: i64 = -32600;
}

impl ErrorObject {
    /// An error object with no `data`.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), data: None }
    }

    pub(crate) fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("code".into(), Value::from(self.code));
        map.insert("message".into(), Value::from(self.message.as_str()));
        if let Some(data) = &self.data {
            map.insert("data".into(), data.clone());
        }
        Value::Object(map)
    }
}

/// One JSON-RPC message, in either direction.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// A request, which expects a response with the same id.
    Request {
        /// The request id.
        id: RequestId,
        /// The method name.
        method: String,
        /// The params, if any.
        params: Option<Params>,
    },
    /// A notification, which gets no response.
    Notification {
        /// The method name.
        method: String,
        /// The params, if any.
        params: Option<Params>,
    },
    /// A response: a result or an error. `id` is `None` only for an error the
    /// peer could not tie to a request (e.g. a parse error).
    Response {
        /// The id of the request this answers.
        id: Option<RequestId>,
        /// The result, or the error.
        outcome: Result<Value, ErrorObject>,
    },
}

impl Message {
    /// The message as a JSON value with the `"jsonrpc": "2.0"` member.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("jsonrpc".into(), Value::from("2.0"));
        match self {
            Self::Request { id, method, params } => {
                map.insert("id".into(), id.to_value());
                map.insert("method".into(), Value::from(method.as_str()));
                if let Some(params) = params {
                    map.insert("params".into(), params.to_value());
                }
            }
            Self::Notification { method, params } => {
                map.insert("method".into(), Value::from(method.as_str()));
                if let Some(params) = params {
                    map.insert("params".into(), params.to_value());
                }
            }
            Self::Response { id, outcome } => {
                map.insert("id".into(), id.as_ref().map_or(Value::Null, RequestId::to_value));
                match outcome {
                    Ok(result) => map.insert("result".into(), result.clone()),
                    Err(error) => map.insert("error".into(), error.to_value()),
                };
            }
        }
        Value::Object(map)
    }

    /// The message serialised as JSON text, without building a tree of it:
    /// as [`Message::to_value`] would write it, except that params held as
    /// text ([`Params::Text`]) go in as that text. The members come in the
    /// order `Serialize for Message` writes them (`jsonrpc`, `id`, `method`,
    /// `params`, `result`, `error`), and the text is what `serde_json` writes.
    pub fn to_json(&self) -> String {
        let params_len = match self {
            Self::Request { params: Some(Params::Text(text)), .. } | Self::Notification { params: Some(Params::Text(text)), .. } => {
                text.get().len()
            }
            _ => 0,
        };
        let mut json = String::with_capacity(params_len + 64);
        json.push_str(r#"{"jsonrpc":"2.0""#);
        match self {
            Self::Request { id, method, params } => {
                json.push_str(r#","id":"#);
                id.write_json(&mut json);
                write_call(&mut json, method, params.as_ref());
            }
            Self::Notification { method, params } => write_call(&mut json, method, params.as_ref()),
            Self::Response { id, outcome } => {
                json.push_str(r#","id":"#);
                match id {
                    Some(id) => id.write_json(&mut json),
                    None => json.push_str("null"),
                }
                match outcome {
                    Ok(result) => {
                        json.push_str(r#","result":"#);
                        json_write::write_value(&mut json, result);
                    }
                    Err(error) => {
                        json.push_str(r#","error":{"code":"#);
                        json_write::write_i64(&mut json, error.code);
                        json.push_str(r#","message":"#);
                        json_write::write_str(&mut json, &error.message);
                        if let Some(data) = &error.data {
                            json.push_str(r#","data":"#);
                            json_write::write_value(&mut json, data);
                        }
                        json.push('}');
                    }
                }
            }
        }
        json.push('}');
        json
    }

    /// The method name of a request or notification.
    pub fn method(&self) -> Option<&str> {
        match self {
            Self::Request { method, .. } | Self::Notification { method, .. } => Some(method),
            Self::Response { .. } => None,
        }
    }
}

/// A request's or notification's `method` and `params` members.
fn write_call(json: &mut String, method: &str, params: Option<&Params>) {
    json.push_str(r#","method":"#);
    json_write::write_str(json, method);
    match params {
        Some(Params::Text(text)) => {
            json.push_str(r#","params":"#);
            json.push_str(text.get());
        }
        Some(Params::Parsed(value)) => {
            json.push_str(r#","params":"#);
            json_write::write_value(json, value);
        }
        None => {}
    }
}

/// Why some bytes are not valid JSON-RPC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Not JSON at all.
    Syntax(String),
    /// JSON, but not a JSON-RPC 2.0 message.
    Shape(String),
    /// More values than the client reads
    /// ([`crate::protocol::json::MAX_VALUES`]); what the top level says of
    /// the message, to answer it.
    TooManyValues(envelope::Envelope),
}

impl DecodeError {
    /// [`DecodeError::Syntax`], or [`DecodeError::TooManyValues`] with what
    /// the message's top level says.
    #[cold]
    #[inline(never)]
    fn syntax(text: &str, error: crate::protocol::json::JsonError) -> Self {
        if error.reason == crate::protocol::json::TOO_MANY_VALUES {
            return Self::TooManyValues(envelope::scan(text.as_bytes()));
        }
        Self::Syntax(error.message())
    }

    /// [`DecodeError::Shape`]: cold, so that hot/cold splitting moves a refusal out of the decoder.
    #[cold]
    #[inline(never)]
    fn shape(why: String) -> Self {
        Self::Shape(why)
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax(e) => write!(f, "malformed JSON: {e}"),
            Self::Shape(e) => write!(f, "not a JSON-RPC 2.0 message: {e}"),
            Self::TooManyValues(_) => f.write_str(crate::protocol::json::TOO_MANY_VALUES),
        }
    }
}

/// Decodes one JSON text holding a message or, where `allow_batch` is set (the
/// 2025-03-26 revision), a non-empty array of messages.
pub fn decode(text: &str, allow_batch: bool) -> Result<Vec<Message>, DecodeError> {
    let value: Value = crate::protocol::json::parse_message(text).map_err(|e| DecodeError::syntax(text, e))?;
    match value {
        Value::Array(items) if allow_batch => {
            if items.is_empty() {
                return Err(DecodeError::shape("empty batch".into()));
            }
            items.into_iter().map(decode_value).collect()
        }
        Value::Array(_) => Err(DecodeError::shape("a batch array, which this protocol revision does not allow".into())),
        other => decode_value(other).map(|m| vec![m]),
    }
}

/// The id and the exact text of the `result` of a single response message,
/// without building a tree of it: the JS layer gives that text to
/// `JSON.parse` instead of serialising the parsed value again, which keeps the
/// server's bytes (and key order) and saves a pass over the result. Small
/// results too: the one-pass scan costs less than a tree and its text
/// (`bench/ab-overhead.mjs`: a small call 47.6 -> 40.8 us of CPU).
/// `None` for anything else: requests, errors, a `null` result, batches,
/// malformed text, anything [`decode`] would refuse (a number out of range, a
/// lone surrogate escape), and what the one-pass check leaves to the parser
/// (see [`scan::plain`]).
pub fn raw_result<'a>(text: &'a str) -> Option<(RequestId, &'a str)> {
    let mut envelope = RawEnvelope::default();
    let member = |path: &[Option<&'a str>], value| match path {
        [Some(key)] => envelope.member(key, value),
        _ => true,
    };
    if !scan::scan(text, member) || envelope.jsonrpc != Some(true) {
        return None;
    }
    Some((envelope.id?, envelope.result?))
}

/// The members of a response's envelope that [`raw_result`] reads.
#[derive(Default)]
struct RawEnvelope<'a> {
    /// `Some(true)` for `"jsonrpc":"2.0"`.
    jsonrpc: Option<bool>,
    id: Option<RequestId>,
    result: Option<&'a str>,
    seen_id: bool,
}

impl<'a> RawEnvelope<'a> {
    /// Takes one top-level member; `false` ends the scan without a raw result.
    fn member(&mut self, key: &str, value: &'a str) -> bool {
        match key {
            "jsonrpc" if self.jsonrpc.is_none() => self.jsonrpc = Some(value == r#""2.0""#),
            "id" if !self.seen_id => {
                self.seen_id = true;
                self.id = raw_id(value);
            }
            // A `null` result is left to `decode`, which has a value for it.
            "result" if self.result.is_none() && value != "null" => self.result = Some(value),
            // What makes `decode` read the text as something else or refuse it
            // (a method, an error, even `null`; params that are neither an
            // object nor an array), a repeated member,
            // and a key written with escapes, which only the parser reads.
            "params" => return matches!(value.as_bytes().first(), Some(b'{' | b'[')),
            "jsonrpc" | "id" | "result" | "method" | "error" => return false,
            other => return !has_backslash(other),
        }
        true
    }
}

/// An id as `decode` reads it: a string (here only one without escapes) or
/// an integer that fits an `i64`; `-0` is none, serde_json reads it as a
/// float.
fn raw_id(value: &str) -> Option<RequestId> {
    match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(text) if !has_backslash(text) => Some(RequestId::String(text.to_owned())),
        Some(_) => None,
        // Up to 18 digits, as the JSON reader reads them; a longer id is left to `decode`.
        None => super::json::small_integer(value).and_then(|n| n.as_i64()).map(RequestId::Number),
    }
}

/// What one JSON text held, as a transport hands it on.
#[derive(Debug, PartialEq)]
pub enum Decoded {
    /// Messages, parsed.
    Messages(Vec<Message>),
    /// One successful response to this request, its result left as the
    /// server's text (see [`raw_result`]): never built into a tree.
    RawResult(RequestId, String),
}

/// Decodes `text` as [`decode`] does, except that a single successful
/// response comes back as its result's text (the envelope checked by
/// [`raw_result`] as [`decode`] would check it).
///
/// # Errors
/// As [`decode`].
pub fn decode_or_raw(text: String, allow_batch: bool) -> Result<Decoded, DecodeError> {
    // Where the result lies in the text, so that the text's own buffer can
    // become the result's: a large result is not copied a second time.
    let found = raw_result(&text).and_then(|(id, raw)| Some((id, offset_in(&text, raw)?, raw.len())));
    match found {
        Some((id, start, length)) => {
            let end = start + length;
            let mut result = text;
            result.truncate(end);
            // `0..start`: the range type of the module's other `String::drain`, one copy of it.
            result.drain(0..start);
            // An event's data grows by doubling: give back what the result
            // does not use (shrinking reallocates in place).
            result.shrink_to_fit();
            Ok(Decoded::RawResult(id, result))
        }
        _ => decode(&text, allow_batch).map(Decoded::Messages),
    }
}

/// Decodes one already-parsed JSON value as a single message.
pub fn decode_value(value: Value) -> Result<Message, DecodeError> {
    let Value::Object(mut map) = value else {
        return Err(DecodeError::shape(crate::error::cold_format!("expected an object, found {}", kind(&value))));
    };
    match map.get("jsonrpc") {
        Some(Value::String(v)) if v == "2.0" => {}
        Some(other) => return Err(DecodeError::shape(crate::error::cold_format!("\"jsonrpc\" must be \"2.0\", found {other}"))),
        None => return Err(DecodeError::shape("missing \"jsonrpc\": \"2.0\"".into())),
    }
    let params = match take(&mut map, "params") {
        None => None,
        Some(p @ (Value::Object(_) | Value::Array(_))) => Some(Params::Parsed(p)),
        Some(other) => {
            return Err(DecodeError::shape(crate::error::cold_format!("\"params\" must be an object or array, found {}", kind(&other))))
        }
    };
    let id = map.get("id");
    if let Some(method) = map.get("method") {
        let Value::String(method) = method else {
            return Err(DecodeError::shape("\"method\" must be a string".into()));
        };
        let method = method.clone();
        return match id {
            None => Ok(Message::Notification { method, params }),
            Some(id) => match RequestId::from_value(id) {
                Some(id) => Ok(Message::Request { id, method, params }),
                None => Err(DecodeError::shape(crate::error::cold_format!("request id must be a string or an integer, found {id}"))),
            },
        };
    }
    let id = match id {
        None => return Err(DecodeError::shape("neither \"method\" nor \"id\"".into())),
        Some(Value::Null) => None,
        Some(v) => Some(
            RequestId::from_value(v)
                .ok_or_else(|| DecodeError::shape(crate::error::cold_format!("response id must be a string or an integer, found {v}")))?,
        ),
    };
    let outcome = match (take(&mut map, "result"), take(&mut map, "error")) {
        (Some(result), None) => Ok(result),
        (None, Some(error)) => Err(decode_error_object(error)?),
        (Some(_), Some(_)) => return Err(DecodeError::shape("a response has both \"result\" and \"error\"".into())),
        (None, None) => return Err(DecodeError::shape("a response has neither \"result\" nor \"error\"".into())),
    };
    if id.is_none() && outcome.is_ok() {
        return Err(DecodeError::shape("a result with a null id".into()));
    }
    Ok(Message::Response { id, outcome })
}

fn decode_error_object(value: Value) -> Result<ErrorObject, DecodeError> {
    let Value::Object(mut map) = value else {
        return Err(DecodeError::shape("\"error\" must be an object".into()));
    };
    let code = map.get("code").and_then(Value::as_i64).ok_or_else(|| DecodeError::shape("\"error.code\" must be an integer".into()))?;
    let message = match take(&mut map, "message") {
        Some(Value::String(s)) => s,
        _ => return Err(DecodeError::shape("\"error.message\" must be a string".into())),
    };
    Ok(ErrorObject { code, message, data: take(&mut map, "data") })
}

#[cfg(test)]
pub(crate) mod tests;

/// A short name for the JSON type of `value`, for error messages.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
