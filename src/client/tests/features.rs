//! The server features: lists and paging, output validation, the cache,
//! resources, prompts, completion and tasks.

#[cfg(feature = "tasks")]
use crate::client::testing::text_result;
use crate::client::testing::{legacy_peer, modern_peer, padded, padded_answer, tools, Answer, FnValidator, Seen, World};
#[cfg(feature = "modern")]
use crate::client::CacheBounds;
#[cfg(feature = "tasks")]
use crate::client::TaskOptions;
use crate::client::{Client, ClientOptions, EraChoice, RequestOptions};
use crate::error::Error;
use crate::protocol::types::CallToolParams;
use serde_json::{json, Map, Value};
use std::cell::Cell;
use std::{cell::RefCell, rc::Rc};

fn connect(script: impl Fn(&Seen) -> Option<Answer> + 'static, capabilities: Value, options: ClientOptions) -> (World, Client) {
    let modern = options.era == EraChoice::Modern;
    let mut w = World::new(move |s| {
        script(s).unwrap_or_else(|| if modern { modern_peer(s, &capabilities) } else { legacy_peer(s, &capabilities) })
    });
    let client = w.connect(options).unwrap();
    (w, client)
}

fn legacy_options() -> ClientOptions {
    ClientOptions::default().era(EraChoice::Legacy)
}

fn modern_options() -> ClientOptions {
    ClientOptions::default().era(EraChoice::Modern)
}

/// Pages of tools: cursor `None` → a, b (next "2"); "2" → c.
fn paged(s: &Seen) -> Option<Answer> {
    (s.method() == "tools/list").then(|| match s.params()["cursor"].as_str() {
        None => Answer::Result(json!({"tools": tools(&["a", "b"])["tools"], "nextCursor": "2"})),
        Some(_) => Answer::Result(tools(&["c"])),
    })
}

#[test]
fn list_all_follows_cursors() {
    let (mut w, client) = connect(paged, json!({"tools": {}}), legacy_options());
    let c = client.clone();
    let all = w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    assert_eq!(all.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
    let page = w.run(async move { client.list_tools(Some("2"), &RequestOptions::default()).await }).unwrap();
    assert_eq!(page.tools.len(), 1);
    assert_eq!(w.server.last("tools/list").unwrap().params()["cursor"], "2");
}

/// `max_total_timeout_ms` caps a walk of every page, not each page: a server that answers each page
/// just inside the timeout would otherwise hold the walk for a timeout a page.
#[test]
fn max_total_timeout_caps_a_walk_of_every_page() {
    walk_three_pages_in_a_second(0);
}

/// Unlike a timeout, the cap counts the time a person spends on a consent page meanwhile.
#[test]
fn max_total_timeout_counts_the_time_on_a_consent_page() {
    walk_three_pages_in_a_second(300);
}

/// Pages answered 300 ms apart, `signing_in` ms of each on a consent page, under a
/// `max_total_timeout_ms` of 1,000: the fourth page is still out when the cap ends the walk.
fn walk_three_pages_in_a_second(signing_in: u64) {
    let (mut w, client) = connect(|s| (s.method() == "tools/list").then_some(Answer::Hold), json!({"tools": {}}), legacy_options());
    let options = RequestOptions { timeout_ms: Some(1_000), max_total_timeout_ms: Some(1_000), ..RequestOptions::default() };
    let walk = w.start(async move { client.list_all_tools(&options).await });
    for page in 1..=3 {
        w.server.user_wait_ms.set(w.server.user_wait_ms.get() + signing_in);
        w.advance(300);
        let held = w.server.last("tools/list").and_then(|seen| seen.id()).unwrap();
        w.server.respond(&held, json!({"tools": tools(&["a"])["tools"], "nextCursor": format!("{page}")}));
        w.settle();
    }
    assert_eq!(w.server.count("tools/list"), 4);
    assert!(walk.borrow().is_none());
    w.server.user_wait_ms.set(w.server.user_wait_ms.get() + signing_in / 3);
    w.advance(100);
    assert!(matches!(walk.borrow_mut().take(), Some(Err(Error::Timeout { ms: 1_000 }))));
}

/// Pages of tool `a`, each with the same `nextCursor`.
fn repeating_cursor(s: &Seen) -> Option<Answer> {
    (s.method() == "tools/list").then(|| Answer::Result(json!({"tools": tools(&["a"])["tools"], "nextCursor": "same"})))
}

#[test]
fn a_repeated_cursor_stops_the_walk_with_a_protocol_error() {
    let (mut w, client) = connect(repeating_cursor, json!({"tools": {}}), legacy_options());
    let outcome = w.run(async move { client.list_all_tools(&RequestOptions::default()).await });
    assert!(matches!(outcome, Err(Error::Protocol(m)) if m.contains("twice")));
    assert_eq!(w.server.count("tools/list"), 2);
}

#[test]
fn a_page_without_its_items_or_an_item_without_its_key_is_refused() {
    for page in [json!({"nextCursor": null}), json!({"tools": [{"inputSchema": {"type": "object"}}]}), json!({"tools": "a"})] {
        let answer = page.clone();
        let (mut w, client) =
            connect(move |s| (s.method() == "tools/list").then(|| Answer::Result(answer.clone())), json!({"tools": {}}), legacy_options());
        let outcome = w.run(async move { client.list_tools(None, &RequestOptions::default()).await });
        assert!(matches!(outcome, Err(Error::Protocol(_))), "{page}");
    }
}

#[test]
fn large_pages_are_walked_as_text_and_their_cursors_followed() {
    let (mut w, client) = connect(|s| paged(s).map(padded_answer), json!({"tools": {}}), legacy_options());
    let c = client.clone();
    let pages = w.run(async move { c.list_all_pages(crate::client::TOOLS, &RequestOptions::default()).await }).unwrap();
    assert_eq!(pages.len(), 2);
    assert!(pages.iter().all(|page| page.text().is_some_and(|t| t.len() > 20_000)), "each page is kept as text for JS");
    let all = w.run(async move { client.list_all_json(crate::client::TOOLS, &RequestOptions::default()).await }).unwrap();
    assert_eq!(all.iter().map(|t| t["name"].as_str().unwrap_or_default()).collect::<Vec<_>>(), ["a", "b", "c"]);
}

#[test]
fn a_large_page_is_refused_in_the_same_words_as_a_small_one() {
    let pages = [
        json!({"tools": [{"inputSchema": {"type": "object"}}]}),
        json!({"tools": [{"name": "a", "inputSchema": []}]}),
        json!({"tools": [{"name": "a", "inputSchema": {}}, "b"]}),
        json!({"tools": [], "nextCursor": 5}),
        json!({"tools": {}}),
    ];
    for page in pages {
        let refusal = |page: Value| {
            let (mut w, client) = connect(
                move |s| (s.method() == "tools/list").then(|| Answer::Result(page.clone())),
                json!({"tools": {}}),
                legacy_options(),
            );
            w.run(async move { client.list_tools(None, &RequestOptions::default()).await }).unwrap_err().to_string()
        };
        assert_eq!(refusal(padded(page.clone())), refusal(page.clone()), "{page}");
    }
}

/// A tool with an output schema, answering with `structured`.
fn typed_tool(structured: Value) -> impl Fn(&Seen) -> Option<Answer> {
    move |s| match s.method() {
        "tools/list" => Some(Answer::Result(json!({"tools": [{
            "name": "count", "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
        }]}))),
        "tools/call" => Some(Answer::Result(json!({"content": [], "structuredContent": structured}))),
        _ => None,
    }
}

fn list_then_call(w: &mut World, client: &Client) -> Result<crate::protocol::types::CallToolResult, Error> {
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    let c = client.clone();
    w.run(async move { c.call_tool(CallToolParams::new("count"), &RequestOptions::default()).await })
}

#[cfg(feature = "validator")]
#[test]
fn structured_content_is_checked_against_the_listed_output_schema() {
    let (mut w, client) = connect(typed_tool(json!({"n": 3})), json!({"tools": {}}), legacy_options());
    assert_eq!(list_then_call(&mut w, &client).unwrap().structured_content, Some(json!({"n": 3})));

    let (mut w, client) = connect(typed_tool(json!({"n": "three"})), json!({"tools": {}}), legacy_options());
    let error = list_then_call(&mut w, &client).unwrap_err();
    assert_eq!(error.kind(), "invalid-result");
    assert!(error.to_string().contains("/n"), "{error}");

    let options = ClientOptions { validate_output: false, ..legacy_options() };
    let (mut w, client) = connect(typed_tool(json!({"n": "three"})), json!({"tools": {}}), options);
    assert!(list_then_call(&mut w, &client).is_ok());
}

/// A tool whose result is large (over 16 KiB), which reaches the client as its
/// text alone, as every result does from the Streamable HTTP transport.
fn large_typed_tool(structured: Value, content: Value) -> impl Fn(&Seen) -> Option<Answer> {
    move |s| match s.method() {
        "tools/list" => typed_tool(json!(null))(s),
        "tools/call" => Some(Answer::Result(padded(json!({"content": content, "structuredContent": structured})))),
        _ => None,
    }
}

#[test]
fn a_large_result_is_checked_from_its_text_and_parsed_only_when_the_value_is_needed() {
    let (mut w, client) =
        connect(large_typed_tool(json!({"n": 3}), json!([{"type": "text", "text": "3"}])), json!({"tools": {}}), legacy_options());
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    let c = client.clone();
    let reply = w.run(async move { c.call_tool_reply(json!({"name": "count"}), &RequestOptions::default()).await }).unwrap();
    assert!(reply.text().is_some_and(|t| t.len() > 20_000), "the text is kept for JS");
    assert_eq!(reply.value()["structuredContent"], json!({"n": 3}), "and parsed on demand");
    // The typed call reads the same result.
    assert_eq!(list_then_call(&mut w, &client).unwrap().structured_content, Some(json!({"n": 3})));

    let (mut w, client) = connect(large_typed_tool(json!({"n": 3}), json!({"type": "text"})), json!({"tools": {}}), legacy_options());
    let error = list_then_call(&mut w, &client).unwrap_err();
    assert_eq!(error.kind(), "protocol");
    assert!(error.to_string().contains("tools/call: content is an object, not an array"), "{error}");
}

#[cfg(feature = "validator")]
#[test]
fn a_large_results_structured_content_is_validated_from_its_text() {
    let (mut w, client) = connect(large_typed_tool(json!({"n": "three"}), json!([])), json!({"tools": {}}), legacy_options());
    let error = list_then_call(&mut w, &client).unwrap_err();
    assert_eq!(error.kind(), "invalid-result");
    assert!(error.to_string().contains("/n"), "{error}");
}

#[cfg(feature = "validator")]
#[test]
fn a_large_page_of_tools_teaches_their_output_schemas() {
    let script = |s: &Seen| match s.method() {
        "tools/list" => typed_tool(json!(null))(s).map(padded_answer),
        _ => typed_tool(json!({"n": "three"}))(s),
    };
    let (mut w, client) = connect(script, json!({"tools": {}}), legacy_options());
    let c = client.clone();
    let page = w.run(async move { c.list_page_reply(crate::client::TOOLS, None, &RequestOptions::default()).await }).unwrap();
    assert!(page.text().is_some_and(|t| t.len() > 20_000), "the page is kept as text for JS");
    assert_eq!(list_then_call(&mut w, &client).unwrap_err().kind(), "invalid-result");
}

#[cfg(feature = "validator")]
#[test]
fn a_structured_content_past_the_bound_on_values_is_not_read_to_check_it() {
    let outcome = |zeros: usize| {
        let (mut w, client) = connect(large_typed_tool(json!({"n": vec![0; zeros]}), json!([])), json!({"tools": {}}), legacy_options());
        let c = client.clone();
        w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
        w.run(async move { client.call_tool_reply(json!({"name": "count"}), &RequestOptions::default()).await }).map(drop)
    };
    // The result is kept (as the web transport keeps it) and read for the check: with its
    // object, `content`, `structuredContent`, `n` and the padding, a million values and one more.
    let past = outcome(crate::protocol::json::MAX_VALUES - 4).unwrap_err();
    assert!(
        matches!(&past, Error::LimitExceeded { limit: "message values", message } if message.starts_with("the result: more than")),
        "{past}"
    );
    let within = outcome(crate::protocol::json::MAX_VALUES - 5).unwrap_err();
    assert_eq!(within.kind(), "invalid-result", "{within}");
}

#[test]
fn a_validator_from_the_options_gets_a_large_results_structured_content_as_text() {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let options = ClientOptions { validator: Some(recording(asked.clone())), ..legacy_options() };
    let (mut w, client) = connect(large_typed_tool(json!({"n": "three"}), json!([])), json!({"tools": {}}), options);
    let error = list_then_call(&mut w, &client).unwrap_err();
    assert!(error.to_string().contains("/n: not a number (type)"), "{error}");
    assert_eq!(asked.borrow().last().map(|(_, instance)| instance.clone()), Some(json!({"n": "three"})));
}

/// A validator from the options that records what it was asked and refuses
/// a string where the schema says number.
fn recording(asked: Rc<RefCell<Vec<(Value, Value)>>>) -> Rc<dyn crate::client::SchemaValidator> {
    Rc::new(FnValidator(move |schema: &Value, instance: &Value| {
        asked.borrow_mut().push((schema.clone(), instance.clone()));
        match instance["n"] {
            Value::String(_) => Err(crate::protocol::schema::SchemaError::Mismatch(crate::protocol::schema::ValidationError {
                instance_path: "/n".into(),
                keyword: "type".into(),
                message: "not a number".into(),
            })),
            _ => Ok(()),
        }
    }))
}

#[test]
fn a_validator_from_the_options_checks_structured_content_in_any_build() {
    let asked = Rc::new(RefCell::new(Vec::new()));
    let options = || ClientOptions { validator: Some(recording(asked.clone())), ..legacy_options() };
    let (mut w, client) = connect(typed_tool(json!({"n": 3})), json!({"tools": {}}), options());
    assert_eq!(list_then_call(&mut w, &client).unwrap().structured_content, Some(json!({"n": 3})));
    assert_eq!(asked.borrow().last().map(|(_, instance)| instance.clone()), Some(json!({"n": 3})));
    assert_eq!(asked.borrow().last().map(|(schema, _)| schema["type"].clone()), Some(json!("object")));

    let (mut w, client) = connect(typed_tool(json!({"n": "three"})), json!({"tools": {}}), options());
    let error = list_then_call(&mut w, &client).unwrap_err();
    assert_eq!(error.kind(), "invalid-result");
    assert!(error.to_string().contains("/n: not a number (type)"), "{error}");

    let (mut w, client) =
        connect(typed_tool(json!({"n": "three"})), json!({"tools": {}}), ClientOptions { validate_output: false, ..options() });
    let before = asked.borrow().len();
    assert!(list_then_call(&mut w, &client).is_ok());
    assert_eq!(asked.borrow().len(), before, "validateToolOutput: false asks nothing");
}

#[cfg(feature = "validator")]
#[test]
fn a_costly_output_schema_stops_at_the_step_budget() {
    let (mut w, client) = connect(
        |s| match s.method() {
            "tools/list" => Some(Answer::Result(json!({"tools": [{
                "name": "count", "inputSchema": {"type": "object"},
                "outputSchema": {"type": "object", "properties": {"rows": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "object"}]}}}},
            }]}))),
            "tools/call" => Some(Answer::Result(json!({"content": [], "structuredContent": {"rows": vec![json!({}); 5_000]}}))),
            _ => None,
        },
        json!({"tools": {}}),
        ClientOptions {
            limits: crate::session::limits::Limits {
                schema: crate::protocol::schema::Limits { steps: 1_000, steps_per_value: 0 },
                ..crate::session::limits::Limits::DEFAULT
            },
            ..legacy_options()
        },
    );
    let error = list_then_call(&mut w, &client).unwrap_err();
    assert_eq!(error.kind(), "limit-exceeded");
}

#[cfg(feature = "modern")]
/// A modern server whose lists last a minute.
fn cached(s: &Seen) -> Option<Answer> {
    (s.method() == "tools/list").then(|| Answer::Result(json!({"tools": tools(&["a"])["tools"], "ttlMs": 60_000})))
}

#[cfg(feature = "modern")]
#[test]
fn modern_results_are_kept_for_their_ttl() {
    let options = ClientOptions { cache: Some(CacheBounds::DEFAULT), ..modern_options() };
    let (mut w, client) = connect(cached, json!({"tools": {}}), options);
    for _ in 0..3 {
        let c = client.clone();
        w.run(async move { c.list_tools(None, &RequestOptions::default()).await }).unwrap();
    }
    assert_eq!(w.server.count("tools/list"), 1);
    w.advance(60_001);
    w.run(async move { client.list_tools(None, &RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.count("tools/list"), 2);
}

#[cfg(feature = "modern")]
#[test]
fn a_list_changed_notification_drops_the_cached_list() {
    let options = ClientOptions { cache: Some(CacheBounds::DEFAULT), ..modern_options() };
    let (mut w, client) = connect(cached, json!({"tools": {}}), options);
    let c = client.clone();
    w.run(async move { c.list_tools(None, &RequestOptions::default()).await }).unwrap();
    w.server.push(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
    w.settle();
    w.run(async move { client.list_tools(None, &RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.count("tools/list"), 2);
}

#[cfg(feature = "modern")]
#[test]
fn without_a_cache_every_list_is_sent() {
    let (mut w, client) = connect(cached, json!({"tools": {}}), modern_options());
    for _ in 0..2 {
        let c = client.clone();
        w.run(async move { c.list_tools(None, &RequestOptions::default()).await }).unwrap();
    }
    assert_eq!(w.server.count("tools/list"), 2);
}

#[test]
fn resources_prompts_and_completion_are_typed() {
    let (mut w, client) = connect(
        |s| match s.method() {
            "resources/read" => {
                Some(Answer::Result(json!({"contents": [{"uri": s.params()["uri"], "text": "hello", "mimeType": "text/plain"}]})))
            }
            "prompts/get" => Some(Answer::Result(
                json!({"messages": [{"role": "user", "content": {"type": "text", "text": s.params()["arguments"]["topic"]}}]}),
            )),
            "completion/complete" => Some(Answer::Result(json!({"completion": {"values": ["alpha", "alps"], "hasMore": false}}))),
            _ => None,
        },
        json!({"resources": {}, "prompts": {}, "completions": {}}),
        legacy_options(),
    );
    let c = client.clone();
    let read = w.run(async move { c.read_resource("file:///a.txt", &RequestOptions::default()).await }).unwrap();
    assert_eq!(read.contents[0].uri, "file:///a.txt");
    let c = client.clone();
    let mut arguments = Map::new();
    arguments.insert("topic".into(), json!("rust"));
    let prompt = w.run(async move { c.get_prompt("explain", arguments, &RequestOptions::default()).await }).unwrap();
    assert_eq!(prompt.messages.len(), 1);
    let params = json!({"ref": {"type": "ref/prompt", "name": "explain"}, "argument": {"name": "topic", "value": "al"}});
    let completion = w.run(async move { client.complete(params, &RequestOptions::default()).await }).unwrap();
    assert_eq!(completion.completion.values, ["alpha", "alps"]);
}

#[test]
fn legacy_subscriptions_send_subscribe_and_unsubscribe() {
    let (mut w, client) = connect(|_| None, json!({"resources": {"subscribe": true}}), legacy_options());
    let c = client.clone();
    w.run(async move { c.subscribe_resource("file:///a", &RequestOptions::default()).await }).unwrap();
    w.run(async move { client.unsubscribe_resource("file:///a", &RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.last("resources/subscribe").unwrap().params(), json!({"uri": "file:///a"}));
    assert_eq!(w.server.count("resources/unsubscribe"), 1);
}

#[cfg(feature = "modern")]
#[test]
fn modern_subscriptions_reopen_the_listen_stream_and_wait_for_its_acknowledgement() {
    let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged"});
    let (mut w, client) = connect(
        move |s| (s.method() == "subscriptions/listen").then(|| Answer::After(vec![ack.clone()], Box::new(Answer::Hold))),
        json!({"resources": {"subscribe": true, "listChanged": true}}),
        modern_options(),
    );
    assert_eq!(w.server.count("subscriptions/listen"), 1);
    assert_eq!(w.server.last("subscriptions/listen").unwrap().params()["notifications"], json!({"resourcesListChanged": true}));
    let c = client.clone();
    w.run(async move { c.subscribe_resource("file:///a", &RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.count("subscriptions/listen"), 2);
    let filter = w.server.last("subscriptions/listen").unwrap().params()["notifications"].clone();
    assert_eq!(filter, json!({"resourcesListChanged": true, "resourceSubscriptions": ["file:///a"]}));
    assert_eq!(w.server.count("resources/subscribe"), 0);
    w.run(async move { client.unsubscribe_resource("file:///a", &RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.last("subscriptions/listen").unwrap().params()["notifications"], json!({"resourcesListChanged": true}));
}

#[cfg(feature = "modern")]
#[test]
fn a_listen_stream_the_server_ends_is_reopened_after_a_backoff() {
    let ended = Cell::new(false);
    let (mut w, _client) = connect(
        move |s| (s.method() == "subscriptions/listen").then(|| if ended.replace(true) { Answer::Hold } else { Answer::Result(json!({})) }),
        json!({"tools": {"listChanged": true}}),
        modern_options(),
    );
    assert_eq!(w.server.count("subscriptions/listen"), 1);
    w.advance(60_000);
    assert_eq!(w.server.count("subscriptions/listen"), 2);
}

#[cfg(feature = "tasks")]
/// A task server: `tools/call` creates task t1, `tasks/get` reports it
/// working `polls` times, then completed; `tasks/result` gives "done".
fn task_server(polls: u32) -> impl Fn(&Seen) -> Option<Answer> {
    let seen = Cell::new(0);
    move |s| match s.method() {
        "tools/call" => Some(Answer::Result(json!({"task": {"taskId": "t1", "status": "working", "pollInterval": 500}}))),
        "tasks/get" => {
            seen.set(seen.get() + 1);
            let status = if seen.get() > polls { "completed" } else { "working" };
            Some(Answer::Result(json!({"taskId": "t1", "status": status, "pollInterval": 500})))
        }
        "tasks/result" => Some(Answer::Result(text_result("done"))),
        "tasks/cancel" => Some(Answer::Result(json!({"taskId": "t1", "status": "cancelled"}))),
        _ => None,
    }
}

#[cfg(feature = "tasks")]
fn task_capabilities() -> Value {
    json!({"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}, "cancel": {}}})
}

#[cfg(feature = "tasks")]
#[test]
fn a_task_is_polled_at_its_interval_to_its_result() {
    let (mut w, client) = connect(task_server(1), task_capabilities(), legacy_options());
    let statuses = Rc::new(RefCell::new(Vec::new()));
    let log = statuses.clone();
    let options = TaskOptions {
        ttl_ms: Some(30_000.0),
        on_status: Some(Rc::new(move |task: &Value| log.borrow_mut().push(task["status"].as_str().unwrap_or("?").to_owned()))),
        ..TaskOptions::default()
    };
    let pending = w.start(async move { client.call_tool_as_task_value(json!({"name": "slow"}), &options).await });
    assert_eq!(w.server.last("tools/call").unwrap().params()["task"], json!({"ttl": 30_000.0}));
    w.advance(499);
    assert_eq!(w.server.count("tasks/get"), 0);
    w.advance(1);
    assert_eq!(w.server.count("tasks/get"), 1);
    w.advance(500);
    let result = pending.borrow_mut().take().unwrap().unwrap();
    assert_eq!(result["content"][0]["text"], "done");
    assert_eq!(*statuses.borrow(), ["working", "working", "completed"]);
}

#[cfg(feature = "tasks")]
#[test]
fn a_poll_interval_below_the_floor_is_raised() {
    let (mut w, client) = connect(task_server(5), task_capabilities(), legacy_options());
    let options = TaskOptions { poll_interval_ms: Some(1), ..TaskOptions::default() };
    let _pending = w.start(async move { client.call_tool_as_task_value(json!({"name": "slow"}), &options).await });
    w.advance(99);
    assert_eq!(w.server.count("tasks/get"), 0);
    w.advance(1);
    assert_eq!(w.server.count("tasks/get"), 1);
}

#[cfg(feature = "tasks")]
#[test]
fn a_servers_poll_interval_is_followed_up_to_a_minute() {
    let server = |s: &Seen| match s.method() {
        "tools/call" | "tasks/get" => Some(Answer::Result(json!({"task": {"taskId": "t1", "status": "working", "pollInterval": 4e9}}))),
        _ => None,
    };
    let (mut w, client) = connect(server, task_capabilities(), legacy_options());
    let _pending = w.start(async move { client.call_tool_as_task_value(json!({"name": "slow"}), &TaskOptions::default()).await });
    w.advance(59_999);
    assert_eq!(w.server.count("tasks/get"), 0);
    w.advance(1);
    assert_eq!(w.server.count("tasks/get"), 1);
}

#[cfg(feature = "tasks")]
#[test]
fn closing_wakes_a_task_call_between_polls() {
    let (mut w, client) = connect(task_server(100), task_capabilities(), legacy_options());
    let options = TaskOptions { poll_interval_ms: Some(60_000), ..TaskOptions::default() };
    let task_client = client.clone();
    let pending = w.start(async move { task_client.call_tool_as_task_value(json!({"name": "slow"}), &options).await });
    w.advance(1_000);
    assert!(pending.borrow().is_none(), "asleep until its poll");
    w.run(async move { client.close().await });
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Closed))), "failed at the close, not at its poll");
    assert_eq!(w.server.count("tasks/get"), 0);
}

#[cfg(feature = "tasks")]
#[test]
fn a_task_created_without_its_wrapper_is_polled_by_its_id() {
    let server = |s: &Seen| match s.method() {
        "tools/call" => Some(Answer::Result(json!({"taskId": "bare", "status": "working", "pollInterval": 100}))),
        "tasks/get" => Some(Answer::Result(json!({"taskId": "bare", "status": "completed"}))),
        "tasks/result" => Some(Answer::Result(text_result("done"))),
        _ => None,
    };
    let (mut w, client) = connect(server, task_capabilities(), legacy_options());
    let pending = w.start(async move { client.call_tool_as_task_value(json!({"name": "slow"}), &TaskOptions::default()).await });
    w.advance(100);
    assert_eq!(w.server.last("tasks/get").unwrap().params(), json!({"taskId": "bare"}));
    assert_eq!(pending.borrow_mut().take().unwrap().unwrap()["content"][0]["text"], "done");
    assert_eq!(w.server.last("tasks/result").unwrap().params(), json!({"taskId": "bare"}));
}

#[test]
fn a_capability_is_required_only_when_strict() {
    let (_w, client) = connect(|_: &Seen| None, json!({"tools": {}}), legacy_options());
    assert!(client.require_capability("tools/call", None).is_ok());
    assert!(matches!(client.require_capability("tasks/list", None), Err(Error::Unsupported(_))));
    let declared = client.require_capability("tools/call", Some(&["tasks", "requests", "tools", "call"]));
    assert!(matches!(declared, Err(Error::Unsupported(message)) if message.contains("tasks.requests.tools.call")));
    let lenient = ClientOptions { strict: false, ..legacy_options() };
    let (_w, client) = connect(|_: &Seen| None, json!({}), lenient);
    assert!(client.require_capability("tasks/list", Some(&["tasks", "list"])).is_ok());
}

#[cfg(feature = "tasks")]
#[test]
fn cancelling_a_task_sends_tasks_cancel() {
    let (mut w, client) = connect(task_server(100), task_capabilities(), legacy_options());
    let token = crate::client::CancelToken::new();
    let options = TaskOptions { request: RequestOptions::default().cancel_with(&token), ..TaskOptions::default() };
    let pending = w.start(async move { client.call_tool_as_task_value(json!({"name": "slow"}), &options).await });
    w.advance(500);
    token.cancel("stop");
    w.settle();
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Cancelled { reason })) if reason == "stop"));
    assert_eq!(w.server.last("tasks/cancel").unwrap().params(), json!({"taskId": "t1"}));
}

/// `max_total_timeout_ms` caps the task's whole run, not each poll: past it the call fails with
/// `Timeout` and the server is told with `tasks/cancel`.
#[cfg(feature = "tasks")]
#[test]
fn max_total_timeout_caps_a_task_call_with_its_polls() {
    let (mut w, client) = connect(task_server(100), task_capabilities(), legacy_options());
    let options = TaskOptions {
        request: RequestOptions { max_total_timeout_ms: Some(1_200), ..RequestOptions::default() },
        ..TaskOptions::default()
    };
    let pending = w.start(async move { client.call_tool_as_task_value(json!({"name": "slow"}), &options).await });
    w.advance(500);
    w.advance(500);
    assert_eq!(w.server.count("tasks/get"), 2);
    assert!(pending.borrow().is_none());
    w.advance(200);
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Timeout { ms: 1_200 }))));
    assert_eq!(w.server.last("tasks/cancel").unwrap().params(), json!({"taskId": "t1"}));
}

#[cfg(feature = "tasks")]
#[test]
fn tasks_need_the_servers_declaration_when_strict() {
    let (mut w, client) = connect(task_server(0), json!({"tools": {}}), legacy_options());
    let outcome = w.run(async move { client.call_tool_as_task_value(json!({"name": "slow"}), &TaskOptions::default()).await });
    assert!(matches!(outcome, Err(Error::Unsupported(_))));
    assert_eq!(w.server.count("tools/call"), 0);
}

#[cfg(feature = "tasks")]
#[test]
fn the_low_level_task_methods_check_their_answers() {
    let (mut w, client) = connect(task_server(0), task_capabilities(), legacy_options());
    let c = client.clone();
    let task = w.run(async move { c.task_request("tasks/get", "t1", &RequestOptions::default()).await }).unwrap();
    assert_eq!(task["status"], "completed");
    let c = client.clone();
    let wrong = w.run(async move { c.task_request("tools/list", "t1", &RequestOptions::default()).await });
    assert!(matches!(wrong, Err(Error::InvalidArgument(_))));
}

#[cfg(feature = "modern")]
#[test]
fn closing_during_the_listen_backoff_leaves_no_timer() {
    let (mut w, client) = connect(
        |s| (s.method() == "subscriptions/listen").then(|| Answer::Result(json!({}))),
        json!({"tools": {"listChanged": true}}),
        modern_options(),
    );
    assert_eq!(w.runtime.pending_timers(), 1, "the listen stream ended and waits to reconnect");
    w.run(async move { client.close().await });
    assert_eq!(w.runtime.pending_timers(), 0);
    w.advance(120_000);
    assert_eq!(w.server.count("subscriptions/listen"), 1);
}

/// A tool whose result's text content is longer than a transport keeps in
/// wasm: the message is kept "outside" (as the web transport keeps it in JS),
/// with the text its checks read lacking that content.
fn kept_typed_tool(structured: Value, content: Value) -> impl Fn(&Seen) -> Option<Answer> {
    move |s| match s.method() {
        "tools/list" => typed_tool(json!(null))(s),
        "tools/call" => Some(Answer::Result(json!({"content": content, "structuredContent": structured}))),
        "resources/read" => Some(Answer::Result(json!({"contents": content}))),
        _ => None,
    }
}

fn long_text() -> String {
    "kept ".repeat(250_000)
}

#[test]
fn a_kept_result_is_checked_from_the_text_without_its_content_and_read_whole_when_needed() {
    let content = json!([{"type": "text", "uri": "file:///big", "text": long_text()}]);
    let (mut w, client) =
        connect(kept_typed_tool(json!({"n": 3}), content.clone()), json!({"tools": {}, "resources": {}}), legacy_options());
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    let c = client.clone();
    let reply = w.run(async move { c.call_tool_reply(json!({"name": "count"}), &RequestOptions::default()).await }).unwrap();
    assert!(reply.kept().is_some() && reply.text().is_none(), "the message is kept whole, outside");
    assert_eq!(reply.value()["content"], content, "the value is read whole");
    // Typed calls, which read the value, see the whole text.
    assert_eq!(list_then_call(&mut w, &client).unwrap().text(), long_text());
    let read = w.run(async move { client.read_resource("file:///big", &RequestOptions::default()).await }).unwrap();
    assert_eq!(read.contents[0].text.as_deref(), Some(long_text().as_str()));
}

#[test]
fn a_kept_result_still_fails_its_checks() {
    // The shape: the one content that lacks its uri, beside a kept text.
    let contents = json!([{"text": long_text()}]);
    let (mut w, client) = connect(kept_typed_tool(json!({"n": 3}), contents), json!({"tools": {}, "resources": {}}), legacy_options());
    let error = w.run(async move { client.read_resource("file:///big", &RequestOptions::default()).await }).unwrap_err();
    assert!(error.to_string().contains("contents[0] has no string uri"), "{error}");
}

#[cfg(feature = "validator")]
#[test]
fn a_kept_result_still_has_its_structured_content_validated() {
    let content = json!([{"type": "text", "text": long_text()}]);
    let (mut w, client) = connect(kept_typed_tool(json!({"n": "three"}), content), json!({"tools": {}}), legacy_options());
    let error = list_then_call(&mut w, &client).unwrap_err();
    assert_eq!(error.kind(), "invalid-result");
    assert!(error.to_string().contains("/n"), "{error}");
}

#[cfg(feature = "validator")]
#[test]
fn a_kept_structured_content_the_reader_refuses_fails_the_call_rather_than_passing_unchecked() {
    // JSON.parse reads nesting past the reader's limit; the schema is then checked on nothing.
    let mut deep = json!(1);
    for _ in 0..150 {
        deep = json!([deep]);
    }
    let content = json!([{"type": "text", "text": long_text()}]);
    let (mut w, client) = connect(kept_typed_tool(json!({"n": 3, "deep": deep}), content), json!({"tools": {}}), legacy_options());
    let error = list_then_call(&mut w, &client).unwrap_err();
    assert_eq!(error.kind(), "protocol", "{error}");
    assert!(error.to_string().contains("cannot be read to check its outputSchema"), "{error}");
}

/// A stream asks for the next page only once the consumer has taken every
/// item of the one before: taking the first two items costs one request.
#[test]
fn a_list_stream_asks_for_a_page_only_when_the_consumer_reaches_it() {
    use futures::StreamExt;
    let (mut w, client) = connect(paged, json!({"tools": {}}), legacy_options());
    let c = client.clone();
    let first_two =
        w.run(async move { c.stream_tools(RequestOptions::default()).take(2).map(|tool| tool.unwrap().name).collect::<Vec<_>>().await });
    assert_eq!((first_two, w.server.count("tools/list")), (vec!["a".to_owned(), "b".to_owned()], 1));
    let c = client.clone();
    let all = w.run(async move { c.stream_tools(RequestOptions::default()).map(|tool| tool.unwrap().name).collect::<Vec<_>>().await });
    assert_eq!((all, w.server.count("tools/list")), (vec!["a".to_owned(), "b".to_owned(), "c".to_owned()], 3));
    assert_eq!(w.server.last("tools/list").unwrap().params()["cursor"], "2");
}

/// A server that repeats a cursor: the stream yields what it had, then the
/// error, then ends.
#[test]
fn a_list_stream_ends_with_an_error_at_a_repeated_cursor() {
    use futures::StreamExt;
    let (mut w, client) = connect(repeating_cursor, json!({"tools": {}}), legacy_options());
    let items = w.run(async move { client.list_stream(crate::client::TOOLS, RequestOptions::default()).collect::<Vec<_>>().await });
    assert_eq!(items.len(), 3, "{items:?}");
    assert!(items[0].is_ok() && items[1].is_ok());
    assert!(matches!(&items[2], Err(Error::Protocol(m)) if m.contains("repeated cursor \"same\"")), "{:?}", items[2]);
    assert_eq!(w.server.count("tools/list"), 2);
}
