//! Session renewal and replay: what is sent again after the server ended
//! the session or the stream broke, and what is not.

use crate::client::testing::{connected, legacy_peer, tell, telling_capabilities, text_result, tools, Answer, Seen, World};
use crate::client::{Client, ClientEvent, ClientOptions, EraChoice, RequestOptions};
use crate::error::Error;
use crate::protocol::types::CallToolParams;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Answers lists, calls and reads.
fn everything(s: &Seen) -> Option<Answer> {
    match s.method() {
        "tools/list" => Some(Answer::Result(tools(&["a"]))),
        "tools/call" => Some(Answer::Result(text_result("ok"))),
        "resources/read" => Some(Answer::Result(json!({"contents": [{"uri": s.params()["uri"], "text": "x"}]}))),
        _ => None,
    }
}

fn legacy(script: impl Fn(&Seen) -> Option<Answer> + 'static) -> (World, Client) {
    connected(script, json!({"tools": {}, "resources": {}}), ClientOptions::default().era(EraChoice::Legacy))
}

/// Counts the `SessionRenewed` events `client` emits.
fn renewals(client: &Client) -> Rc<Cell<u32>> {
    let count = Rc::new(Cell::new(0));
    let seen = count.clone();
    client.on_event(move |event| {
        if matches!(event, ClientEvent::SessionRenewed { .. }) {
            seen.set(seen.get() + 1);
        }
    });
    count
}

fn call(w: &mut World, client: &Client, name: &str) -> Result<String, Error> {
    let (c, params) = (client.clone(), CallToolParams::new(name));
    w.run(async move { c.call_tool(params, &RequestOptions::default()).await.map(|r| r.text()) })
}

#[test]
fn three_concurrent_requests_share_one_renewal_and_each_is_received_once() {
    let (mut w, client) = legacy(everything);
    let renewed = renewals(&client);
    w.server.forget_sessions();
    let (a, b, c) = (client.clone(), client.clone(), client.clone());
    let call = w.start(async move { a.call_tool(CallToolParams::new("a"), &RequestOptions::default()).await });
    let list = w.start(async move { b.list_tools(None, &RequestOptions::default()).await });
    let read = w.start(async move { c.read_resource("file:///x", &RequestOptions::default()).await });
    w.settle();
    assert!(call.borrow_mut().take().unwrap().is_ok());
    assert!(list.borrow_mut().take().unwrap().is_ok());
    assert!(read.borrow_mut().take().unwrap().is_ok());
    assert_eq!((w.server.count("initialize"), renewed.get()), (2, 1));
    for method in ["tools/call", "tools/list", "resources/read"] {
        assert_eq!(w.server.count(method), 1, "{method}: the ended session never received it");
        assert_eq!(w.server.last(method).unwrap().session.as_deref(), Some("session-2"), "{method}");
    }
}

#[test]
fn a_notification_the_ended_session_refused_renews_it_and_goes_out_in_the_new_one() {
    let (mut w, client) = legacy(everything);
    let renewed = renewals(&client);
    w.server.forget_sessions();
    let c = client.clone();
    w.run(async move { c.notify("notifications/custom", Some(json!({"n": 1}))).await }).unwrap();
    assert_eq!((w.server.count("initialize"), renewed.get()), (2, 1));
    assert_eq!(w.server.count("notifications/custom"), 1, "the ended session never received it");
    assert_eq!(w.server.last("notifications/custom").unwrap().session.as_deref(), Some("session-2"));
}

/// Answers subscriptions and the logging level besides [`everything`].
fn restoring(s: &Seen) -> Option<Answer> {
    match s.method() {
        "resources/subscribe" | "resources/unsubscribe" | "logging/setLevel" => Some(Answer::Result(json!({}))),
        _ => everything(s),
    }
}

/// A legacy client subscribed to `file:///a` and `file:///b` at level "error".
fn subscribed_at_error() -> (World, Client) {
    let (mut w, client) = connected(restoring, telling_capabilities(), ClientOptions::default().era(EraChoice::Legacy));
    tell(&mut w, &client, &["file:///a", "file:///b"], "error");
    (w, client)
}

/// The params of each `method` request that went out in `session`.
fn in_session(w: &World, method: &str, session: &str) -> Vec<Value> {
    w.server.seen.borrow().iter().filter(|s| s.method() == method && s.session.as_deref() == Some(session)).map(Seen::params).collect()
}

/// A new session starts with no subscriptions and at the server's own
/// logging level: the renewal tells it the ended one's, and an unsubscribed
/// resource is not among them.
#[test]
fn a_renewed_session_is_given_the_ended_ones_subscriptions_and_logging_level() {
    let (mut w, client) = subscribed_at_error();
    let c = client.clone();
    w.run(async move { c.unsubscribe_resource("file:///a", &RequestOptions::default()).await.unwrap() });
    w.server.forget_sessions();
    assert_eq!(call(&mut w, &client, "a").unwrap(), "ok");
    w.settle();
    assert_eq!(in_session(&w, "logging/setLevel", "session-2"), [json!({"level": "error"})]);
    assert_eq!(in_session(&w, "resources/subscribe", "session-2"), [json!({"uri": "file:///b"})]);
}

/// A server that ends the new session as soon as the restore begins: the
/// restore's requests renew nothing (each renewal would restore, and each
/// restore renew, for ever), and what failed is reported.
#[test]
fn a_restore_that_finds_the_new_session_ended_renews_nothing() {
    let (mut w, client) = subscribed_at_error();
    let problems = Rc::new(Cell::new(0));
    let seen = problems.clone();
    client.on_event(move |event| {
        if matches!(event, ClientEvent::Problem(Error::SessionExpired { .. })) {
            seen.set(seen.get() + 1);
        }
    });
    let server = Rc::downgrade(&w.server);
    w.server.rescript(move |s| {
        if s.method() == "logging/setLevel" {
            if let Some(server) = server.upgrade() {
                server.forget_sessions();
            }
        }
        restoring(s).unwrap_or_else(|| legacy_peer(s, &telling_capabilities()))
    });
    w.server.forget_sessions();
    assert_eq!(call(&mut w, &client, "a").unwrap(), "ok");
    w.settle();
    assert_eq!(w.server.count("initialize"), 2, "one renewal, by the call");
    assert_eq!(problems.get(), 1, "the subscription the ended session refused is reported, and the restore stops");
}

/// A change that itself meets the ended session is resent into the new one,
/// and the restore, which runs after it, must not undo it: the unsubscribed
/// resource is not subscribed again, and the new level is the one restored.
#[test]
fn a_change_that_meets_the_renewal_is_not_undone_by_the_restore() {
    let (mut w, client) = subscribed_at_error();
    w.server.forget_sessions();
    let c = client.clone();
    w.run(async move { c.unsubscribe_resource("file:///a", &RequestOptions::default()).await.unwrap() });
    w.settle();
    assert_eq!(in_session(&w, "resources/unsubscribe", "session-2"), [json!({"uri": "file:///a"})]);
    assert_eq!(in_session(&w, "resources/subscribe", "session-2"), [json!({"uri": "file:///b"})]);
    w.server.forget_sessions();
    let c = client.clone();
    w.run(async move { c.set_logging_level("debug", &RequestOptions::default()).await.unwrap() });
    w.settle();
    let levels: Vec<Value> = in_session(&w, "logging/setLevel", "session-3").iter().map(|p| p["level"].clone()).collect();
    assert!(!levels.is_empty() && levels.iter().all(|level| level == "debug"), "{levels:?}");
}

#[test]
fn a_tool_call_the_ended_session_refused_is_sent_again_whatever_the_tool() {
    let (mut w, client) = legacy(everything);
    w.server.forget_sessions();
    assert_eq!(call(&mut w, &client, "not-idempotent").unwrap(), "ok");
    assert_eq!(w.server.count("tools/call"), 1, "the refused attempt never reached the server, so it is not a repeat");
}

#[test]
fn the_session_is_renewed_again_when_the_new_one_ends_too() {
    let (mut w, client) = legacy(everything);
    let renewed = renewals(&client);
    for expected in ["session-2", "session-3"] {
        w.server.forget_sessions();
        call(&mut w, &client, "a").unwrap();
        assert_eq!(client.session_id().as_deref(), Some(expected));
    }
    assert_eq!(renewed.get(), 2);
}

#[test]
fn a_renewal_refreshes_what_the_server_declared() {
    let renewed = Rc::new(Cell::new(false));
    let flag = renewed.clone();
    let mut w = World::new(move |s| {
        let capabilities = if flag.get() { json!({"tools": {}, "prompts": {}}) } else { json!({"tools": {}}) };
        everything(s).unwrap_or_else(|| legacy_peer(s, &capabilities))
    });
    let client = w.connect(ClientOptions::default().era(EraChoice::Legacy)).unwrap();
    assert!(client.server().capabilities.get("prompts").is_none());
    renewed.set(true);
    w.server.forget_sessions();
    call(&mut w, &client, "a").unwrap();
    assert!(client.server().capabilities.get("prompts").is_some());
}

#[test]
fn raw_requests_are_renewed_and_replayed_too() {
    let (mut w, client) = legacy(|s| (s.method() == "vendor/x").then(|| Answer::Result(json!({"n": 1}))));
    w.server.forget_sessions();
    let reply = w.run(async move { client.request("vendor/x", None, &RequestOptions::default()).await }).unwrap();
    assert_eq!(reply.value(), &json!({"n": 1}));
    assert_eq!((w.server.count("initialize"), w.server.count("vendor/x")), (2, 1));
}

#[test]
fn a_failed_renewal_fails_the_request_and_the_next_one_renews_again() {
    let failures = Rc::new(Cell::new(0));
    let count = failures.clone();
    let (mut w, client) = legacy(move |s| {
        let refuse = s.method() == "initialize" && count.get() == 1;
        if s.method() == "initialize" {
            count.set(count.get() + 1);
        }
        if refuse {
            return Some(Answer::Network);
        }
        everything(s)
    });
    w.server.require_sessions();
    w.server.forget_sessions();
    assert!(matches!(call(&mut w, &client, "a"), Err(Error::Network { .. })));
    assert_eq!(call(&mut w, &client, "a").unwrap(), "ok", "the client is not left without a session");
    assert_eq!(w.server.count("initialize"), 3);
    assert_eq!(client.session_id().as_deref(), Some("session-2"));
}

#[test]
fn the_legacy_era_sends_nothing_again_after_a_network_error() {
    let lost = RefCell::new(Vec::new());
    let (mut w, client) = legacy(move |s| {
        if matches!(s.method(), "tools/list" | "tools/call") && !lost.borrow().contains(&s.method().to_owned()) {
            lost.borrow_mut().push(s.method().to_owned());
            return Some(Answer::Network);
        }
        everything(s)
    });
    let c = client.clone();
    assert!(matches!(w.run(async move { c.list_tools(None, &RequestOptions::default()).await }), Err(Error::Network { .. })));
    assert!(matches!(call(&mut w, &client, "a"), Err(Error::Network { .. })));
    assert_eq!((w.server.count("tools/list"), w.server.count("tools/call")), (1, 1));
    assert_eq!(w.server.count("initialize"), 1, "a network error is no ended session");
}

/// What the 2026-07-28 era sends again after a broken stream.
#[cfg(feature = "modern")]
mod modern_replay {
    use super::*;
    use crate::client::testing::modern_peer;
    use serde_json::Value;

    #[test]
    fn a_modern_call_that_timed_out_is_not_sent_again_even_when_idempotent() {
        let (mut w, client) = modern_losing_the_first_call(|| Answer::Hold);
        let c = client.clone();
        let pending = w.start(async move { c.call_tool(CallToolParams::new("safe"), &RequestOptions::default().timeout(1_000)).await });
        w.advance(1_000);
        assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Timeout { ms: 1_000 }))));
        assert_eq!(w.server.count("tools/call"), 1, "the server may be running it");
    }

    #[test]
    fn a_tool_marked_not_idempotent_is_not_sent_again_after_a_broken_stream() {
        let (mut w, client) = modern_losing_the_first_call(|| Answer::Network);
        assert!(matches!(call(&mut w, &client, "marked-unsafe"), Err(Error::Network { .. })));
        assert_eq!(w.server.count("tools/call"), 1);
    }

    #[test]
    fn a_relisting_that_drops_the_idempotent_hint_stops_the_replay() {
        let listed = Rc::new(Cell::new(0));
        let count = listed.clone();
        let lost = Cell::new(0);
        let mut w = World::new(move |s| match s.method() {
            "tools/list" => {
                count.set(count.get() + 1);
                let hint: Value = (count.get() == 1).into();
                Answer::Result(
                    json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}, "annotations": {"idempotentHint": hint}}]}),
                )
            }
            "tools/call" if lost.replace(lost.get() + 1) % 2 == 0 => Answer::Network,
            "tools/call" => Answer::Result(text_result("ok")),
            _ => modern_peer(s, &json!({"tools": {}})),
        });
        let client = w.connect(ClientOptions::default()).unwrap();
        for _ in 0..2 {
            let c = client.clone();
            w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
        }
        assert!(matches!(call(&mut w, &client, "t"), Err(Error::Network { .. })));
        assert_eq!(w.server.count("tools/call"), 1);
    }

    /// A modern server whose `tools/call` is lost once; `safe` is idempotent.
    fn modern_losing_the_first_call(answer: fn() -> Answer) -> (World, Client) {
        let lost = Cell::new(false);
        let mut w = World::new(move |s| match s.method() {
            "tools/list" => Answer::Result(json!({"tools": [
                {"name": "safe", "inputSchema": {"type": "object"}, "annotations": {"idempotentHint": true}},
                {"name": "marked-unsafe", "inputSchema": {"type": "object"}, "annotations": {"idempotentHint": false}},
            ]})),
            "tools/call" if !lost.replace(true) => answer(),
            "tools/call" => Answer::Result(text_result("ok")),
            _ => modern_peer(s, &json!({"tools": {}})),
        });
        let client = w.connect(ClientOptions::default()).unwrap();
        let c = client.clone();
        w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
        (w, client)
    }
}

/// A server whose stream finds every new session gone at once (a GET answered 404, or a balancer
/// that sends the stream to another node) had the client renew in a loop without a pause. The
/// renewals the stream asks for in a row now wait as its reconnections do, and stop after five
/// within a minute of each other, with an error event; a request still renews.
#[test]
fn a_stream_that_ends_every_new_session_stops_renewing_it() {
    let (mut w, client) = legacy(everything);
    let renewed = renewals(&client);
    let problems = Rc::new(RefCell::new(Vec::new()));
    let seen = problems.clone();
    client.on_event(move |event| {
        if let ClientEvent::Problem(error) = event {
            seen.borrow_mut().push(error.to_string());
        }
    });
    w.server.expire_streams();
    w.settle();
    assert_eq!(renewed.get(), 1, "the first renewal goes at once");
    for _ in 0..10 {
        w.advance(40_000);
    }
    assert_eq!(renewed.get(), super::super::requests::MAX_STREAM_RENEWALS, "then each waits, and five in a row is the end");
    assert_eq!(w.server.count("initialize"), 1 + super::super::requests::MAX_STREAM_RENEWALS as usize);
    assert!(problems.borrow().iter().any(|p| p.contains("sessions in a row")), "{problems:?}");
    // A request that finds the session gone renews it all the same; its stream, a quiet minute
    // after the last, may ask for one at once again.
    w.server.forget_sessions();
    assert_eq!(call(&mut w, &client, "a").unwrap(), "ok");
    assert_eq!(renewed.get(), super::super::requests::MAX_STREAM_RENEWALS + 2);
}

/// The pause before a renewal the stream asked for (up to 30 s) ends when the client closes, and
/// nothing is renewed: its timer must not hold a Node process or a Worker's invocation.
#[test]
fn a_close_ends_the_pause_before_a_renewal() {
    let (mut w, client) = legacy(everything);
    let renewed = renewals(&client);
    w.server.expire_streams();
    w.settle();
    assert_eq!(renewed.get(), 1, "the first renewal goes at once");
    assert!(w.runtime.pending_timers() > 0, "the second waits");
    let c = client.clone();
    w.run(async move { c.close().await });
    w.settle();
    assert_eq!(w.runtime.pending_timers(), 0, "no timer is left");
    w.advance(60_000);
    assert_eq!(renewed.get(), 1);
    assert_eq!(w.server.count("initialize"), 2);
}
