//! The fuzz harnesses: one function per target, each taking the fuzzer's
//! bytes and checking what must hold for any input a server could send.
//!
//! This file is compiled twice: by each `cargo fuzz` target
//! (`fuzz/fuzz_targets/*.rs`) and by the native replay test
//! (`tests/fuzz_corpus.rs`), which runs the committed corpus through the same
//! functions with plain `cargo test`. A failed check is an `assert!`: libFuzzer
//! reports it as a crash, the test as a failure.

use mcp_wasm::protocol::encoding::{base64, base64_decode, base64url, percent_decode, Escapes};
use mcp_wasm::protocol::jsonrpc::elide::{elide, ELIDE_MIN_BYTES};
use mcp_wasm::protocol::jsonrpc::envelope::{scan, EnvelopeScanner};
use mcp_wasm::protocol::jsonrpc::{decode, raw_result, Message, Params};
use mcp_wasm::protocol::list_text::{declared_task_support, list_items, tool_facts};
use mcp_wasm::protocol::modern;
use mcp_wasm::protocol::oauth;
use mcp_wasm::protocol::results::{check_items_have, check_tools};
use mcp_wasm::protocol::scan;
use mcp_wasm::protocol::schema::{validate_text_with, validate_with, Limits, LinearPatterns, SchemaError};
use mcp_wasm::protocol::skills::parse_skill_file;
use mcp_wasm::protocol::task_support::TaskSupport;
use mcp_wasm::protocol::uri_template::{TemplateValue, UriTemplate, DEFAULT_MATCH_STEPS};
use mcp_wasm::transport::sse::{Oversize, SseError, SseEvent, SseParser};
use serde_json::Value;
use std::collections::HashSet;

/// Splits `data` into chunks whose lengths (0 to `max` bytes, empty chunks
/// included) come from `seed`: the same input always splits the same way.
fn chunks(data: &[u8], seed: u8, max: usize) -> Vec<&[u8]> {
    let mut state = u64::from(seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut rest = data;
    let mut out = Vec::new();
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = usize::try_from(state % (max as u64 + 1)).unwrap_or(1).min(rest.len());
        let (head, tail) = rest.split_at(len);
        out.push(head);
        rest = tail;
    }
    out
}

/// `data` cut at its first NUL byte; without one, both halves are the whole.
fn halves(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(nul) => {
            let (head, tail) = data.split_at(nul);
            (head, tail.get(1..).unwrap_or_default())
        }
        None => (data, data),
    }
}

// --- sse ---------------------------------------------------------------------

/// What a parser made of a stream: its events, the error that stopped it, and
/// the retry and last id it kept.
type SseRun = (Vec<SseEvent>, Option<SseError>, Option<u32>, Option<String>);

fn run_sse(pieces: &[&[u8]], limit: usize, mode: Oversize) -> SseRun {
    let mut parser = SseParser::new(limit, mode);
    let mut events = Vec::new();
    let mut error = None;
    for piece in pieces {
        if let Err(e) = parser.push(piece, &mut events) {
            // The parser is dropped after an error.
            error = Some(e);
            break;
        }
    }
    (events, error, parser.retry_ms(), parser.last_event_id().map(str::to_owned))
}

/// Byte 0 picks the limit (8 to 63 bytes), byte 1 the chunk splits; the rest
/// is the stream. Both modes; the stream whole, byte by byte and in seeded
/// chunks must give the same events.
pub fn sse(data: &[u8]) {
    let [limit_byte, split_byte, stream @ ..] = data else { return };
    // Below 6 bytes the limit can cut a line inside `data: ` itself, where what
    // the field is depends on the split (see fuzz/README.md); real limits are MiBs.
    let limit = 8 + usize::from(limit_byte % 56);
    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    let seeded = chunks(stream, *split_byte, 1 + usize::from(split_byte % 16));
    let mut results = Vec::new();
    for mode in [Oversize::Fail, Oversize::Skip] {
        let whole = run_sse(&[stream], limit, mode);
        assert_eq!(run_sse(&bytes, limit, mode), whole, "{mode:?}: byte by byte differs from whole");
        assert_eq!(run_sse(&seeded, limit, mode), whole, "{mode:?}: chunks {seeded:?} differ from whole");
        let (events, error, _, _) = &whole;
        for event in events {
            // The limit counts the server's bytes, and each decodes to one character at most
            // (a byte that is not UTF-8 to a U+FFFD of three).
            let characters = event.data.chars().count();
            assert!(characters <= limit, "{mode:?}: {characters} characters of data kept with a limit of {limit}");
            assert!(!event.event.is_empty());
            if event.oversized.is_some() {
                assert_eq!(mode, Oversize::Skip, "only Skip reports oversized events");
                assert!(event.data.is_empty(), "a skipped event keeps no data");
            }
        }
        if mode == Oversize::Skip {
            assert_eq!(*error, None, "Skip never fails");
        }
        results.push(whole);
    }
    // Where nothing went past the limit, the two modes read the same.
    if let [fail, skip] = results.as_slice() {
        if fail.1.is_none() {
            assert_eq!(fail, skip, "Skip differs from Fail on a stream within the limit");
        }
    }
}

// --- jsonrpc -----------------------------------------------------------------

fn same_message(a: &Message, b: &Message) -> bool {
    match (a, b) {
        (Message::Request { id: x, method: m, .. }, Message::Request { id: y, method: n, .. }) => x == y && m == n,
        (Message::Notification { method: m, .. }, Message::Notification { method: n, .. }) => m == n,
        (Message::Response { id: x, outcome: o }, Message::Response { id: y, outcome: p }) => x == y && o.is_ok() == p.is_ok(),
        _ => false,
    }
}

/// `decode` in both batch modes, messages encoded and decoded again,
/// `raw_result` against `decode`, and the envelope scanner in chunks against
/// one pass.
/// A text read as the client reads it.
fn read(text: &str) -> Result<Value, mcp_wasm::protocol::json::JsonError> {
    mcp_wasm::protocol::json::parse(text)
}

pub fn jsonrpc(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // The client's JSON reader and serde_json's: the same verdict, and the
    // same value with its keys in the same order.
    match (mcp_wasm::protocol::json::parse(&text), serde_json::from_str::<Value>(&text)) {
        // With `raw_value` (the tests build serde_json with it), serde_json reads an object
        // whose first name is its raw value's token as that value, or refuses it; JSON.parse
        // and the reader read it as the object it is.
        _ if text.contains("$serde_json::private::RawValue") => {}
        (Ok(ours), Ok(theirs)) => assert_eq!(ours.to_string(), theirs.to_string(), "{text:?}"),
        (Err(_), Err(_)) => {}
        (ours, theirs) => panic!("{text:?}: the reader gives {ours:?}, serde_json {theirs:?}"),
    }
    let single = decode(&text, false);
    let batch = decode(&text, true);
    if let Ok(messages) = &single {
        assert_eq!(messages.len(), 1);
        assert_eq!(&batch, &single, "batches allowed changes a single message");
    }
    if let Ok(messages) = &batch {
        assert!(!messages.is_empty());
        for message in messages {
            let json = message.to_json();
            // Values may differ in a float's last bit (serde_json's parser is
            // not exact without `float_roundtrip`), so compare the shape.
            match decode(&json, false).as_deref() {
                Ok([again]) => assert!(same_message(message, again), "{json} decodes to {again:?}, not {message:?}"),
                other => panic!("{json} does not decode again: {other:?}"),
            }
        }
    }

    // With trailing white space, which JSON allows and the scans must too.
    let padded = format!("{text} \n");
    if let Some((id, raw)) = raw_result(&padded) {
        // The session keeps a raw result for the request of that id and hands
        // it over with the next response to it: it must be that response's.
        match decode(&padded, true) {
            Ok(messages) => match messages.as_slice() {
                [Message::Response { id: Some(decoded_id), outcome: Ok(result) }] => {
                    assert_eq!(decoded_id, &id);
                    let parsed: Value = read(raw).unwrap_or_else(|e| panic!("raw result {raw:?} is not JSON: {e}"));
                    assert_eq!(result, &parsed, "the raw result is not the decoded one");
                }
                other => panic!("raw_result gives {id} a result, decode reads {other:?}"),
            },
            Err(e) => panic!("raw_result gives {id} a result, decode refuses the text: {e}"),
        }
    }
    assert_eq!(raw_result(&text), raw_result(&padded), "white space after the message changed it");

    // Params kept as text read, and gain `_meta`, as the parsed ones do.
    if let Ok(params @ Params::Text(_)) = Params::from_text(padded.clone()) {
        let parsed: Value = read(&padded).unwrap_or_else(|e| panic!("text params {padded:?} do not parse: {e}"));
        assert_eq!(params.to_value(), parsed);
        let add = || serde_json::Map::from_iter([("progressToken".to_owned(), Value::from(1))]);
        let spliced = params.with_meta(add()).to_value();
        assert_eq!(spliced, Params::Parsed(parsed).with_meta(add()).to_value(), "_meta written into {padded:?}");
    }
    // A complete modern result cut out of its text is the one parsing gives
    // (the transport hands on only texts that parse: see raw_result).
    if let (Ok(parsed), Ok(stripped)) = (read(&padded), modern::complete_text(padded.clone())) {
        let again: Value = read(&stripped).unwrap_or_else(|e| panic!("{stripped:?} does not parse: {e}"));
        assert_eq!(modern::classify_result(parsed), Ok(modern::Outcome::Complete(again)), "{padded:?}");
    }

    // What the strict pass accepts, the pass that steps over the deep values reports alike.
    let mut strict = Vec::new();
    if scan::scan(&text, |path, value| {
        strict.push((path.to_vec(), value));
        true
    }) {
        let mut stepping = Vec::new();
        assert!(scan::scan_accepted(&text, |path, value| {
            stepping.push((path.to_vec(), value));
            true
        }));
        assert_eq!(stepping, strict, "scan_accepted reads {text:?} differently");
    }

    let whole = scan(data);
    let seed = data.first().copied().unwrap_or_default();
    for pieces in [data.chunks(1).collect::<Vec<_>>(), chunks(data, seed, 1 + usize::from(seed % 32))] {
        let mut scanner = EnvelopeScanner::default();
        for piece in &pieces {
            scanner.feed(piece);
        }
        assert_eq!(scanner.finish(), whole, "the scanner depends on the split");
    }
    elide_properties(data, seed);
}

/// The lexer that leaves in JS what a large result's checks do not read
/// (`jsonrpc::elide`): for any bytes, the same output however they are split,
/// each byte written or counted as left out; for a JSON text, exactly the
/// text with those values emptied, which parses.
fn elide_properties(data: &[u8], seed: u8) {
    let whole = elide([data]);
    assert!(!whole.gave_up);
    assert_eq!(whole.text.len() + whole.elided, data.len(), "bytes neither written nor left out");
    for pieces in [data.chunks(1).collect::<Vec<_>>(), chunks(data, seed, 1 + usize::from(seed % 64))] {
        assert_eq!(elide(pieces), whole, "the lexer depends on the split");
    }
    let Ok(value) = serde_json::from_slice::<Value>(data) else { return };
    // As serde_json writes it, no key carries an escape the lexer would read as written.
    let canonical = value.to_string();
    let elided = elide([canonical.as_bytes()]);
    let parsed: Value =
        serde_json::from_slice(&elided.text).unwrap_or_else(|e| panic!("{canonical:?} elides to a text that is not JSON: {e}"));
    // The structuredContent it left out is told by its length (the last, if there are more).
    let structured = value.get("result").filter(|r| r.is_object()).and_then(|r| r.get("structuredContent"));
    let told = structured.filter(|s| s.is_string() || s.is_array() || s.is_object()).map(|s| s.to_string().len());
    assert_eq!(elided.structured, told, "{canonical:?}");
    // Read again from the same digits: serde_json's floats need not survive writing and reading.
    let again: Value = serde_json::from_str(&canonical).unwrap_or(value);
    assert_eq!(parsed, emptied(again), "{canonical:?}");
}

/// What the lexer leaves of a message: see `jsonrpc::elide`.
fn emptied(mut message: Value) -> Value {
    const ITEMS: [&str; 4] = ["tools", "resources", "resourceTemplates", "prompts"];
    const READ: [&str; 6] = ["name", "uri", "uriTemplate", "outputSchema", "annotations", "execution"];
    let empty = |value: &mut Value| match value {
        Value::String(s) => s.clear(),
        Value::Array(a) => a.clear(),
        Value::Object(o) => o.clear(),
        _ => {}
    };
    // A content string at least 1 KiB long, as written between its quotes.
    let payload = |value: &mut Value| {
        if value.as_str().is_some_and(|s| Value::from(s).to_string().len() - 2 >= ELIDE_MIN_BYTES) {
            *value = Value::from("");
        }
    };
    let Some(Value::Object(result)) = message.get_mut("result") else { return message };
    for (key, member) in result.iter_mut() {
        match (key.as_str(), member) {
            ("structuredContent", value) => empty(value),
            (items, Value::Array(list)) if ITEMS.contains(&items) => {
                for item in list.iter_mut().filter_map(Value::as_object_mut) {
                    item.iter_mut().filter(|(name, _)| !READ.contains(&name.as_str())).for_each(|(_, value)| empty(value));
                }
            }
            ("contents", Value::Array(list)) => {
                for item in list.iter_mut().filter_map(Value::as_object_mut) {
                    item.iter_mut().filter(|(name, _)| matches!(name.as_str(), "text" | "blob")).for_each(|(_, value)| payload(value));
                }
            }
            ("content", Value::Array(list)) => {
                for item in list.iter_mut().filter_map(Value::as_object_mut) {
                    for (name, value) in item.iter_mut() {
                        match (name.as_str(), value) {
                            ("text" | "data", value) => payload(value),
                            ("resource", Value::Object(resource)) => resource
                                .iter_mut()
                                .filter(|(name, _)| matches!(name.as_str(), "text" | "blob"))
                                .for_each(|(_, value)| payload(value)),
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }
    message
}

// --- list_page ---------------------------------------------------------------

/// The lists a page's text is read for: the method, the items' array, their key.
const LISTS: [(&str, &str, &str); 5] = [
    ("tools/list", "tools", "name"),
    ("resources/list", "resources", "uri"),
    ("resources/templates/list", "resourceTemplates", "uriTemplate"),
    ("prompts/list", "prompts", "name"),
    ("skills/list", "skills", "uri"),
];

/// A list page read from its text (`list_text`), as the client reads a large
/// page: wherever the text path answers, the value checks accept the parsed
/// page, and the items' keys, the cursor and every tool's name, idempotent
/// hint and `outputSchema` are the ones in the value that JS hands the
/// caller. Both from the page as sent and from what the lexer leaves of it
/// (`jsonrpc::elide`) when the page is a result kept in JS.
pub fn list_page(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // The client reads a page's text only once its reader or its scan accepted it, and JS's
    // JSON.parse refuses a kept body that is not JSON.
    let Ok(value) = read(&text) else { return };
    let message = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{text}}}"#);
    let elided = elide([message.as_bytes()]);
    let elided_text = String::from_utf8(elided.text).ok();
    let kept = elided_text.as_deref().and_then(raw_result).map(|(_, result)| result);
    for (method, items, key) in LISTS {
        for (route, page) in [("as sent", Some(text.as_ref())), ("elided", kept)] {
            let Some(page) = page else { continue };
            let Some(read_page) = list_items(page, items, key) else { continue };
            check_items_have(&value, method, items, key)
                .unwrap_or_else(|e| panic!("{route}: the text path read a {method} page the value checks refuse ({e:?}): {text:?}"));
            let listed = value.get(items).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            assert_eq!(read_page.items.len(), listed.len(), "{route}: {text:?}");
            let cursor = value.get("nextCursor").and_then(Value::as_str);
            assert_eq!(read_page.next_cursor.as_deref(), cursor, "{route}: the cursor of {text:?}");
            for (item, parsed_item) in read_page.items.iter().zip(listed) {
                let read_key = item.first().copied().flatten().and_then(|k| read(k).ok());
                assert_eq!(read_key.as_ref(), parsed_item.get(key), "{route}: an item's {key} in {text:?}");
            }
            if items != "tools" {
                continue;
            }
            // What the tools declare of tasks, as the client reads it beside the facts.
            if let Some(declared) = declared_task_support(page) {
                let by_value: Vec<_> =
                    listed.iter().map(TaskSupport::of_tool).enumerate().filter(|(_, support)| *support != TaskSupport::Forbidden).collect();
                assert_eq!(declared, by_value, "{route}: the task support of {text:?}");
            }
            let Some(facts) = tool_facts(&read_page.items) else { continue };
            check_tools(&value).unwrap_or_else(|e| panic!("{route}: the text path read tools the value checks refuse ({e:?}): {text:?}"));
            for (fact, tool) in facts.iter().zip(listed) {
                assert_eq!(Some(fact.name.as_str()), tool.get("name").and_then(Value::as_str), "{route}: {text:?}");
                let idempotent = tool.get("annotations").and_then(|a| a.get("idempotentHint")) == Some(&Value::Bool(true));
                assert_eq!(fact.idempotent, idempotent, "{route}: the idempotent hint of {text:?}");
                let schema = fact.output_schema.map(|s| read(s).unwrap_or_else(|e| panic!("{route}: outputSchema {s:?}: {e}")));
                assert_eq!(schema.as_ref(), tool.get("outputSchema"), "{route}: the outputSchema of {text:?}");
            }
        }
    }
}

// --- skill_file --------------------------------------------------------------

/// How deep a value nests: a scalar is 0, an array or object 1 more than its deepest member.
fn nesting(value: &Value) -> usize {
    let deepest = |values: &mut dyn Iterator<Item = &Value>| values.map(nesting).max().unwrap_or(0);
    match value {
        Value::Array(items) => 1 + deepest(&mut items.iter()),
        Value::Object(members) => 1 + deepest(&mut members.values()),
        _ => 0,
    }
}

/// A `SKILL.md` as a server may send it, read by the client's frontmatter
/// reader (`protocol::skills::parse_skill_file`): it returns (within
/// `-timeout=1`, on libFuzzer's stack) for any text, and what it reads nests
/// no deeper than the reader's bound of 32 levels, the frontmatter's own
/// mapping counted.
pub fn skill_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(file) = parse_skill_file(&text) {
        let depth = nesting(&Value::Object(file.frontmatter));
        assert!(depth <= 32, "a frontmatter nesting {depth} levels deep was read: {text:?}");
        assert!(text.ends_with(file.body.as_str()), "the body is not the end of the file: {text:?}");
    }
}

// --- schema ------------------------------------------------------------------

/// A schema and an instance (cut at the first NUL; without one, the schema
/// validates itself) under the default limits and a small budget: either
/// decides, and a decision under the small budget is the same as under the
/// large one.
pub fn schema(data: &[u8]) {
    let (schema_bytes, instance_bytes) = halves(data);
    let Ok(schema) = serde_json::from_slice::<Value>(schema_bytes) else { return };
    let Ok(instance) = serde_json::from_slice::<Value>(instance_bytes) else { return };
    let full = validate_with(&schema, &instance, &LinearPatterns::default(), &Limits::DEFAULT);
    // The instance read from its text (the validator's own tree) gets the same verdict.
    if let Ok(text) = std::str::from_utf8(instance_bytes) {
        match validate_text_with(&schema, text, &LinearPatterns::default(), &Limits::DEFAULT) {
            Ok(from_text) => assert_eq!(from_text, full, "the text of {text:?} is judged differently"),
            // The one object serde_json's `Value` reads differently from JSON, refused on purpose.
            Err(_) if text.contains("$serde_json::private::RawValue") => {}
            Err(e) => panic!("{text:?} parses as a Value but not as text: {e}"),
        }
    }
    let small = validate_with(&schema, &instance, &LinearPatterns::default(), &Limits { steps: 2_000, steps_per_value: 1 });
    if !matches!(small, Err(SchemaError::TooCostly(_))) {
        assert_eq!(small, full, "a decision within a small budget changed with a larger one");
    }
}

// --- uri_template --------------------------------------------------------------

/// A value line: `[a,b]` is a list, `{k=v,…}` a map, anything else a string.
fn template_value(line: &str) -> TemplateValue {
    if let Some(list) = line.strip_prefix('[') {
        TemplateValue::List(list.split(',').map(str::to_owned).collect())
    } else if let Some(map) = line.strip_prefix('{') {
        TemplateValue::Map(
            map.split(',').map(|pair| pair.split_once('=').unwrap_or((pair, ""))).map(|(k, v)| (k.to_owned(), v.to_owned())).collect(),
        )
    } else {
        TemplateValue::String(line.to_owned())
    }
}

fn visible_ascii(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_graphic())
}

/// Lines: a template, a URI, then values for the template's variables in
/// order. Expansions are visible ASCII; a URI that matches, expanded again
/// from its bindings, matches again (when no variable is named twice: a
/// repeated name binds once, and the second occurrence of a named operator
/// refuses it).
pub fn uri_template(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n');
    let source = lines.next().unwrap_or_default();
    let uri = lines.next().unwrap_or_default();
    let values: Vec<TemplateValue> = lines.map(template_value).collect();
    let Ok(template) = UriTemplate::parse(source) else { return };
    let names = template.variable_names();
    let distinct = names.iter().collect::<HashSet<_>>().len() == names.len();

    let expanded = template.expand(&|name| names.iter().position(|n| *n == name).and_then(|i| values.get(i)).cloned());
    assert!(visible_ascii(&expanded), "{source:?} expands to {expanded:?}");
    let _ = template.matches(&expanded, DEFAULT_MATCH_STEPS);

    if let Ok(Some(bindings)) = template.matches(uri, DEFAULT_MATCH_STEPS) {
        let again = template.expand(&|name| bindings.get(name).cloned());
        assert!(visible_ascii(&again), "{source:?} expands to {again:?}");
        if distinct {
            // A longer URI may take more steps: running out is no mismatch.
            let rematch = template.matches(&again, DEFAULT_MATCH_STEPS);
            assert!(
                !matches!(rematch, Ok(None)),
                "{source:?} matched {uri:?} as {bindings:?}, which expands to {again:?}, which does not match"
            );
        }
    }
}

// --- oauth -------------------------------------------------------------------

/// What a browser would connect to for an `http:` URL (RFC 3986: the host
/// follows the last `@` of the authority), without its port.
fn http_host(url: &str) -> Option<String> {
    let lower = url.to_ascii_lowercase();
    let rest = lower.strip_prefix("http://")?;
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let name = match host.find(']') {
        Some(end) if host.starts_with('[') => host.get(..=end).unwrap_or_default(),
        _ => host.split(':').next().unwrap_or_default(),
    };
    Some(name.to_owned())
}

/// Lines: a header or URL, then a state, an issuer; any line (or the whole)
/// that is JSON serves as metadata.
pub fn oauth(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text.split('\n').collect();
    let line = |i: usize| lines.get(i).copied().unwrap_or_default();

    for header in [text.as_ref(), line(0)] {
        if let Some(challenge) = oauth::parse_challenge(header) {
            let _ = (challenge.error(), challenge.scope());
            let urls = oauth::resource_metadata_urls(line(1), Some(&challenge));
            if let Some(url) = challenge.resource_metadata() {
                assert_eq!(urls, [url.to_owned()]);
            }
            if let Some(scope) = oauth::select_scope(challenge.scope(), None, true) {
                assert!(!scope.is_empty());
            }
            let _ = oauth::scope_union(challenge.scope(), Some(line(2)));
        }
    }

    for url in [line(0), line(1), line(2)] {
        if let Some((origin, path)) = oauth::split_url(url) {
            assert!(origin.contains("://"));
            assert!(!path.contains(['?', '#']), "{url:?} has path {path:?}");
        }
        let canonical = oauth::canonical_resource(url);
        assert_eq!(oauth::canonical_resource(&canonical), canonical, "canonical_resource({url:?}) is not canonical");
        assert!(oauth::resource_matches(url, url));
        let _ = oauth::resource_matches(line(1), url);
        for built in oauth::resource_metadata_urls(url, None).iter().chain(&oauth::authorization_server_metadata_urls(url)) {
            assert!(built.contains("/.well-known/"), "{built:?}");
        }
        if oauth::redirect_uri_allowed(url) {
            assert!(!url.contains('#'));
            match http_host(url) {
                Some(host) => assert!(matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]"), "{url:?} is plain http to {host:?}"),
                None => assert!(url.to_ascii_lowercase().starts_with("https://"), "{url:?}"),
            }
        }
        let decoded = oauth::form_decode(url);
        assert!(decoded.len() <= url.len());
    }

    let iss_required = text.len() % 2 == 0;
    if let Ok(callback) = oauth::check_callback(line(0), line(1), line(2), iss_required) {
        let query = line(0).split_once('?').map(|(_, q)| q.split('#').next().unwrap_or(q)).unwrap_or_default();
        let pairs = oauth::form_decode(query);
        assert!(pairs.iter().any(|(k, v)| k == "code" && *v == callback.code));
        assert!(pairs.iter().any(|(k, v)| k == "state" && v == line(1)));
    }
    let pairs = [(line(0), line(1))];
    let round_trip = oauth::form_decode(&oauth::form_encode(&pairs));
    assert_eq!(round_trip, [(line(0).to_owned(), line(1).to_owned())], "form encoding does not round-trip");

    let metadata = std::iter::once(text.as_ref()).chain(lines.iter().copied()).find_map(|t| serde_json::from_str::<Value>(t).ok());
    if let Some(metadata) = metadata {
        let own = metadata.get("issuer").and_then(Value::as_str).unwrap_or_default().to_owned();
        for issuer in [own.as_str(), line(1)] {
            for pkce in [false, true] {
                if oauth::check_authorization_server(&metadata, issuer, pkce).is_ok() {
                    assert_eq!(metadata.get("issuer").and_then(Value::as_str), Some(issuer));
                }
            }
        }
        let _ = oauth::select_scope(None, metadata.get("scopes_supported"), true);
        let _ =
            oauth::choose_client_auth(Some(line(2)).filter(|s| !s.is_empty()), metadata.get("token_endpoint_auth_methods_supported"), true);
    }

    assert_eq!(base64_decode(&base64(data)).as_deref(), Some(data));
    assert_eq!(base64_decode(&base64url(data)).as_deref(), Some(data));
    let _ = (base64_decode(&text), oauth::pem_body(&text));
    let _ = (percent_decode(&text, true, Escapes::Lenient), percent_decode(&text, false, Escapes::Strict));
}

// --- modern_headers --------------------------------------------------------------

/// RFC 9110 token characters.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// An encoded header value is visible ASCII with inner spaces only, and
/// decodes back to the value.
fn check_header_value(value: &Value, encoded: &str) {
    assert!(encoded.bytes().all(|b| b == b' ' || b.is_ascii_graphic()), "{value} encodes to {encoded:?}");
    assert_eq!(encoded.trim(), encoded, "{value} encodes to {encoded:?}");
    let decoded = match encoded.strip_prefix("=?base64?").and_then(|rest| rest.strip_suffix("?=")) {
        Some(b64) => base64_decode(b64).and_then(|bytes| String::from_utf8(bytes).ok()),
        None => Some(encoded.to_owned()),
    };
    let expected = match value {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        _ => panic!("{value} got a header value"),
    };
    assert_eq!(decoded, Some(expected), "{encoded:?} does not decode to {value}");
}

fn each_value(value: &Value, f: &mut dyn FnMut(&Value)) {
    f(value);
    match value {
        Value::Array(items) => items.iter().for_each(|v| each_value(v, f)),
        Value::Object(map) => map.values().for_each(|v| each_value(v, f)),
        _ => {}
    }
}

/// A tool (or a bare input schema) and arguments, cut at the first NUL. Every
/// primitive encodes to a valid header value; a tool whose annotations pass
/// `tool_header_problem` yields distinct, valid header names.
pub fn modern_headers(data: &[u8]) {
    let (tool_bytes, argument_bytes) = halves(data);
    let Ok(tool) = serde_json::from_slice::<Value>(tool_bytes) else { return };
    let arguments = serde_json::from_slice::<Value>(argument_bytes).ok();

    let mut check = |value: &Value| match modern::encode_header_value(value) {
        Some(encoded) => check_header_value(value, &encoded),
        None => assert!(matches!(value, Value::Null | Value::Array(_) | Value::Object(_)), "{value} has no header value"),
    };
    each_value(&tool, &mut check);
    if let Some(arguments) = &arguments {
        each_value(arguments, &mut check);
    }

    let wrapped = serde_json::json!({ "name": "fuzz", "inputSchema": tool });
    for tool in [&tool, &wrapped] {
        let Some(schema) = tool.get("inputSchema") else { continue };
        let _ = modern::has_param_headers(schema);
        let headers = modern::param_headers(schema, arguments.as_ref());
        for (name, value) in &headers {
            assert!(name.starts_with("Mcp-Param-"), "{name:?}");
            assert!(value.bytes().all(|b| b == b' ' || b.is_ascii_graphic()), "{value:?}");
        }
        if modern::tool_header_problem(tool).is_none() {
            let mut seen = HashSet::new();
            for (name, _) in &headers {
                assert!(!name.is_empty() && name.chars().all(is_tchar), "{name:?} is no header name");
                assert!(seen.insert(name.to_ascii_lowercase()), "{name:?} twice");
            }
        }
    }

    for method in ["tools/call", "prompts/get", "resources/read", "ping"] {
        if let Some(name) = modern::mcp_name(method, arguments.clone().map(Params::Parsed).as_ref()) {
            check_header_value(&Value::String(name.clone()), &modern::encode_header_value(&Value::String(name)).unwrap_or_default());
        }
    }
    if let Ok(modern::Outcome::Complete(result)) = modern::classify_result(tool.clone()) {
        let _ = modern::read_discovery(&result);
    }
    let status = tool_bytes.first().map_or(200, |b| 100 + u16::from(*b) * 2);
    let _ = modern::probe_verdict(status, &String::from_utf8_lossy(argument_bytes));
}
