//! The instance a schema is checked against, as a tree that borrows from the
//! server's text: strings without escapes are slices of it, objects are lists
//! of members, numbers are `f64` (every keyword compares them as such). A
//! large `structuredContent` is read into this about twice as fast as into a
//! `serde_json::Value`, which allocates every key and string and hashes every
//! key into an ordered map.

use crate::protocol::json::{JsonError, Tree};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// A JSON value, borrowing its strings where it can.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node<'a> {
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
}

/// The first member name that makes serde_json read an object as raw JSON.
const SERDE_RAW_VALUE_NAME: &str = "$serde_json::private::RawValue";

/// Objects up to this many members are searched member by member; larger
/// ones get a set of their names for a keyword that looks up many names.
pub(super) const SMALL_OBJECT: usize = 16;

impl<'a> Node<'a> {
    /// Reads `text` as [`crate::protocol::json::parse_message`] reads it (serde_json's
    /// grammar, its nesting limit, its numbers, at most
    /// [`crate::protocol::json::MAX_VALUES`] values), into a tree that borrows the strings
    /// without escapes. The same reader: serde's visitors, compiled for size, read a large
    /// instance at half its speed. The bound keeps a server's 32 MiB of zeros from
    /// becoming 16 million nodes in wasm memory, which never shrinks.
    pub(crate) fn parse(text: &'a str) -> Result<Self, JsonError> {
        crate::protocol::json::read_message(text)
    }

    /// What the value is, for messages ("a string", "an object").
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::Number(_) => "a number",
            Node::String(_) => "a string",
            Node::Array(_) => "an array",
            Node::Object(_) => "an object",
        }
    }
}

/// The member `name` of an object's members.
pub(super) fn member<'n, 'a>(members: &'n [(Cow<'a, str>, Node<'a>)], name: &str) -> Option<&'n Node<'a>> {
    members.iter().find_map(|(key, value)| (key == name).then_some(value))
}

impl<'a> From<&'a Value> for Node<'a> {
    fn from(value: &'a Value) -> Self {
        match value {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Number(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => Node::String(Cow::Borrowed(s)),
            Value::Array(items) => Node::Array(items.iter().map(Node::from).collect()),
            Value::Object(map) => Node::Object(map.iter().map(|(k, v)| (Cow::Borrowed(k.as_str()), Node::from(v))).collect()),
        }
    }
}

/// JSON equality of a schema's value (`enum`, `const`) and an instance's, with
/// numbers compared by value (`1` equals `1.0`). Counts the values it compares in `work`.
pub(super) fn same(expected: &Value, node: &Node<'_>, work: &mut u64) -> bool {
    *work += 1;
    match (expected, node) {
        (Value::Null, Node::Null) => true,
        (Value::Bool(x), Node::Bool(y)) => x == y,
        (Value::Number(x), Node::Number(y)) => x.as_f64() == Some(*y),
        (Value::String(x), Node::String(y)) => x == y,
        (Value::Array(x), Node::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b, work)),
        (Value::Object(x), Node::Object(y)) => {
            x.len() == y.len() && y.iter().all(|(k, v)| x.get(k.as_ref()).is_some_and(|w| same(w, v, work)))
        }
        _ => false,
    }
}

/// JSON equality of two instance values (`uniqueItems`), numbers by value.
/// Counts the values it compares in `work`.
pub(super) fn equal(a: &Node<'_>, b: &Node<'_>, work: &mut u64) -> bool {
    *work += 1;
    match (a, b) {
        (Node::Array(x), Node::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b, work)),
        (Node::Object(x), Node::Object(y)) if x.len() != y.len() => false,
        (Node::Object(x), Node::Object(y)) if y.len() <= SMALL_OBJECT => {
            x.iter().all(|(k, v)| member(y, k).is_some_and(|w| equal(v, w, work)))
        }
        (Node::Object(x), Node::Object(y)) => {
            // Searching a large object once per name would be quadratic in the server's input;
            // its names are hashed instead, and that is paid for whatever the comparison finds.
            *work += y.len() as u64;
            let by_name: HashMap<&str, &Node<'_>> = y.iter().map(|(k, v)| (k.as_ref(), v)).collect();
            x.iter().all(|(k, v)| by_name.get(k.as_ref()).is_some_and(|w| equal(v, w, work)))
        }
        _ => a == b,
    }
}

impl<'a> Tree<'a> for Node<'a> {
    type Members = Vec<(Cow<'a, str>, Node<'a>)>;
    fn null() -> Self {
        Node::Null
    }
    fn bool(value: bool) -> Self {
        Node::Bool(value)
    }
    /// As serde_json reads it, so that an instance's numbers are the schema's.
    fn number(text: &'a str) -> Option<Self> {
        <Value as Tree>::number(text).and_then(|n| n.as_f64()).map(Node::Number)
    }
    fn string(text: Cow<'a, str>) -> Self {
        Node::String(text)
    }
    fn array(items: Vec<Self>) -> Self {
        Node::Array(items)
    }
    fn member(members: &mut Self::Members, key: Cow<'a, str>, value: Self) -> Result<(), &'static str> {
        // serde_json's `Value`, in a build with its `raw_value` feature, reads an object whose
        // first name is this as the JSON in its string: a Rust caller whose serde_json reads
        // it so would hold a value other than the one checked here, so it is not read at all.
        if members.is_empty() && key == SERDE_RAW_VALUE_NAME {
            return Err("an object named like serde_json's raw value");
        }
        members.push((key, value));
        Ok(())
    }
    fn object(members: Self::Members) -> Self {
        Node::Object(keep_last(members))
    }
}

/// A name given twice keeps its first place and its last value, as in
/// `JSON.parse` and serde_json's ordered map: the value checked is the one the
/// caller receives.
fn keep_last<'a>(members: Vec<(Cow<'a, str>, Node<'a>)>) -> Vec<(Cow<'a, str>, Node<'a>)> {
    let repeats = if members.len() <= SMALL_OBJECT {
        members.iter().enumerate().any(|(i, (k, _))| members.iter().skip(i + 1).any(|(l, _)| k == l))
    } else {
        members.iter().map(|(k, _)| k.as_ref()).collect::<HashSet<&str>>().len() != members.len()
    };
    if !repeats {
        return members;
    }
    let mut places: HashMap<String, usize> = HashMap::new();
    let mut kept: Vec<(Cow<'a, str>, Node<'a>)> = Vec::with_capacity(members.len());
    for (key, value) in members {
        match places.get(key.as_ref()).and_then(|&at| kept.get_mut(at)) {
            Some(slot) => slot.1 = value,
            None => {
                places.insert(key.to_string(), kept.len());
                kept.push((key, value));
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_without_escapes_borrow_the_text() {
        let text = r#"{"plain": "abc", "esc\u0061ped": "a\nb", "n": [1, -2, 0.5, 1e3]}"#;
        let Ok(Node::Object(members)) = Node::parse(text) else { panic!("not an object") };
        let names: Vec<&str> = members.iter().map(|(k, _)| k.as_ref()).collect();
        assert_eq!(names, ["plain", "escaped", "n"]);
        assert!(matches!(&members[0], (Cow::Borrowed(_), Node::String(Cow::Borrowed("abc")))));
        assert!(matches!(&members[1], (Cow::Owned(_), Node::String(Cow::Owned(s))) if s == "a\nb"));
        assert_eq!(members[2].1, Node::Array(vec![Node::Number(1.0), Node::Number(-2.0), Node::Number(0.5), Node::Number(1000.0)]));
    }

    #[test]
    fn a_repeated_name_keeps_its_first_place_and_last_value_like_json_parse() {
        let Ok(Node::Object(members)) = Node::parse(r#"{"a": 1, "b": 2, "a": 3}"#) else { panic!("not an object") };
        assert_eq!(members, vec![(Cow::Borrowed("a"), Node::Number(3.0)), (Cow::Borrowed("b"), Node::Number(2.0))]);
        // Past the small-object search too.
        let many: Vec<String> = (0..40).map(|i| format!("\"k{}\": {i}", i % 30)).collect();
        let text = format!("{{{}}}", many.join(","));
        let Ok(Node::Object(members)) = Node::parse(&text) else { panic!("not an object") };
        assert_eq!(members.len(), 30);
        assert_eq!(member(&members, "k5"), Some(&Node::Number(35.0)));
        assert_eq!(member(&members, "k29"), Some(&Node::Number(29.0)));
    }

    #[test]
    fn it_reads_what_serde_json_reads_and_refuses_what_it_refuses() {
        for text in ["[1,]", "{\"a\" 1}", "01", "\"\\ud800\"", "nul", "[1] 2", ""] {
            assert!(Node::parse(text).is_err(), "{text}");
        }
        // serde_json's `Value` would read this as 5; the client's consumers would disagree.
        assert!(Node::parse(r#"{"$serde_json::private::RawValue": "5"}"#).is_err());
        assert!(Node::parse(r#"{"a": 1, "$serde_json::private::RawValue": "5"}"#).is_ok());
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(Node::parse(&deep).is_err(), "past serde_json's nesting limit");
        let value = json!({"a": [1, 2.5, "x", null, true, {"b": {}}], "c": "\u{e9}"});
        assert_eq!(Node::parse(&value.to_string()).ok(), Some(Node::from(&value)));
    }

    /// A JSON text built from `next`'s numbers: values of every kind, nested up to `depth`.
    fn generated(next: &mut impl FnMut() -> u64, depth: u32, out: &mut String) {
        const SCALARS: [&str; 16] = [
            "1",
            "-0",
            "0.5",
            "1e400",
            "-1.5e-3",
            "123456789012345678901",
            "true",
            "false",
            "null",
            r#""a""#,
            r#""b\u00e9""#,
            r#""\ud83d\ude00""#,
            r#""x\"y\/z""#,
            r#""\n\t""#,
            "\"\u{e9}\u{1F600}\"",
            r#""""#,
        ];
        match next() % if depth == 0 { 1 } else { 4 } {
            0 => out.push_str(SCALARS[(next() % 16) as usize]),
            1 => {
                out.push('[');
                for i in 0..next() % 4 {
                    out.push_str(if i > 0 { ", " } else { "" });
                    generated(next, depth - 1, out);
                }
                out.push(']');
            }
            _ => {
                out.push('{');
                for i in 0..next() % 4 {
                    out.push_str(if i > 0 { "," } else { "" });
                    out.push_str(["\"k\"", "\"l\"", r#""k\u0000""#, "\"$serde_json::private::RawValue\""][(next() % 4) as usize]);
                    out.push_str(": ");
                    generated(next, depth - 1, out);
                }
                out.push('}');
            }
        }
    }

    #[test]
    fn it_reads_as_the_value_reader_reads_on_generated_texts() {
        let mut draw = crate::protocol::jsonrpc::tests::xorshift(0x2545_F491_4F6C_DD1D);
        let mut next = move || draw() as u64;
        let (mut read, mut refused) = (0, 0);
        for round in 0..40_000 {
            let mut text = String::new();
            let depth = (next() % 5) as u32;
            generated(&mut next, depth, &mut text);
            // Half of them broken somewhere: a byte dropped, or one of JSON's own put in.
            if round % 2 == 1 && !text.is_empty() {
                let at = (next() % text.len() as u64) as usize;
                if text.is_char_boundary(at) && text.is_char_boundary(at + 1) {
                    let insert = ["", "\"", "\\", ",", "]", "}", "\u{1}", "0"][(next() % 8) as usize];
                    text.replace_range(at..at + 1, insert);
                }
            }
            let ours = Node::parse(&text);
            let theirs = crate::protocol::json::parse(&text);
            match (&ours, &theirs) {
                (Ok(node), Ok(value)) => {
                    read += 1;
                    assert_eq!(node, &Node::from(value), "{text}");
                }
                (Err(_), Err(_)) => refused += 1,
                (Err(e), Ok(_)) if e.reason.contains("raw value") => {}
                _ => panic!("{text}: {ours:?} against {theirs:?}"),
            }
        }
        assert!(read > 10_000 && refused > 5_000, "read {read}, refused {refused}");
        // Nesting: serde_json's limit, in both.
        for levels in [126, 127, 128, 200] {
            let text = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
            assert_eq!(Node::parse(&text).is_ok(), crate::protocol::json::parse(&text).is_ok(), "{levels}");
        }
    }

    #[test]
    fn equality_compares_numbers_by_value_and_objects_by_members() {
        let mut work = 0;
        let parse = |text| Node::parse(text).unwrap_or(Node::Null);
        assert!(same(&json!({"x": [1], "y": "z"}), &parse(r#"{"y": "z", "x": [1.0]}"#), &mut work));
        assert!(!same(&json!({"x": 1}), &parse(r#"{"x": 1, "y": 2}"#), &mut work));
        assert!(!same(&json!("1"), &parse("1"), &mut work));
        assert!(equal(&parse(r#"{"a": 1, "b": [2]}"#), &parse(r#"{"b": [2.0], "a": 1.0}"#), &mut work));
        assert!(!equal(&parse(r#"{"a": 1}"#), &parse(r#"{"b": 1}"#), &mut work));
        let large = |last: u32| {
            let members: Vec<String> = (0..100).map(|i| format!("\"k{i}\": {}", if i == 99 { last } else { i })).collect();
            format!("{{{}}}", members.join(","))
        };
        let (a, b, c) = (large(99), large(99), large(7));
        assert!(equal(&parse(&a), &parse(&b), &mut work));
        assert!(!equal(&parse(&a), &parse(&c), &mut work));
        assert!(work > 0);
    }
}
