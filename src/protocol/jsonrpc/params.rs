//! A request's params as they go out: parsed, or, for large params that
//! came from JS as `JSON.stringify`'s text, that text itself, which goes
//! into the message as it is. Building a tree of a large argument only to
//! write it out again cost more than the rest of a call.

use super::{may_need_conversion, RAW_RESULT_MIN};
use crate::protocol::pick::{member, pick, Pick};
use serde::ser::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::rc::Rc;

/// The params of an outgoing request or notification: a JSON object.
#[derive(Clone, Debug)]
pub enum Params {
    /// Parsed.
    Parsed(Value),
    /// The text of an object, checked to be JSON that the parser reads
    /// back as it is (see [`Params::from_text`]).
    Text(Rc<RawValue>),
}

impl PartialEq for Params {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Parsed(a), Self::Parsed(b)) => a == b,
            _ => self.to_value() == other.to_value(),
        }
    }
}

impl From<Value> for Params {
    fn from(value: Value) -> Self {
        Self::Parsed(value)
    }
}

impl Serialize for Params {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Parsed(value) => value.serialize(serializer),
            Self::Text(raw) => raw.as_ref().serialize(serializer),
        }
    }
}

/// JSON's whitespace.
const SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// The first byte that is not JSON whitespace.
fn first_byte(text: &str) -> Option<u8> {
    text.bytes().find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

impl Params {
    /// Params from an object's JSON text: kept as text when it is large
    /// (at least [`RAW_RESULT_MIN`] bytes); parsed when it is small, or
    /// when it holds what only parsing refuses or changes (a number out of
    /// range, a lone surrogate, deep nesting), so that it is refused as
    /// parsed params would be.
    ///
    /// # Errors
    /// The parser's message, for a text that is not JSON.
    pub fn from_text(text: String) -> Result<Self, String> {
        if text.len() < RAW_RESULT_MIN || may_need_conversion(&text) || first_byte(&text) != Some(b'{') {
            return serde_json::from_str(&text).map(Self::Parsed).map_err(|e| e.to_string());
        }
        RawValue::from_string(text).map(|raw| Self::Text(Rc::from(raw))).map_err(|e| e.to_string())
    }

    /// The params as a value, parsed from the text if need be.
    pub fn to_value(&self) -> Value {
        match self {
            Self::Parsed(value) => value.clone(),
            Self::Text(raw) => parse(raw.get()),
        }
    }

    /// The params as a value, to keep.
    pub fn into_value(self) -> Value {
        match self {
            Self::Parsed(value) => value,
            Self::Text(raw) => parse(raw.get()),
        }
    }

    /// The params as compact JSON text.
    pub fn to_json(&self) -> String {
        match self {
            Self::Parsed(value) => serde_json::to_string(value).unwrap_or_default(),
            Self::Text(raw) => raw.get().to_owned(),
        }
    }

    /// One top-level member, parsed; read from the text without a tree of
    /// the rest.
    pub fn member(&self, name: &str) -> Option<Value> {
        match self {
            Self::Parsed(value) => value.get(name).cloned(),
            Self::Text(raw) => match pick(raw.get(), Pick { names: [name, "", "", ""], items: None }) {
                Some((fields, _)) => member(&fields, 0).map(|raw| parse(raw.get())),
                // A key with an escape in it: only the parsed value can tell.
                None => parse(raw.get()).get(name).cloned(),
            },
        }
    }

    /// These params with `members` set in their `_meta` object (one is made
    /// if there is none, or replaces a `_meta` that is not an object). Text
    /// without a `_meta` stays text: the new member is written in before its
    /// closing brace, where parsing and inserting would have put it.
    pub fn with_meta(self, members: Map<String, Value>) -> Self {
        if let Self::Text(raw) = &self {
            let has_meta =
                pick(raw.get(), Pick { names: ["_meta", "", "", ""], items: None }).is_none_or(|(fields, _)| member(&fields, 0).is_some());
            if !has_meta {
                return append_member(raw.get(), "_meta", &Value::Object(members))
                    .map_or_else(|| Self::Parsed(parse(raw.get())), Self::Text);
            }
        }
        let mut params = match self.into_value() {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let entry = params.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        if let Value::Object(meta) = entry {
            meta.extend(members);
        }
        Self::Parsed(Value::Object(params))
    }
}

/// The text was read as JSON when the params were made: this does not fail
/// (depth past the parser's limit was sent to the parsed form then).
fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// An object's text with `"name": value` written in as its last member.
fn append_member(object: &str, name: &str, value: &Value) -> Option<Rc<RawValue>> {
    let body = object.trim_end_matches(SPACE).strip_suffix('}')?;
    let empty = body.trim_start_matches(SPACE).strip_prefix('{')?.trim_matches(SPACE).is_empty();
    let mut text = String::with_capacity(object.len() + 64);
    text.push_str(body);
    if !empty {
        text.push(',');
    }
    text.push_str(&serde_json::to_string(name).ok()?);
    text.push(':');
    text.push_str(&serde_json::to_string(value).ok()?);
    text.push('}');
    RawValue::from_string(text).ok().map(Rc::from)
}

#[cfg(test)]
mod tests {
    use super::Params;
    use serde_json::{json, Value};

    fn large(members: Value) -> String {
        let mut value = json!({"name": "t", "arguments": {"text": "x".repeat(20_000)}});
        if let (Some(map), Value::Object(more)) = (value.as_object_mut(), members) {
            map.extend(more);
        }
        value.to_string()
    }

    #[test]
    fn large_params_stay_text_and_small_ones_are_parsed() {
        assert!(matches!(Params::from_text(large(json!({}))), Ok(Params::Text(_))));
        assert!(matches!(Params::from_text(r#"{"name":"t"}"#.into()), Ok(Params::Parsed(_))));
        // What parsing refuses is refused as before, however large.
        let lone = large(json!({})).replacen("xxxx", "\\ud800", 1);
        assert!(Params::from_text(lone).is_err());
        assert!(Params::from_text(format!("{}{}", "[".repeat(200), "]".repeat(200))).is_err());
        assert!(Params::from_text(large(json!({})).replacen('}', "", 1)).is_err());
    }

    #[test]
    fn text_params_read_and_write_as_the_parsed_ones() {
        let text = large(json!({"_meta": {"a": 1}}));
        let params = Params::from_text(text.clone()).unwrap();
        let parsed = Params::Parsed(serde_json::from_str(&text).unwrap());
        assert_eq!(params.member("name"), Some(json!("t")));
        assert_eq!(params.member("_meta"), parsed.member("_meta"));
        assert_eq!(params.to_json(), text, "the text goes out as it came");
        assert_eq!(serde_json::to_string(&params).unwrap(), text);
        assert_eq!(params, parsed);
    }

    #[test]
    fn meta_is_written_into_the_text_where_parsing_would_put_it() {
        let add = || json!({"progressToken": 7}).as_object().cloned().unwrap();
        for text in [large(json!({})), large(json!({"_meta": {"a": 1}})), large(json!({"_meta": 5}))] {
            let parsed = Params::Parsed(serde_json::from_str(&text).unwrap()).with_meta(add());
            let spliced = Params::from_text(text.clone()).unwrap().with_meta(add());
            assert_eq!(spliced.to_json(), parsed.to_json(), "same members, same order");
        }
        let kept = Params::from_text(large(json!({}))).unwrap().with_meta(add());
        assert!(matches!(kept, Params::Text(_)), "text without _meta stays text");
        let empty = Params::Text(serde_json::value::RawValue::from_string(" { } ".into()).unwrap().into()).with_meta(add());
        assert_eq!(empty.to_json(), r#"{ "_meta":{"progressToken":7}}"#);
    }
}
