//! A paginated list's page checked from its text: a 2 MiB `tools/list` need
//! not become a tree in wasm when JS parses the same text anyway.
//!
//! These are accelerators for well-formed pages only. Whenever the text is
//! not exactly what the checks in [`super::results`] accept, they answer
//! `None` and the caller runs those checks on the parsed value, so that a
//! bad page is refused in the same words either way.

use super::pick::{member, pick, pick_accepted, starts_with, string_value, trim_space, Pick, Picked};
use super::task_support::TaskSupport;

/// The members of an item that the checks and the client read, by slot.
const ITEM_MEMBERS: [&str; 4] = ["", "inputSchema", "outputSchema", "annotations"];
const KEY: usize = 0;
const INPUT_SCHEMA: usize = 1;
const OUTPUT_SCHEMA: usize = 2;
const ANNOTATIONS: usize = 3;

/// A page read from its text.
#[derive(Debug)]
pub struct ListText<'a> {
    /// Its items, each with the members the checks and the client read.
    pub items: Vec<Picked<'a>>,
    /// Its `nextCursor` (`None` for absent or null).
    pub next_cursor: Option<String>,
}

/// The items of a page that `check_list` and `check_items_have` would both
/// accept: an object whose `items_field` is an array of objects that each
/// have a string `key`, and whose `nextCursor` is absent, null or a string.
/// The page's text is one that `decode` or [`crate::protocol::scan`]
/// accepted already: what lies inside the items' members (a tool's
/// `inputSchema`) is stepped over unchecked.
pub fn list_items<'a>(text: &'a str, items_field: &str, key: &str) -> Option<ListText<'a>> {
    let mut item_names = ITEM_MEMBERS;
    if let Some(slot) = item_names.get_mut(KEY) {
        *slot = key;
    }
    let page = Pick { names: ["nextCursor", "", "", ""], items: Some((items_field, item_names)) };
    let ([cursor, ..], items) = pick_accepted(text, page)?;
    let next_cursor = match cursor.filter(|c| trim_space(c) != "null") {
        Some(cursor) if starts_with(cursor, b'"') => Some(string_value(cursor)?),
        Some(_) => return None,
        None => None,
    };
    let items = items.filter(|items| items.iter().all(|item| member(item, KEY).is_some_and(|k| starts_with(k, b'"'))))?;
    Some(ListText { items, next_cursor })
}

/// What the client keeps of one listed tool.
#[derive(Debug)]
pub struct ToolFacts<'a> {
    /// Its name.
    pub name: String,
    /// `annotations.idempotentHint` is `true`.
    pub idempotent: bool,
    /// Its `outputSchema`, as the server's text.
    pub output_schema: Option<&'a str>,
}

/// The facts of a page's tools, when `check_tools` would accept them all
/// (each has a string `name` and an object `inputSchema`).
pub fn tool_facts<'a>(tools: &[Picked<'a>]) -> Option<Vec<ToolFacts<'a>>> {
    tools.iter().map(tool_fact).collect()
}

/// The facts of one tool, when `check_tools` would accept it.
pub fn tool_fact<'a>(tool: &Picked<'a>) -> Option<ToolFacts<'a>> {
    member(tool, INPUT_SCHEMA).filter(|schema| starts_with(schema, b'{'))?;
    let name = string_value(member(tool, KEY)?)?;
    let hint = Pick { names: ["idempotentHint", "", "", ""], items: None };
    let idempotent = match member(tool, ANNOTATIONS).filter(|annotations| starts_with(annotations, b'{')) {
        Some(annotations) => member(&pick(annotations, hint)?.0, 0).is_some_and(|h| trim_space(h) == "true"),
        None => false,
    };
    Some(ToolFacts { name, idempotent, output_schema: member(tool, OUTPUT_SCHEMA) })
}

/// The tools of a page that declare `execution.taskSupport` other than
/// `forbidden`, by their place in its `tools` (a name may be listed twice),
/// for a page [`list_items`] read. A pass of its own,
/// made only when the text may declare one, rather than a member kept for
/// every tool: a page of 2,000 tools that declares none then costs no more
/// memory than before, and wasm memory never shrinks. `None` when the text
/// is not what the pass reads (a member's name with an escape in it): the
/// caller then reads the parsed value, as for the other checks.
pub fn declared_task_support(text: &str) -> Option<Vec<(usize, TaskSupport)>> {
    // A name written with an escape would hide from the search: such a page takes the pass too.
    if !text.contains("taskSupport") && !text.contains('\\') {
        return Some(Vec::new());
    }
    let tools = Pick { names: ["", "", "", ""], items: Some(("tools", ["execution", "", "", ""])) };
    let support = Pick { names: ["taskSupport", "", "", ""], items: None };
    let mut declared = Vec::new();
    for (at, tool) in pick_accepted(text, tools)?.1?.into_iter().enumerate() {
        let Some(execution) = member(&tool, 0).filter(|execution| starts_with(execution, b'{')) else { continue };
        let name = match member(&pick(execution, support)?.0, 0) {
            Some(name) if starts_with(name, b'"') => string_value(name)?,
            _ => continue,
        };
        let declares = TaskSupport::from_name(Some(&name));
        if declares != TaskSupport::Forbidden {
            declared.push((at, declares));
        }
    }
    Some(declared)
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
            let by_text = list_items(&text, "tools", "name").and_then(|page| tool_facts(&page.items).map(|facts| facts.len()));
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
        let page = list_items(text, "tools", "name").unwrap();
        let facts = tool_facts(&page.items).unwrap();
        assert_eq!(facts.iter().map(|f| (f.name.as_str(), f.idempotent)).collect::<Vec<_>>(), [("ab", true), ("c", false), ("d", false)]);
        let schema: Value = serde_json::from_str(facts[0].output_schema.unwrap()).unwrap();
        assert_eq!(schema, json!({"type": "object"}));
        assert!(facts[1].output_schema.is_none());
    }

    /// The text path reads `execution.taskSupport` as the parsed value does,
    /// escapes and unknown values included.
    #[test]
    fn the_declared_task_support_is_read_as_the_value_reads_it() {
        let text = r#"{"tools": [
            {"name": "a", "inputSchema": {}, "execution": {"taskSupport": "required"}},
            {"name": "b", "inputSchema": {}, "execution": {"taskSupport": "opt\u0069onal", "other": [1]}},
            {"name": "c", "inputSchema": {}, "execution": {"taskSupport": "forbidden"}},
            {"name": "d", "inputSchema": {}, "execution": {"taskSupport": 3}},
            {"name": "e", "inputSchema": {}, "execution": "required"},
            {"name": "f", "inputSchema": {}, "execution": {}},
            {"name": "g", "inputSchema": {}}
        ]}"#;
        let declared = declared_task_support(text).unwrap();
        let parsed: Value = serde_json::from_str(text).unwrap();
        let by_value: Vec<_> = parsed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(TaskSupport::of_tool)
            .enumerate()
            .filter(|(_, support)| *support != TaskSupport::Forbidden)
            .collect();
        assert_eq!(declared, by_value);
        assert_eq!(declared, [(0, TaskSupport::Required), (1, TaskSupport::Optional)]);
        // A name listed twice is told apart by its place.
        let twice =
            r#"{"tools": [{"name": "a", "inputSchema": {}}, {"name": "a", "inputSchema": {}, "execution": {"taskSupport": "required"}}]}"#;
        assert_eq!(declared_task_support(twice), Some(vec![(1, TaskSupport::Required)]));
        // A page that declares none is not read again; one whose member names hide behind escapes is left to the value.
        assert_eq!(declared_task_support(r#"{"tools": [{"name": "a", "inputSchema": {}}]}"#), Some(Vec::new()));
        assert_eq!(
            declared_task_support(r#"{"tools": [{"name": "a", "inputSchema": {}, "execution": {"task\u0053upport": "required"}}]}"#),
            None
        );
    }

    #[test]
    fn the_cursor_is_read_with_its_escapes() {
        let page = list_items(r#"{"tools": [], "nextCursor": "a\u0062"}"#, "tools", "name").unwrap();
        assert_eq!(page.next_cursor.as_deref(), Some("ab"));
        assert_eq!(list_items(r#"{"tools": [], "nextCursor": null}"#, "tools", "name").unwrap().next_cursor, None);
    }

    #[test]
    fn a_member_given_twice_counts_as_the_parsed_value_counts_it() {
        let text = r#"{"tools": [], "tools": [{"name": "a", "name": "b", "inputSchema": {}}]}"#;
        let page = list_items(text, "tools", "name").unwrap();
        assert_eq!(tool_facts(&page.items).unwrap()[0].name, "b");
    }
}
