use super::*;
use serde_json::{json, Value};

fn long(fill: &str) -> String {
    fill.repeat(ELIDE_MIN_BYTES / fill.len() + 7)
}

/// The lexer's output for `value`'s text fed in chunks of `size` bytes.
fn elided_in_chunks(text: &str, size: usize) -> Elided {
    elide(text.as_bytes().chunks(size))
}

fn parsed(elided: &Elided) -> Value {
    serde_json::from_slice(&elided.text).unwrap()
}

#[test]
fn a_read_result_loses_its_long_text_and_blob_only() {
    let message = json!({
        "jsonrpc": "2.0", "id": 7,
        "result": { "contents": [
            { "uri": "file:///big", "mimeType": "text/plain", "text": long("abc") },
            { "uri": "file:///bin", "blob": long("QUJD") },
            { "uri": "file:///small", "text": "short" },
        ]},
    });
    let text = message.to_string();
    for size in [1, 2, 3, 5, 16, 17, 64, 1000, text.len()] {
        let elided = elided_in_chunks(&text, size);
        let mut expected = message.clone();
        expected["result"]["contents"][0]["text"] = json!("");
        expected["result"]["contents"][1]["blob"] = json!("");
        assert_eq!(parsed(&elided), expected, "chunks of {size}");
        assert_eq!(elided.text.len() + elided.elided, text.len());
        assert!(elided.ascii && !elided.gave_up);
    }
}

#[test]
fn a_tool_result_loses_text_data_and_embedded_resources() {
    let message = json!({
        "jsonrpc": "2.0", "id": "a",
        "result": {
            "content": [
                { "type": "text", "text": long("x\\\"y\u{e9}") },
                { "type": "image", "mimeType": "image/png", "data": long("iVBO") },
                { "type": "resource", "resource": { "uri": "u", "text": long("r"), "mimeType": "m" } },
                { "type": "resource", "resource": { "uri": "v", "blob": long("b") } },
            ],
            "structuredContent": { "text": long("s"), "content": [{ "text": long("t") }] },
            "isError": false,
        },
    });
    let text = message.to_string();
    for size in [1, 7, 100, text.len()] {
        let elided = elided_in_chunks(&text, size);
        let mut expected = message.clone();
        expected["result"]["content"][0]["text"] = json!("");
        expected["result"]["content"][1]["data"] = json!("");
        expected["result"]["content"][2]["resource"]["text"] = json!("");
        expected["result"]["content"][3]["resource"]["blob"] = json!("");
        assert_eq!(parsed(&elided), expected, "chunks of {size}");
        assert!(!elided.ascii, "é is not ASCII");
    }
}

#[test]
fn strings_elsewhere_stay_whole() {
    let message = json!({
        "jsonrpc": "2.0", "id": 1,
        "text": long("top"),
        "result": {
            "text": long("a"),
            "tools": [{ "name": "t", "description": long("d"), "text": long("e") }],
            "contents": { "text": long("not a list") },
            "content": [[{ "text": long("nested list") }], { "deeper": { "text": long("g") } }],
            long("key"): [{ "text": long("h") }],
        },
        "error": { "content": [{ "text": long("i") }] },
    });
    let text = message.to_string();
    let elided = elided_in_chunks(&text, 3);
    assert_eq!(elided.elided, 0);
    assert_eq!(elided.text, text.as_bytes());
}

#[test]
fn a_payload_under_the_limit_stays() {
    let short = "q".repeat(ELIDE_MIN_BYTES - 1);
    let text = json!({ "jsonrpc": "2.0", "id": 1, "result": { "contents": [{ "uri": "u", "text": short }] } }).to_string();
    assert_eq!(elided_in_chunks(&text, 10).text, text.as_bytes());
}

#[test]
fn escapes_split_across_chunks_end_the_string_where_a_parser_does() {
    // Backslashes and quotes straddle every chunk boundary in turn.
    let payload = format!("{}\\\\\\\"{}", "\\\"".repeat(700), "\\\\".repeat(300));
    let text = format!(r#"{{"jsonrpc":"2.0","id":2,"result":{{"contents":[{{"text":"{payload}","uri":"after"}}]}}}}"#);
    let original: Value = serde_json::from_str(&text).unwrap();
    for size in 1..=9 {
        let elided = elided_in_chunks(&text, size);
        let mut expected = original.clone();
        expected["result"]["contents"][0]["text"] = json!("");
        assert_eq!(parsed(&elided), expected, "chunks of {size}");
    }
}

#[test]
fn keys_with_escapes_or_whitespace_are_read_as_written() {
    let filler = long("z");
    // An escaped key is no key looked for: nothing goes.
    let escaped = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"contents":[{{"te\u0078t":"{filler}"}}]}}}}"#);
    assert_eq!(elided_in_chunks(&escaped, 4).elided, 0);
    // Whitespace between tokens changes nothing.
    let spaced = format!("{{ \"result\" :\n {{ \"contents\" : [ {{ \"text\" :\t\"{filler}\" }} ] }} , \"id\" : 1 }}");
    let elided = elided_in_chunks(&spaced, 5);
    assert_eq!(elided.elided, filler.len());
    assert_eq!(parsed(&elided), json!({ "result": { "contents": [{ "text": "" }] }, "id": 1 }));
}

#[test]
fn garbage_is_copied_and_nesting_is_only_counted() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_001));
    let elided = elided_in_chunks(&deep, 4096);
    assert_eq!(elided.text, deep.as_bytes());
    let unterminated = format!(r#"{{"result":{{"contents":[{{"text":"{}"#, long("u"));
    let elided = elided_in_chunks(&unterminated, 64);
    assert!(serde_json::from_slice::<Value>(&elided.text).is_err());
}

#[test]
fn a_known_length_reserves_once_and_never_the_left_out_string() {
    let text = json!({ "jsonrpc": "2.0", "id": 1, "result": { "contents": [{ "uri": "u", "text": "w".repeat(1 << 20) }] } }).to_string();
    let whole = "[\"v\"]".repeat(100_000);
    for size in [16 * 1024, 64 * 1024, 100_000] {
        let mut eliding = Eliding::for_body(text.len());
        for chunk in text.as_bytes().chunks(size) {
            eliding.feed(chunk);
        }
        let elided = eliding.finish();
        assert!(elided.text.capacity() < 2 * 1024, "room {} in chunks of {size}", elided.text.capacity());
        let mut eliding = Eliding::for_body(whole.len());
        for chunk in whole.as_bytes().chunks(size) {
            eliding.feed(chunk);
        }
        let kept = eliding.finish();
        assert_eq!(kept.text, whole.as_bytes());
        assert_eq!(kept.text.capacity(), whole.len(), "one growth, to the body's length, in chunks of {size}");
    }
}

#[test]
fn a_lexer_of_unknown_length_gives_up_on_a_long_text_with_nothing_to_leave_out() {
    let list = format!("{{\"result\":{{\"tools\":[{}]}}}}", "{\"name\":\"t\"},".repeat(5000).trim_end_matches(','));
    let mut eliding = Eliding::default().give_up_at(10_000);
    for chunk in list.as_bytes().chunks(1000) {
        eliding.feed(chunk);
    }
    let elided = eliding.finish();
    assert!(elided.gave_up && elided.text.is_empty() && elided.elided == 0);
    // Once something is left out, it goes on to the end.
    let read = json!({ "result": { "contents": [{ "text": long("r") }], "tools": list } }).to_string();
    let mut eliding = Eliding::default().give_up_at(10_000);
    for chunk in read.as_bytes().chunks(1000) {
        eliding.feed(chunk);
    }
    let elided = eliding.finish();
    assert!(!elided.gave_up && elided.elided > 0 && elided.text.len() > list.len());
}
