//! Large results of the 2026-07-28 era stay the server's text, as large
//! legacy results do: `resultType` is cut out of a complete one, and only
//! what asks for more (input, a task) is parsed.

use crate::client::testing::{connected, padded, text_result, Answer, Seen, World};
use crate::client::{CacheBounds, Client, ClientOptions, EraChoice, Handlers, RequestOptions};
use crate::protocol::types::{CallToolParams, Root};
use serde_json::{json, Value};

fn modern(script: impl Fn(&Seen) -> Option<Answer> + 'static, options: ClientOptions) -> (World, Client) {
    connected(script, json!({"tools": {}, "resources": {}}), options.era(EraChoice::Modern))
}

/// A large complete result, `resultType` first as the SDKs write it.
fn large_complete() -> Value {
    padded(json!({"resultType": "complete", "content": [{"type": "text", "text": "big"}], "isError": false}))
}

#[test]
fn a_large_complete_result_stays_text_without_its_result_type() {
    let (mut w, client) = modern(|s| (s.method() == "tools/call").then(|| Answer::Result(large_complete())), ClientOptions::default());
    let c = client.clone();
    let reply = w.run(async move { c.call_tool_reply(json!({"name": "t"}), &RequestOptions::default()).await }).unwrap();
    let text = reply.text().expect("the text is kept for JS");
    assert!(text.len() > 20_000 && !text.contains("resultType"), "{}", text.get(..80).unwrap_or_default());
    let mut expected = large_complete();
    expected.as_object_mut().unwrap().shift_remove("resultType");
    assert_eq!(serde_json::to_string(reply.value()).unwrap(), serde_json::to_string(&expected).unwrap(), "same value, same key order");
    let c = client.clone();
    let typed = w.run(async move { c.call_tool(CallToolParams::new("t"), &RequestOptions::default()).await }).unwrap();
    assert_eq!(typed.text(), "big");
}

#[test]
fn large_and_small_results_keep_the_servers_member_order() {
    let order = |result: Value| {
        let (mut w, client) =
            modern(move |s| (s.method() == "tools/call").then(|| Answer::Result(result.clone())), ClientOptions::default());
        let reply = w.run(async move { client.call_tool_reply(json!({"name": "t"}), &RequestOptions::default()).await }).unwrap();
        reply.value().as_object().unwrap().keys().filter(|k| *k != "padding").cloned().collect::<Vec<_>>()
    };
    let result = json!({"resultType": "complete", "content": [], "structuredContent": {}, "isError": false});
    assert_eq!(order(result.clone()), ["content", "structuredContent", "isError"]);
    assert_eq!(order(padded(result)), ["content", "structuredContent", "isError"]);
}

#[test]
fn a_large_modern_result_is_refused_in_the_same_words_as_a_small_one() {
    let refusal = |result: Value| {
        let (mut w, client) =
            modern(move |s| (s.method() == "tools/call").then(|| Answer::Result(result.clone())), ClientOptions::default());
        w.run(async move { client.call_tool(CallToolParams::new("t"), &RequestOptions::default()).await }).unwrap_err().to_string()
    };
    for bad in [json!({"resultType": "complete", "content": {"type": "text"}}), json!({"resultType": "done", "content": []})] {
        assert_eq!(refusal(padded(bad.clone())), refusal(bad.clone()), "{bad}");
    }
}

#[test]
fn a_large_input_request_is_parsed_and_answered() {
    let script = |s: &Seen| {
        (s.method() == "tools/call").then(|| match s.params().get("inputResponses") {
            None => Answer::Result(padded(json!({"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}}))),
            Some(answers) => Answer::Result(text_result(&answers["r"]["roots"][0]["uri"].to_string())),
        })
    };
    let roots = Handlers::default().roots(|_| async { Ok(vec![Root::new("file:///w", "w")]) });
    let (mut w, client) = modern(script, ClientOptions::default().handlers(roots));
    let c = client.clone();
    let result = w.run(async move { c.call_tool(CallToolParams::new("t"), &RequestOptions::default()).await }).unwrap();
    assert_eq!(result.text(), "\"file:///w\"");
}

#[test]
fn a_large_cached_read_is_kept_and_served_as_its_text() {
    let read = |s: &Seen| {
        (s.method() == "resources/read").then(|| {
            Answer::Result(padded(json!({"resultType": "complete", "contents": [{"uri": "file:///a", "text": "a"}], "ttlMs": 60_000})))
        })
    };
    let (mut w, client) = modern(read, ClientOptions { cache: Some(CacheBounds::DEFAULT), ..ClientOptions::default() });
    for _ in 0..2 {
        let c = client.clone();
        let reply =
            w.run(async move { c.request("resources/read", Some(json!({"uri": "file:///a"})), &RequestOptions::default()).await }).unwrap();
        assert!(reply.text().is_some_and(|t| t.len() > 20_000 && !t.contains("resultType")));
        assert_eq!(reply.value()["contents"][0]["text"], "a");
    }
    assert_eq!(w.server.count("resources/read"), 1, "the second read is the cache's");
}
