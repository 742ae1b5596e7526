//! A paginated list's page checked from its text: a 2 MiB `tools/list` need
//! not become a tree in wasm when JS parses the same text anyway.
//!
//! These are accelerators for well-formed pages only. Whenever the text is
//! not exactly what the checks in [`super::results`] accept, they answer
//! `None` and the caller runs those checks on the parsed value, so that a
//! bad page is refused in the same words either way.

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::fmt;

/// An object's members, each as the server's text. Parsing keeps the last of
/// a member given twice, as the parsed value does; a name with an escape in
/// it fails the parse, and the caller reads the value instead.
pub type Members<'a> = BTreeMap<&'a str, &'a RawValue>;

fn members(text: &str) -> Option<Members<'_>> {
    serde_json::from_str(text).ok()
}

fn starts_with(raw: &RawValue, first: u8) -> bool {
    raw.get().trim_start().as_bytes().first() == Some(&first)
}

/// Reads a page in one pass: its items (each item's members) and its
/// `nextCursor`, skipping the rest.
struct Page<'f> {
    items_field: &'f str,
}

/// A page's items and `nextCursor`, when present.
type PageParts<'a> = (Option<Vec<Members<'a>>>, Option<&'a RawValue>);

impl<'de> DeserializeSeed<'de> for Page<'_> {
    type Value = PageParts<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Page<'_> {
    type Value = PageParts<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a page")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut items, mut cursor) = (None, None);
        while let Some(name) = map.next_key::<&'de str>()? {
            if name == self.items_field {
                items = Some(map.next_value()?);
            } else if name == "nextCursor" {
                cursor = Some(map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok((items, cursor))
    }
}

/// The items of a page that `check_list` and `check_items_have` would both
/// accept: an object whose `items_field` is an array of objects that each
/// have a string `key`, and whose `nextCursor` is absent, null or a string.
pub fn list_items<'a>(text: &'a str, items_field: &str, key: &str) -> Option<Vec<Members<'a>>> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let (items, cursor) = Page { items_field }.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    if let Some(cursor) = cursor {
        if !(starts_with(cursor, b'"') || cursor.get().trim() == "null") {
            return None;
        }
    }
    items.filter(|items| items.iter().all(|item| item.get(key).is_some_and(|k| starts_with(k, b'"'))))
}

/// What the client keeps of one listed tool.
#[derive(Debug)]
pub struct ToolFacts<'a> {
    /// Its name.
    pub name: String,
    /// `annotations.idempotentHint` is `true`.
    pub idempotent: bool,
    /// Its `outputSchema`, as the server's text.
    pub output_schema: Option<&'a RawValue>,
}

/// The facts of a page's tools, when `check_tools` would accept them all
/// (each has a string `name` and an object `inputSchema`).
pub fn tool_facts<'a>(tools: &[Members<'a>]) -> Option<Vec<ToolFacts<'a>>> {
    tools
        .iter()
        .map(|tool| {
            tool.get("inputSchema").filter(|schema| starts_with(schema, b'{'))?;
            let name = serde_json::from_str(tool.get("name")?.get()).ok()?;
            let idempotent = tool
                .get("annotations")
                .and_then(|annotations| members(annotations.get()))
                .and_then(|annotations| annotations.get("idempotentHint").map(|hint| hint.get().trim() == "true"))
                .unwrap_or(false);
            Some(ToolFacts { name, idempotent, output_schema: tool.get("outputSchema").copied() })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::results::{check_items_have, check_tools};
    use super::*;
    use serde_json::{json, Value};

    /// Wherever the text path answers, the value checks accept the page;
    /// wherever the value checks refuse it, the text path steps aside.
    #[test]
    fn the_text_path_answers_only_for_pages_the_value_checks_accept() {
        let pages = [
            json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "c"}),
            json!({"tools": [], "nextCursor": null}),
            json!({"tools": [{"name": "a", "inputSchema": {}}, {"name": 5, "inputSchema": {}}]}),
            json!({"tools": [{"name": "a"}]}),
            json!({"tools": [{"name": "a", "inputSchema": []}]}),
            json!({"tools": [{"name": "a", "inputSchema": {}}, 7]}),
            json!({"tools": {"name": "a"}}),
            json!({"tools": [], "nextCursor": 3}),
            json!({}),
            json!([{"tools": []}]),
            json!("tools"),
        ];
        for page in pages {
            let text = page.to_string();
            let by_value = check_items_have(&page, "tools/list", "tools", "name").and_then(|()| check_tools(&page));
            let by_text = list_items(&text, "tools", "name").and_then(|tools| tool_facts(&tools).map(|facts| facts.len()));
            match by_text {
                Some(n) => assert_eq!((by_value, n), (Ok(()), page["tools"].as_array().map_or(0, Vec::len)), "{text}"),
                None => assert!(by_value.is_err(), "{text}: the text path refused a page the value checks accept"),
            }
        }
    }

    #[test]
    fn tool_facts_keep_the_name_the_hint_and_the_schemas_as_text() {
        let text = r#"{"tools": [
            {"name": "a\u0062", "inputSchema": {"type": "object"}, "annotations": {"idempotentHint": true}, "outputSchema": {"type": "object"}},
            {"name": "c", "inputSchema": {}, "annotations": {"idempotentHint": "yes"}},
            {"name": "d", "inputSchema": {}, "annotations": 4}
        ]}"#;
        let tools = list_items(text, "tools", "name").unwrap();
        let facts = tool_facts(&tools).unwrap();
        assert_eq!(facts.iter().map(|f| (f.name.as_str(), f.idempotent)).collect::<Vec<_>>(), [("ab", true), ("c", false), ("d", false)]);
        let schema: Value = serde_json::from_str(facts[0].output_schema.unwrap().get()).unwrap();
        assert_eq!(schema, json!({"type": "object"}));
        assert!(facts[1].output_schema.is_none());
    }

    #[test]
    fn a_member_given_twice_counts_as_the_parsed_value_counts_it() {
        let text = r#"{"tools": [], "tools": [{"name": "a", "name": "b", "inputSchema": {}}]}"#;
        let tools = list_items(text, "tools", "name").unwrap();
        assert_eq!(tool_facts(&tools).unwrap()[0].name, "b");
    }
}
