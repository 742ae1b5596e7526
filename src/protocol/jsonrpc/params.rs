//! A request's params as they go out: parsed, or, for params that came
//! from JS as `JSON.stringify`'s text, that text itself, which goes into the
//! message as it is. Building a tree of an argument only to write it out
//! again cost more than the rest of a call.

use crate::protocol::json::single;
use crate::protocol::pick::{first_byte, member, offset_in, pick, sole_member, trim_end_space, trim_space, trim_start_space, Pick};
use crate::protocol::scan;
use serde::ser::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::rc::Rc;

/// The params of an outgoing request or notification: a JSON object.
#[derive(Clone, Debug)]
pub enum Params {
    /// Parsed.
    Parsed(Value),
    /// The text of an object, as [`Params::from_text`] checked it.
    Text(ParamsText),
}

/// The JSON text of an object that the parser reads back as it is: only
/// [`Params::from_text`] makes one, of a text that [`scan::plain`] accepted.
#[derive(Clone, Debug)]
pub struct ParamsText(Rc<str>);

impl ParamsText {
    /// `text`, if [`scan::plain`] accepts it.
    fn checked(text: String) -> Option<Self> {
        scan::plain(&text).then(|| Self::trimmed(text))
    }

    /// JSON `text` without the whitespace around it, which a message has
    /// no use for.
    fn trimmed(text: String) -> Self {
        let inner = trim_space(&text);
        Self(if inner.len() == text.len() { Rc::from(text) } else { Rc::from(inner) })
    }

    /// The text.
    pub fn get(&self) -> &str {
        &self.0
    }
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

/// Text params are written as their parsed value here; the message's own
/// writer ([`super::Message::to_json`]) puts the text in as it is.
impl Serialize for Params {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Parsed(value) => value.serialize(serializer),
            Self::Text(text) => parse(text.get()).serialize(serializer),
        }
    }
}

impl Params {
    /// Params from an object's JSON text: kept as text, or parsed when it
    /// holds what only parsing refuses or changes (a number out of range, a
    /// lone surrogate, deep nesting), so that it is refused as parsed params
    /// would be. Anything but an object is parsed, and refused by the caller.
    ///
    /// # Errors
    /// The parser's message, for a text that is not JSON.
    pub fn from_text(text: String) -> Result<Self, String> {
        if first_byte(&text) != Some(b'{') || !scan::plain(&text) {
            return crate::protocol::json::parse(&text).map(Self::Parsed).map_err(|e| e.message());
        }
        Ok(Self::Text(ParamsText::trimmed(text)))
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

    /// The params as JSON text: parsed ones written compactly, text as it is.
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
                Some((fields, _)) => member(&fields, 0).map(parse),
                // A key with an escape in it: only the parsed value can tell.
                None => parse(raw.get()).get(name).cloned(),
            },
        }
    }

    /// These params with `members` set in their `_meta` object (one is made
    /// if there is none, or replaces a `_meta` that is not an object). Text
    /// stays text, the members written in where parsing and inserting would
    /// have put them: a new `_meta` last in the params, new members last in
    /// an existing `_meta`. Only what a text cannot show safely (a `_meta`
    /// that is not an object or is given twice, a member it already has, a
    /// key written with escapes) goes the parsed way.
    pub fn with_meta(self, members: Map<String, Value>) -> Self {
        if let Self::Text(text) = &self {
            if let Some(written) = meta_written_into(text.get(), &members) {
                return Self::Text(written);
            }
        }
        let mut params = match self.into_value() {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        // By `insert` and `get_mut`, as `json::single` says, not `entry` or `extend`.
        if !params.get("_meta").is_some_and(Value::is_object) {
            params.insert("_meta".to_owned(), Value::Object(Map::new()));
        }
        if let Some(Value::Object(meta)) = params.get_mut("_meta") {
            for (key, value) in members {
                meta.insert(key, value);
            }
        }
        Self::Parsed(Value::Object(params))
    }
}

/// `text` with `members` written into its `_meta`, where the parsed path
/// would put them; `None` when only the parsed path can tell.
fn meta_written_into(text: &str, members: &Map<String, Value>) -> Option<ParamsText> {
    let Some(meta) = sole_member(text, "_meta")? else {
        return append_members(text, &single("_meta", Value::Object(members.clone())));
    };
    meta_merged_into(text, meta, members)
}

// Apart: params that bring a `_meta` of their own are rare, and this stays out of the module a
// page loads first.
#[inline(never)]
fn meta_merged_into(text: &str, meta: &str, members: &Map<String, Value>) -> Option<ParamsText> {
    if first_byte(meta) != Some(b'{') || members.keys().any(|name| !matches!(sole_member(meta, name), Some(None))) {
        return None;
    }
    let start = offset_in(text, meta)?;
    let written = append_members(meta, members)?;
    let mut whole = String::with_capacity(text.len().saturating_sub(meta.len()).saturating_add(written.get().len()));
    whole.push_str(text.get(..start)?);
    whole.push_str(written.get());
    whole.push_str(text.get(start + meta.len()..)?);
    ParamsText::checked(whole)
}

/// The text was read as JSON when the params were made: this does not fail
/// (depth past the parser's limit was sent to the parsed form then).
fn parse(text: &str) -> Value {
    crate::protocol::json::parse(text).unwrap_or(Value::Null)
}

/// An object's text with `members` written in as its last members.
fn append_members(object: &str, members: &Map<String, Value>) -> Option<ParamsText> {
    let body = trim_end_space(object).strip_suffix('}')?;
    let mut empty = trim_space(trim_start_space(body).strip_prefix('{')?).is_empty();
    let mut text = String::with_capacity(object.len() + 64);
    text.push_str(body);
    for (name, value) in members {
        if !empty {
            text.push(',');
        }
        empty = false;
        crate::protocol::json_write::write_str(&mut text, name);
        text.push(':');
        crate::protocol::json_write::write_value(&mut text, value);
    }
    text.push('}');
    ParamsText::checked(text)
}

#[cfg(test)]
mod tests {
    use super::{Params, ParamsText};
    use serde_json::{json, Value};

    fn large(members: Value) -> String {
        let mut value = json!({"name": "t", "arguments": {"text": "x".repeat(20_000)}});
        if let (Some(map), Value::Object(more)) = (value.as_object_mut(), members) {
            map.extend(more);
        }
        value.to_string()
    }

    #[test]
    fn params_stay_text_unless_only_parsing_can_read_them() {
        assert!(matches!(Params::from_text(large(json!({}))), Ok(Params::Text(_))));
        assert!(matches!(Params::from_text(r#"{"name":"t"}"#.into()), Ok(Params::Text(_))));
        // A number out of range is left to the parser, which refuses it, however small the text.
        assert!(Params::from_text(r#"{"name":"t","arguments":{"n":1e400}}"#.into()).is_err());
        assert!(matches!(Params::from_text("[1]".into()), Ok(Params::Parsed(_))));
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
        let add = |key: &str| json!({ key: 7 }).as_object().cloned().unwrap();
        let written = |text: String| {
            let parsed = Params::Parsed(serde_json::from_str(&text).unwrap()).with_meta(add("progressToken"));
            let spliced = Params::from_text(text.clone()).unwrap().with_meta(add("progressToken"));
            assert_eq!(spliced.to_json(), parsed.to_json(), "same members, same order: {}", text.get(..60).unwrap_or_default());
            spliced
        };
        // Text stays text: no _meta, or an object _meta without the member.
        for text in [large(json!({})), large(json!({"_meta": {"a": 1}})), large(json!({"_meta": {}}))] {
            assert!(matches!(written(text), Params::Text(_)));
        }
        // The parsed way: a _meta that is no object, or has the member already.
        for text in [large(json!({"_meta": 5})), large(json!({"_meta": {"progressToken": 1, "b": 2}}))] {
            assert!(matches!(written(text), Params::Parsed(_)));
        }
        // Twice over (the modern _meta, then the progress token): still text.
        let twice = Params::from_text(large(json!({}))).unwrap().with_meta(add("a")).with_meta(add("progressToken"));
        assert!(matches!(twice, Params::Text(_)));
        assert_eq!(twice.member("_meta"), Some(json!({"a": 7, "progressToken": 7})));
        // A _meta given twice: the parsed value keeps one; so does the text path, by parsing.
        let doubled = large(json!({})).replacen('{', r#"{"_meta":{"x":1},"#, 1).replacen("\"name\"", r#""_meta":{"y":2},"name""#, 1);
        assert!(matches!(Params::from_text(doubled).unwrap().with_meta(add("progressToken")), Params::Parsed(_)));
        let empty = Params::Text(ParamsText::checked(" { } ".into()).unwrap()).with_meta(add("p"));
        assert_eq!(empty.to_json(), r#"{ "_meta":{"p":7}}"#);
    }
}
