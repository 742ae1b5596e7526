//! The response cache of the 2026-07-28 era, seen from the client: which
//! requests it answers, for how long, what notifications drop, and its bounds.

use crate::client::testing::{connected, notification, text_result, tools, Answer, Seen, World};
use crate::client::{CacheBounds, Client, ClientOptions, EraChoice, RequestOptions};
use crate::protocol::types::CallToolParams;
use serde_json::{json, Value};

/// Every list and read lasts `ttl_ms`; a read's text is its uri.
fn lasting(ttl_ms: u64) -> impl Fn(&Seen) -> Option<Answer> {
    move |s| {
        let mut result = match s.method() {
            "tools/list" => tools(&["a"]),
            "prompts/list" => json!({"prompts": []}),
            "resources/list" => json!({"resources": []}),
            "resources/templates/list" => json!({"resourceTemplates": []}),
            "resources/read" => json!({"contents": [{"uri": s.params()["uri"], "text": s.params()["uri"]}]}),
            "tools/call" => text_result("ok"),
            _ => return None,
        };
        result["ttlMs"] = json!(ttl_ms);
        Some(Answer::Result(result))
    }
}

fn capabilities() -> Value {
    json!({"tools": {}, "prompts": {}, "resources": {"subscribe": true}})
}

fn cached_client(bounds: CacheBounds, era: EraChoice) -> (World, Client) {
    connected(lasting(60_000), capabilities(), ClientOptions { cache: Some(bounds), ..ClientOptions::default() }.era(era))
}

fn modern() -> (World, Client) {
    cached_client(CacheBounds::DEFAULT, EraChoice::Modern)
}

fn read(w: &mut World, client: &Client, uri: &'static str) -> String {
    let c = client.clone();
    let result = w.run(async move { c.read_resource(uri, &RequestOptions::default()).await }).unwrap();
    result.contents[0].text.clone().unwrap_or_default()
}

/// Sends `method` (a list without params) through the raw request path.
fn list(w: &mut World, client: &Client, method: &'static str) {
    let c = client.clone();
    w.run(async move { c.request(method, None, &RequestOptions::default()).await }).unwrap();
}

fn reads(w: &World) -> usize {
    w.server.count("resources/read")
}

#[test]
fn reads_are_cached_per_uri() {
    let (mut w, client) = modern();
    assert_eq!(read(&mut w, &client, "file:///a"), "file:///a");
    assert_eq!(read(&mut w, &client, "file:///b"), "file:///b");
    assert_eq!(read(&mut w, &client, "file:///a"), "file:///a", "a hit gives the cached uri's own result");
    assert_eq!(reads(&w), 2);
}

#[test]
fn an_entry_serves_until_its_ttl_ends_to_the_millisecond() {
    let (mut w, client) = modern();
    read(&mut w, &client, "file:///a");
    w.advance(59_999);
    read(&mut w, &client, "file:///a");
    assert_eq!(reads(&w), 1);
    w.advance(1);
    read(&mut w, &client, "file:///a");
    assert_eq!(reads(&w), 2);
}

#[test]
fn a_resource_update_drops_cached_reads_and_nothing_else() {
    let (mut w, client) = modern();
    read(&mut w, &client, "file:///a");
    list(&mut w, &client, "tools/list");
    w.server.push(json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "file:///a"}}));
    w.settle();
    read(&mut w, &client, "file:///a");
    list(&mut w, &client, "tools/list");
    assert_eq!((reads(&w), w.server.count("tools/list")), (2, 1));
}

#[test]
fn a_resources_list_change_drops_resources_and_templates_but_not_prompts() {
    let (mut w, client) = modern();
    let methods = ["resources/list", "resources/templates/list", "prompts/list"];
    for method in methods {
        list(&mut w, &client, method);
    }
    w.server.push(notification("notifications/resources/list_changed"));
    w.settle();
    for method in methods {
        list(&mut w, &client, method);
    }
    let counts: Vec<usize> = methods.iter().map(|m| w.server.count(m)).collect();
    assert_eq!(counts, [2, 2, 1]);
}

#[test]
fn a_prompts_list_change_drops_only_the_prompts() {
    let (mut w, client) = modern();
    list(&mut w, &client, "prompts/list");
    list(&mut w, &client, "tools/list");
    w.server.push(notification("notifications/prompts/list_changed"));
    w.settle();
    list(&mut w, &client, "prompts/list");
    list(&mut w, &client, "tools/list");
    assert_eq!((w.server.count("prompts/list"), w.server.count("tools/list")), (2, 1));
}

#[test]
fn pages_are_cached_under_their_own_cursor() {
    let (mut w, client) = modern();
    for cursor in [None, Some("2"), None, Some("2"), Some("3")] {
        let c = client.clone();
        w.run(async move { c.list_tools(cursor, &RequestOptions::default()).await }).unwrap();
    }
    assert_eq!(w.server.count("tools/list"), 3);
}

#[test]
fn the_least_recently_used_read_is_evicted_at_the_entry_bound() {
    let (mut w, client) = cached_client(CacheBounds { max_entries: 2, max_bytes: 1 << 20 }, EraChoice::Modern);
    for uri in ["file:///a", "file:///b", "file:///a", "file:///c"] {
        read(&mut w, &client, uri);
    }
    assert_eq!(reads(&w), 3, "a was served from the cache");
    read(&mut w, &client, "file:///a");
    assert_eq!(reads(&w), 3, "a was used more recently than b, so b went");
    read(&mut w, &client, "file:///b");
    assert_eq!(reads(&w), 4);
}

#[test]
fn a_result_larger_than_the_byte_bound_is_never_cached() {
    let (mut w, client) = cached_client(CacheBounds { max_entries: 100, max_bytes: 40 }, EraChoice::Modern);
    for _ in 0..2 {
        read(&mut w, &client, "file:///a-uri-long-enough-to-pass-forty-bytes");
    }
    assert_eq!(reads(&w), 2);
}

#[test]
fn results_without_a_ttl_are_not_cached() {
    let (mut w, client) = connected(
        |s| (s.method() == "resources/read").then(|| Answer::Result(json!({"contents": [{"uri": "file:///a", "text": "x"}]}))),
        capabilities(),
        ClientOptions { cache: Some(CacheBounds::DEFAULT), ..ClientOptions::default() }.era(EraChoice::Modern),
    );
    read(&mut w, &client, "file:///a");
    read(&mut w, &client, "file:///a");
    assert_eq!(reads(&w), 2);
}

#[test]
fn tool_calls_are_never_cached_whatever_their_ttl() {
    let (mut w, client) = modern();
    for _ in 0..2 {
        let c = client.clone();
        w.run(async move { c.call_tool(CallToolParams::new("a"), &RequestOptions::default()).await }).unwrap();
    }
    assert_eq!(w.server.count("tools/call"), 2);
}

#[test]
fn the_legacy_era_does_not_cache() {
    let (mut w, client) = cached_client(CacheBounds::DEFAULT, EraChoice::Legacy);
    read(&mut w, &client, "file:///a");
    read(&mut w, &client, "file:///a");
    assert_eq!(reads(&w), 2);
}

#[test]
fn a_list_answered_after_a_change_notification_is_not_kept() {
    let (lasting, lists) = (lasting(60_000), std::cell::Cell::new(0));
    let (mut w, client) = connected(
        // The first list is held, and the change comes while it is on its way.
        move |s| {
            let first = s.method() == "tools/list" && lists.replace(lists.get() + 1) == 0;
            if first {
                Some(Answer::Hold)
            } else {
                lasting(s)
            }
        },
        capabilities(),
        ClientOptions { cache: Some(CacheBounds::DEFAULT), ..ClientOptions::default() },
    );
    let c = client.clone();
    let stale = w.start(async move { c.request("tools/list", None, &RequestOptions::default()).await });
    w.settle();
    w.server.push(notification("notifications/tools/list_changed"));
    let held = w.server.last("tools/list").and_then(|s| s.id()).unwrap();
    let mut old = tools(&["old"]);
    old["ttlMs"] = json!(60_000);
    w.server.respond(&held, old);
    w.settle();
    assert!(stale.borrow_mut().take().unwrap().is_ok());
    list(&mut w, &client, "tools/list");
    assert_eq!(w.server.count("tools/list"), 2, "the list asked for before the change is not served after it");
}

#[test]
fn a_read_that_needed_input_is_not_kept() {
    let lasting = lasting(60_000);
    let (mut w, client) = connected(
        move |s| match s.method() {
            "resources/read" if s.params().get("inputResponses").is_none() => Some(Answer::Result(json!({
                "resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}, "requestState": "s",
            }))),
            _ => lasting(s),
        },
        capabilities(),
        ClientOptions { cache: Some(CacheBounds::DEFAULT), ..ClientOptions::default() }
            .handlers(crate::client::Handlers::default().roots(|_| async { Ok(vec![]) })),
    );
    read(&mut w, &client, "file:///a");
    read(&mut w, &client, "file:///a");
    assert_eq!(reads(&w), 4, "each read asks again, and answers again");
}
