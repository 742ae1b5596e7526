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
        assert!(!elided.gave_up);
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
        // Its shape check reads only that it is there; its schema is checked on the parsed value.
        expected["result"]["structuredContent"] = json!({});
        assert_eq!(parsed(&elided), expected, "chunks of {size}");
    }
}

#[test]
fn strings_elsewhere_stay_whole() {
    let message = json!({
        "jsonrpc": "2.0", "id": 1,
        "text": long("top"),
        "result": {
            "text": long("a"),
            "things": [{ "name": "t", "description": long("d"), "text": long("e") }],
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

/// A `tools/list` page whose members the checks do not read hold strings,
/// objects and arrays with brackets, quotes and escapes inside their strings.
fn tools_page() -> Value {
    json!({
        "jsonrpc": "2.0", "id": 3,
        "result": {
            "tools": [
                {
                    "name": "search",
                    "title": "Search [beta] {x}",
                    "description": "Finds \"things\" \\ in ]brackets[ and {braces}: é",
                    "inputSchema": { "type": "object", "properties": { "q": { "type": "string", "pattern": "^[a-z]{2,}\\]$" } }, "required": ["q"] },
                    "outputSchema": { "type": "object", "properties": { "hits": { "type": "array", "items": { "type": "string" } } } },
                    "annotations": { "idempotentHint": true, "title": "kept" },
                    "execution": { "taskSupport": "required" },
                    "icons": [{ "src": "data:image/png;base64,iVBO", "sizes": ["48x48"] }],
                    "_meta": { "nested": [[], {}, [{ "a": "}" }]] },
                    "order": 3, "beta": true, "gone": null,
                },
                { "name": "empty", "description": "", "inputSchema": {}, "icons": [] },
            ],
            "nextCursor": "page-2",
        },
    })
}

#[test]
fn a_list_page_keeps_only_what_its_checks_read() {
    let message = tools_page();
    let text = message.to_string();
    let mut expected = message.clone();
    let tool = &mut expected["result"]["tools"][0];
    for (member, emptied) in
        [("title", json!("")), ("description", json!("")), ("inputSchema", json!({})), ("icons", json!([])), ("_meta", json!({}))]
    {
        tool[member] = emptied;
    }
    for size in [1, 2, 3, 5, 7, 9, 64, text.len()] {
        let elided = elided_in_chunks(&text, size);
        assert_eq!(parsed(&elided), expected, "chunks of {size}");
        assert_eq!(elided.text.len() + elided.elided, text.len(), "chunks of {size}");
        assert!(!elided.gave_up);
    }
}

#[test]
fn every_list_kind_keeps_its_key() {
    for (items, key) in [("resources", "uri"), ("resourceTemplates", "uriTemplate"), ("prompts", "name")] {
        let message = json!({ "jsonrpc": "2.0", "id": 1, "result": { items: [
            { key: "k", "description": "d", "arguments": [{ "name": "a", "required": true }], "size": 12 },
        ] } });
        let elided = elided_in_chunks(&message.to_string(), 4);
        let expected =
            json!({ "jsonrpc": "2.0", "id": 1, "result": { items: [{ key: "k", "description": "", "arguments": [], "size": 12 }] } });
        assert_eq!(parsed(&elided), expected, "{items}");
    }
}

#[test]
fn a_list_check_reads_an_elided_page_as_the_page() {
    use crate::protocol::list_text::{list_items, tool_facts};
    let text = tools_page().to_string();
    let elided = String::from_utf8(elided_in_chunks(&text, 5).text).unwrap();
    let result = |text: &str| crate::protocol::jsonrpc::raw_result(text).map(|(_, raw)| raw.to_owned()).unwrap();
    let (whole, part) = (result(&text), result(&elided));
    let (whole, part) = (list_items(&whole, "tools", "name").unwrap(), list_items(&part, "tools", "name").unwrap());
    assert_eq!(part.next_cursor.as_deref(), Some("page-2"));
    let facts = |page: &crate::protocol::list_text::ListText<'_>| {
        tool_facts(&page.items).unwrap().into_iter().map(|t| (t.name, t.idempotent, t.output_schema.map(str::to_owned))).collect::<Vec<_>>()
    };
    assert_eq!(facts(&part), facts(&whole));
}

#[test]
fn a_list_member_of_the_wrong_type_stays_wrong() {
    // The checks refuse a tool whose inputSchema is no object: emptied, it is still none.
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":"x"},{"name":"b","inputSchema":[1]}]}}"#;
    let page = parsed(&elided_in_chunks(text, 3));
    assert_eq!(page["result"]["tools"][0]["inputSchema"], json!(""));
    assert_eq!(page["result"]["tools"][1]["inputSchema"], json!([]));
    // A left-out value closed by the wrong bracket leaves a text no parser accepts.
    let broken = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"p":[1}]}]}}"#;
    assert!(serde_json::from_slice::<Value>(&elided_in_chunks(broken, 2).text).is_err());
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
fn a_list_page_reserves_for_what_it_keeps() {
    let tool = |i: usize| json!({ "name": format!("tool_{i}"), "description": "d".repeat(200), "inputSchema": { "type": "object", "properties": { "q": { "type": "string" } } } });
    let page = json!({ "jsonrpc": "2.0", "id": 1, "result": { "tools": (0..20_000).map(tool).collect::<Vec<_>>() } }).to_string();
    for size in [16 * 1024, 64 * 1024] {
        let mut eliding = Eliding::for_body(page.len());
        for chunk in page.as_bytes().chunks(size) {
            eliding.feed(chunk);
        }
        let room = eliding.out.capacity();
        let elided = eliding.finish();
        assert!(elided.text.len() * 4 < page.len(), "{} of {}", elided.text.len(), page.len());
        assert!(room < 2 * elided.text.len(), "room {room} for {} in chunks of {size}", elided.text.len());
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

/// A random value whose strings are made of brackets, quotes, backslashes
/// and plain bytes, nested up to `depth`.
fn random_value(next: &mut impl FnMut() -> usize, depth: usize) -> Value {
    const PIECES: [&str; 9] = ["{", "}", "[", "]", "\"", "\\", "a", "é", "plain text "];
    match next() % if depth == 0 { 3 } else { 5 } {
        0 => json!(next() % 1000),
        1 => Value::Bool(next() % 2 == 0),
        2 => Value::String((0..next() % 40).map(|_| PIECES[next() % PIECES.len()]).collect()),
        3 => Value::Array((0..next() % 5).map(|_| random_value(next, depth - 1)).collect()),
        _ => Value::Object((0..next() % 5).map(|i| (format!("k{i}"), random_value(next, depth - 1))).collect()),
    }
}

#[test]
fn generated_list_pages_lose_exactly_what_the_checks_do_not_read() {
    let mut next = crate::protocol::jsonrpc::tests::xorshift(0x51a7_e1de_u64);
    for round in 0..300 {
        let tools: Vec<Value> = (0..next() % 6)
            .map(|i| json!({ "name": format!("t{i}"), "inputSchema": random_value(&mut next, 4), "outputSchema": random_value(&mut next, 3), "x": random_value(&mut next, 3) }))
            .collect();
        let message = json!({ "jsonrpc": "2.0", "id": round, "result": { "tools": tools } });
        let mut expected = message.clone();
        for tool in expected["result"]["tools"].as_array_mut().unwrap() {
            for member in ["inputSchema", "x"] {
                tool[member] = match &tool[member] {
                    Value::String(_) => json!(""),
                    Value::Array(_) => json!([]),
                    Value::Object(_) => json!({}),
                    scalar => scalar.clone(),
                };
            }
        }
        let text = message.to_string();
        for size in [1, 3, 16, 17, 100, text.len()] {
            let elided = elided_in_chunks(&text, size);
            assert_eq!(parsed(&elided), expected, "round {round}, chunks of {size}: {text}");
            assert_eq!(elided.text.len() + elided.elided, text.len(), "round {round}, chunks of {size}");
        }
    }
}

#[test]
fn the_length_of_a_left_out_structured_content_is_told() {
    for structured in [json!({ "items": [{ "s": "}\"]" }, 2, null], "n": 1.5 }), json!([[], {}]), json!("a \\ \" string"), json!({})] {
        let message = json!({ "jsonrpc": "2.0", "id": 1, "result": { "content": [], "structuredContent": structured } });
        let text = message.to_string();
        for size in [1, 2, 5, 16, text.len()] {
            assert_eq!(elided_in_chunks(&text, size).structured, Some(structured.to_string().len()), "{structured} in chunks of {size}");
        }
    }
    // A scalar stays, and nothing is told; nor for a structuredContent elsewhere.
    for message in
        [json!({ "id": 1, "result": { "structuredContent": 7 } }), json!({ "id": 1, "result": { "x": { "structuredContent": {} } } })]
    {
        assert_eq!(elided_in_chunks(&message.to_string(), 3).structured, None, "{message}");
    }
}

#[test]
fn a_long_text_of_escapes_is_left_out_to_the_quote_a_parser_ends_it_at() {
    // Line feeds, quotes, backslashes and \u escapes throughout, as a long text escapes them, and
    // one escape at every offset of a 16-byte block in turn.
    let mut payload = String::new();
    for i in 0..ELIDE_MIN_BYTES / 8 {
        payload.push_str(&"x".repeat(i % 17));
        payload.push_str(["\\n", "\\\"", "\\\\", "\\u00e9", "\\/"][i % 5]);
    }
    let text = format!(
        r#"{{"jsonrpc":"2.0","id":3,"result":{{"contents":[{{"uri":"a","text":"{payload}\\\\"}},{{"uri":"b","text":"{payload}"}}]}}}}"#
    );
    let original: Value = serde_json::from_str(&text).unwrap();
    let mut expected = original.clone();
    expected["result"]["contents"][0]["text"] = json!("");
    expected["result"]["contents"][1]["text"] = json!("");
    for size in (1..=40).chain([1000, 4096, text.len()]) {
        let elided = elided_in_chunks(&text, size);
        assert_eq!(parsed(&elided), expected, "chunks of {size}");
        assert_eq!(elided.text.len() + elided.elided, text.len(), "chunks of {size}");
    }
}

#[test]
fn random_escaped_payloads_elide_alike_in_any_split() {
    // The last two make the text no JSON: a quarter of the cases have them.
    const PIECES: &[&str] = &["x", "xxxxxxxxxxxxxxxxxxxxxxx", "\\n", "\\\"", "\\\\", "\\u00e9", "\\/", "é", "\u{1}", "\""];
    let mut next = crate::protocol::jsonrpc::tests::xorshift(0x2545_F491_4F6C_DD1D);
    let mut checked = 0;
    for case in 0..1500 {
        // About half the payloads reach the length from which a payload is left out.
        let mut payload = String::new();
        let target = next() % (2 * ELIDE_MIN_BYTES);
        while payload.len() < target {
            let pieces = if case % 4 == 0 { PIECES } else { &PIECES[..PIECES.len() - 2] };
            payload.push_str(pieces[next() % pieces.len()]);
        }
        let text = match case % 3 {
            0 => format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"contents":[{{"uri":"u","text":"{payload}"}}]}}}}"#),
            1 => format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"text","text":"{payload}"}}],"isError":false}}}}"#),
            _ => format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{{"type":"resource","resource":{{"uri":"u","blob":"{payload}"}}}}]}}}}"#
            ),
        };
        let whole = elide([text.as_bytes()]);
        assert_eq!(whole.text.len() + whole.elided, text.len(), "{text}");
        let mut pieces = Vec::new();
        let mut rest = text.as_bytes();
        while !rest.is_empty() {
            let (piece, after) = rest.split_at((1 + next() % 40).min(rest.len()));
            pieces.push(piece);
            rest = after;
        }
        assert_eq!(elide(pieces), whole, "{text}");
        // Where the text is JSON, the output is that JSON with only the long payload emptied.
        if let Ok(mut expected) = serde_json::from_str::<Value>(&text) {
            let long = payload.len() >= ELIDE_MIN_BYTES;
            let path = ["/result/contents/0/text", "/result/content/0/text", "/result/content/0/resource/blob"][case % 3];
            if let (true, Some(slot)) = (long, expected.pointer_mut(path)) {
                *slot = json!("");
            }
            assert_eq!(parsed(&whole), expected, "{text}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} texts were JSON");
}
