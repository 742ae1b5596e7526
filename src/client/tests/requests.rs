//! The request path: capability checks, timeouts, cancellation, progress,
//! session renewal, the modern era's `_meta`, replays and recoveries.

use crate::client::testing::{legacy_peer, modern_peer, text_result, tools, Answer, Seen, World};
use crate::client::{CancelToken, Client, ClientEvent, ClientOptions, EraChoice, RequestOptions};
use crate::error::Error;
use crate::protocol::jsonrpc::ErrorObject;
use crate::protocol::types::CallToolParams;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

fn legacy(script: impl Fn(&Seen) -> Option<Answer> + 'static, capabilities: Value) -> (World, Client) {
    let mut w = World::new(move |s| script(s).unwrap_or_else(|| legacy_peer(s, &capabilities)));
    let client = w.connect(ClientOptions::default().era(EraChoice::Legacy)).unwrap();
    (w, client)
}

fn modern(script: impl Fn(&Seen) -> Option<Answer> + 'static, capabilities: Value) -> (World, Client) {
    let mut w = World::new(move |s| script(s).unwrap_or_else(|| modern_peer(s, &capabilities)));
    let client = w.connect(ClientOptions::default()).unwrap();
    (w, client)
}

/// Answers every `tools/list` with `names`, and every `tools/call` with "ok".
fn tool_server(names: &'static [&'static str]) -> impl Fn(&Seen) -> Option<Answer> {
    move |s| match s.method() {
        "tools/list" => Some(Answer::Result(tools(names))),
        "tools/call" => Some(Answer::Result(text_result("ok"))),
        _ => None,
    }
}

#[test]
fn strict_refuses_what_the_server_did_not_declare_before_sending() {
    let (mut w, client) = legacy(tool_server(&["a"]), json!({}));
    let c = client.clone();
    let outcome = w.run(async move { c.list_tools(None, &RequestOptions::default()).await });
    assert!(matches!(outcome, Err(Error::Unsupported(_))));
    assert_eq!(w.server.count("tools/list"), 0);
}

#[test]
fn not_strict_sends_anyway() {
    let mut w = World::new(|s| match s.method() {
        "tools/list" => Answer::Result(tools(&["a"])),
        _ => legacy_peer(s, &json!({})),
    });
    let client = w.connect(ClientOptions { strict: false, ..ClientOptions::default() }).unwrap();
    let tools = w.run(async move { client.list_all_tools(&RequestOptions::default()).await }).unwrap();
    assert_eq!(tools.len(), 1);
}

#[test]
fn a_request_times_out_and_tells_the_server() {
    let (mut w, client) = legacy(|s| (s.method() == "tools/list").then_some(Answer::Hold), json!({"tools": {}}));
    let pending = w.start(async move { client.list_tools(None, &RequestOptions::default().timeout(1_500)).await });
    w.advance(1_499);
    assert!(pending.borrow().is_none());
    w.advance(1);
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Timeout { ms: 1_500 }))));
    let cancelled = w.server.last("notifications/cancelled").unwrap().params();
    assert_eq!(cancelled["requestId"], w.server.last("tools/list").unwrap().id().unwrap().to_value());
}

#[test]
fn the_default_timeout_comes_from_the_client_options() {
    let mut w = World::new(|s| match s.method() {
        "ping" => Answer::Hold,
        _ => legacy_peer(s, &json!({})),
    });
    let client = w.connect(ClientOptions::default().era(EraChoice::Legacy).timeout(2_000)).unwrap();
    let pending = w.start(async move { client.ping(&RequestOptions::default()).await });
    w.advance(2_000);
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Timeout { ms: 2_000 }))));
}

#[test]
fn cancelling_a_call_fails_it_with_the_reason_and_tells_the_server() {
    let (mut w, client) = legacy(|s| (s.method() == "tools/call").then_some(Answer::Hold), json!({"tools": {}}));
    let token = CancelToken::new();
    let options = RequestOptions::default().cancel_with(&token);
    let pending = w.start(async move { client.call_tool(CallToolParams::new("slow"), &options).await });
    token.cancel("the user pressed stop");
    w.settle();
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Cancelled { reason })) if reason == "the user pressed stop"));
    let cancelled = w.server.last("notifications/cancelled").unwrap().params();
    assert_eq!(cancelled["reason"], "the user pressed stop");
}

#[test]
fn a_call_cancelled_before_it_starts_sends_nothing() {
    let (mut w, client) = legacy(tool_server(&["a"]), json!({"tools": {}}));
    let token = CancelToken::new();
    token.cancel("too late");
    let options = RequestOptions::default().cancel_with(&token);
    let outcome = w.run(async move { client.call_tool(CallToolParams::new("a"), &options).await });
    assert!(matches!(outcome, Err(Error::Cancelled { .. })));
    assert_eq!(w.server.count("tools/call"), 0);
}

/// A legacy server whose `tools/call` sends a progress notification with each of `progress`
/// (its params but the token), then holds the call.
fn sending_progress(progress: Vec<Value>) -> (World, Client) {
    legacy(
        move |s| {
            (s.method() == "tools/call").then(|| {
                let token = s.params()["_meta"]["progressToken"].clone();
                let notes = progress.iter().map(|params| {
                    let mut params = params.clone();
                    params["progressToken"] = token.clone();
                    json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
                });
                Answer::After(notes.collect(), Box::new(Answer::Hold))
            })
        },
        json!({"tools": {}}),
    )
}

#[test]
fn progress_reaches_the_listener_and_can_keep_a_call_alive() {
    let (mut w, client) = sending_progress(vec![json!({"progress": 1, "total": 2}), json!({"progress": 2, "total": 2})]);
    let heard = Rc::new(RefCell::new(Vec::new()));
    let log = heard.clone();
    let options = RequestOptions::default().timeout(1_000).on_progress(move |p| log.borrow_mut().push(p["progress"].clone()), true);
    let pending = w.start(async move { client.call_tool(CallToolParams::new("long"), &options).await });
    assert_eq!(*heard.borrow(), [json!(1), json!(2)]);
    assert!(pending.borrow().is_none());
    let call = w.server.last("tools/call").unwrap();
    w.advance(900);
    w.server.respond(&call.id().unwrap(), text_result("done"));
    w.settle();
    assert_eq!(pending.borrow_mut().take().unwrap().unwrap().text(), "done");
}

#[test]
fn progress_without_a_number_neither_reaches_the_listener_nor_keeps_a_call_alive() {
    let (mut w, client) = sending_progress(vec![json!({"progress": "lots"}), json!({"progress": null})]);
    let heard = Rc::new(RefCell::new(Vec::new()));
    let log = heard.clone();
    let options = RequestOptions::default().timeout(1_000).on_progress(move |p| log.borrow_mut().push(p.clone()), true);
    let pending = w.start(async move { client.call_tool(CallToolParams::new("long"), &options).await });
    assert!(heard.borrow().is_empty());
    w.advance(1_000);
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Timeout { .. }))));
}

#[test]
fn an_ended_session_is_renewed_once_and_the_calls_sent_again() {
    let (mut w, client) = legacy(tool_server(&["a"]), json!({"tools": {}}));
    let renewals = Rc::new(RefCell::new(Vec::new()));
    let log = renewals.clone();
    client.on_event(move |event| {
        if let ClientEvent::SessionRenewed { previous, current } = event {
            log.borrow_mut().push((previous.clone(), current.clone()));
        }
    });
    w.server.forget_sessions();
    let (a, b) = (client.clone(), client.clone());
    let first = w.start(async move { a.call_tool(CallToolParams::new("a"), &RequestOptions::default()).await });
    let second = w.start(async move { b.list_all_tools(&RequestOptions::default()).await });
    w.settle();
    assert_eq!(first.borrow_mut().take().unwrap().unwrap().text(), "ok");
    assert_eq!(second.borrow_mut().take().unwrap().unwrap().len(), 1);
    assert_eq!(w.server.count("initialize"), 2);
    assert_eq!(*renewals.borrow(), [(Some("session-1".to_owned()), Some("session-2".to_owned()))]);
    assert_eq!(client.session_id().as_deref(), Some("session-2"));
    assert_eq!(w.server.last("tools/call").unwrap().session.as_deref(), Some("session-2"));
}

#[cfg(feature = "modern")]
#[test]
fn modern_requests_carry_meta_and_the_logging_level() {
    let (mut w, client) = modern(tool_server(&["a"]), json!({"tools": {}, "logging": {}}));
    let c = client.clone();
    w.run(async move { c.set_logging_level("warning", &RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.count("logging/setLevel"), 0);
    w.run(async move { client.call_tool(CallToolParams::new("a"), &RequestOptions::default()).await }).unwrap();
    let meta = &w.server.last("tools/call").unwrap().params()["_meta"];
    assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert_eq!(meta["io.modelcontextprotocol/logLevel"], "warning");
    assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "mcp-wasm");
}

#[test]
fn legacy_set_logging_level_sends_set_level_and_checks_the_level() {
    let (mut w, client) = legacy(|_| None, json!({"logging": {}}));
    let c = client.clone();
    w.run(async move { c.set_logging_level("debug", &RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.last("logging/setLevel").unwrap().params(), json!({"level": "debug"}));
    let wrong = w.run(async move { client.set_logging_level("loud", &RequestOptions::default()).await });
    assert!(matches!(wrong, Err(Error::InvalidArgument(_))));
    assert_eq!(w.server.count("logging/setLevel"), 1);
}

#[cfg(feature = "modern")]
#[test]
fn methods_the_modern_era_removed_fail_before_sending() {
    let (mut w, client) = modern(|_| None, json!({}));
    let c = client.clone();
    assert!(matches!(w.run(async move { c.ping(&RequestOptions::default()).await }), Err(Error::Unsupported(_))));
    assert!(matches!(w.run(async move { client.send_roots_list_changed().await }), Err(Error::Unsupported(_))));
    assert_eq!(w.server.methods(), ["server/discover"]);
}

/// A server whose first answer to `method` is lost on the way.
fn flaky(method: &'static str, names: &'static [&'static str]) -> impl Fn(&Seen) -> Option<Answer> {
    let lost = Cell::new(false);
    move |s| {
        if s.method() == method && !lost.replace(true) {
            return Some(Answer::Network);
        }
        match s.method() {
            "tools/list" => Some(Answer::Result(json!({"tools": names.iter().map(|n| json!({
                "name": n, "inputSchema": {"type": "object"},
                "annotations": {"idempotentHint": n.starts_with("safe")},
            })).collect::<Vec<_>>()}))),
            "tools/call" => Some(Answer::Result(text_result("ok"))),
            _ => None,
        }
    }
}

#[cfg(feature = "modern")]
#[test]
fn modern_reads_lost_to_a_broken_stream_are_sent_again() {
    let (mut w, client) = modern(flaky("tools/list", &["a"]), json!({"tools": {}}));
    let tools = w.run(async move { client.list_all_tools(&RequestOptions::default()).await }).unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(w.server.count("tools/list"), 2);
}

#[cfg(feature = "modern")]
#[test]
fn modern_tool_calls_are_sent_again_only_when_idempotent() {
    let (mut w, client) = modern(flaky("tools/call", &["safe", "risky"]), json!({"tools": {}}));
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    let c = client.clone();
    let risky = w.run(async move { c.call_tool(CallToolParams::new("risky"), &RequestOptions::default()).await });
    assert!(matches!(risky, Err(Error::Network { .. })));
    assert_eq!(w.server.count("tools/call"), 1);
    let safe = w.run(async move { client.call_tool(CallToolParams::new("safe"), &RequestOptions::default()).await });
    assert_eq!(safe.unwrap().text(), "ok");
    assert_eq!(w.server.count("tools/call"), 2, "the first call of safe was answered, it is not lost");
}

#[cfg(feature = "modern")]
#[test]
fn a_lost_idempotent_call_is_sent_once_more() {
    let lost = Rc::new(Cell::new(0));
    let counter = lost.clone();
    let (mut w, client) = modern(
        move |s| match s.method() {
            "tools/list" => Some(Answer::Result(
                json!({"tools": [{"name": "safe", "inputSchema": {"type": "object"}, "annotations": {"idempotentHint": true}}]}),
            )),
            "tools/call" if counter.replace(counter.get() + 1) == 0 => Some(Answer::Network),
            "tools/call" => Some(Answer::Result(text_result("ok"))),
            _ => None,
        },
        json!({"tools": {}}),
    );
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    let outcome = w.run(async move { client.call_tool(CallToolParams::new("safe"), &RequestOptions::default()).await });
    assert_eq!(outcome.unwrap().text(), "ok");
    assert_eq!(lost.get(), 2);
}

#[cfg(feature = "modern")]
#[test]
fn a_header_mismatch_relists_the_tools_and_retries_once() {
    let mismatched = Cell::new(false);
    let (mut w, client) = modern(
        move |s| match s.method() {
            "tools/call" if !mismatched.replace(true) => Some(Answer::error(-32020, "header mismatch")),
            _ => tool_server(&["a"])(s),
        },
        json!({"tools": {}}),
    );
    let outcome = w.run(async move { client.call_tool(CallToolParams::new("a"), &RequestOptions::default()).await });
    assert_eq!(outcome.unwrap().text(), "ok");
    assert_eq!(w.server.methods()[1..], ["tools/call", "tools/list", "tools/call"]);
}

/// The listing a header mismatch sends the client to is held within the call's own timeout
/// and cancellation; before, it had its own default timeout per page.
#[cfg(feature = "modern")]
#[test]
fn the_relisting_after_a_header_mismatch_stops_at_the_calls_timeout_or_cancellation() {
    let script = || {
        |s: &Seen| match s.method() {
            "tools/call" => Some(Answer::error(-32020, "header mismatch")),
            "tools/list" => Some(Answer::Hold),
            _ => None,
        }
    };
    let (mut w, client) = modern(script(), json!({"tools": {}}));
    let c = client.clone();
    let timed = w.start(async move { c.call_tool(CallToolParams::new("a"), &RequestOptions::default().timeout(1_000)).await });
    w.advance(999);
    assert!(timed.borrow().is_none());
    w.advance(1);
    assert!(matches!(timed.borrow_mut().take(), Some(Err(Error::Timeout { ms: 1_000 }))));

    let token = CancelToken::new();
    let options = RequestOptions { cancel: Some(token.source()), ..RequestOptions::default() };
    let cancelled = w.start(async move { client.call_tool(CallToolParams::new("a"), &options).await });
    assert!(cancelled.borrow().is_none());
    token.cancel("enough");
    w.settle();
    assert!(matches!(cancelled.borrow_mut().take(), Some(Err(Error::Cancelled { reason })) if reason == "enough"));
}

/// With the cache on, the listing after a header mismatch asks the server: the cached listing is
/// what it just refused.
#[cfg(feature = "modern")]
#[test]
fn the_relisting_after_a_header_mismatch_passes_the_cache_by() {
    let mismatched = Cell::new(false);
    let options = ClientOptions { cache: Some(crate::client::CacheBounds::DEFAULT), ..ClientOptions::default().era(EraChoice::Modern) };
    let (mut w, client) = crate::client::testing::connected(
        move |s| match s.method() {
            "tools/list" => Some(Answer::Result(json!({"tools": tools(&["a"])["tools"], "ttlMs": 60_000}))),
            "tools/call" if !mismatched.replace(true) => Some(Answer::error(-32020, "header mismatch")),
            _ => tool_server(&["a"])(s),
        },
        json!({"tools": {}}),
        options,
    );
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    let outcome = w.run(async move { client.call_tool(CallToolParams::new("a"), &RequestOptions::default()).await });
    assert_eq!(outcome.unwrap().text(), "ok");
    assert_eq!(w.server.count("tools/list"), 2, "listed again from the server, not from the cache");
}

/// A server that answers `tools/list` itself with −32020 is not met by listing again: before,
/// each recovery listed the tools, which failed and recovered in turn, without end.
#[cfg(feature = "modern")]
#[test]
fn a_header_mismatch_on_the_listing_itself_is_its_error() {
    let (mut w, client) = modern(
        |s| match s.method() {
            "tools/list" | "tools/call" => Some(Answer::error(-32020, "header mismatch")),
            "vendor/thing" => Some(Answer::Result(json!({}))),
            _ => None,
        },
        json!({"tools": {}}),
    );
    let c = client.clone();
    let listed = w.run(async move { c.list_tools(None, &RequestOptions::default()).await });
    assert!(matches!(listed, Err(Error::Rpc(ref e)) if e.code == -32020), "{listed:?}");
    assert_eq!(w.server.methods()[1..], ["tools/list"]);
    // A call whose mismatch sends the client to list the tools again fails with that listing's error.
    let called = w.run(async move {
        let mismatch = client.call_tool(CallToolParams::new("a"), &RequestOptions::default()).await;
        (mismatch, client.request("vendor/thing", None, &RequestOptions::default()).await)
    });
    assert!(matches!(called.0, Err(Error::Rpc(ref e)) if e.code == -32020), "{:?}", called.0);
    assert!(called.1.is_ok(), "the client goes on: {:?}", called.1);
    assert_eq!(w.server.methods()[2..], ["tools/call", "tools/list", "vendor/thing"]);
}

#[cfg(feature = "modern")]
#[test]
fn a_missing_client_capability_is_a_typed_error() {
    let (mut w, client) = modern(
        |s| {
            (s.method() == "tools/call").then(|| {
                Answer::Error(ErrorObject {
                    code: -32021,
                    message: "needs elicitation".into(),
                    data: Some(json!({"requiredCapabilities": {"elicitation": {}}})),
                })
            })
        },
        json!({"tools": {}}),
    );
    let outcome = w.run(async move { client.call_tool(CallToolParams::new("a"), &RequestOptions::default()).await });
    assert!(matches!(outcome, Err(Error::MissingCapability(needed)) if needed.contains("elicitation")));
}

#[cfg(feature = "modern")]
#[test]
fn raw_requests_skip_the_capability_check_but_keep_the_era_rules() {
    let (mut w, client) = modern(|s| (s.method() == "vendor/thing").then(|| Answer::Result(json!({"x": 1}))), json!({}));
    let c = client.clone();
    let reply = w.run(async move { c.request("vendor/thing", Some(json!({"a": 1})), &RequestOptions::default()).await }).unwrap();
    assert_eq!(reply.value(), &json!({"x": 1}));
    let params = w.server.last("vendor/thing").unwrap().params();
    assert_eq!(params["a"], 1);
    assert_eq!(params["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    w.run(async move { client.notify("vendor/hello", None).await }).unwrap();
    assert!(w.server.last("vendor/hello").unwrap().params()["_meta"].is_object());
}
