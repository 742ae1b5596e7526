//! List bookkeeping: paging across cursors and its bounds, the other lists,
//! what the modern era drops from a tool listing, and list watchers.

use crate::client::testing::{connected, notification, tools, Answer, Seen, World};
use crate::client::{Client, ClientOptions, EraChoice, ListChange, ListWatcher, RequestOptions, MAX_PAGES, PROMPTS, TOOLS};
use crate::error::Error;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;

fn legacy(script: impl Fn(&Seen) -> Option<Answer> + 'static) -> (World, Client) {
    connected(script, json!({"tools": {"listChanged": true}, "prompts": {"listChanged": true}, "resources": {}}), legacy_options())
}

fn legacy_options() -> ClientOptions {
    ClientOptions::default().era(EraChoice::Legacy)
}

fn list_all_tools(w: &mut World, client: &Client) -> Result<Vec<String>, Error> {
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await.map(|t| t.into_iter().map(|t| t.name).collect()) })
}

/// Answers `tools/list` with `page(cursor)`.
fn tool_pages(page: impl Fn(Option<&str>) -> Answer + 'static) -> impl Fn(&Seen) -> Option<Answer> {
    move |s| (s.method() == "tools/list").then(|| page(s.params()["cursor"].as_str()))
}

#[test]
fn a_server_that_pages_forever_is_stopped_at_max_pages() {
    let (mut w, client) = legacy(tool_pages(|cursor| {
        let next = cursor.and_then(|c| c.parse::<u64>().ok()).unwrap_or(0) + 1;
        Answer::Result(json!({"tools": [], "nextCursor": next.to_string()}))
    }));
    let error = list_all_tools(&mut w, &client).unwrap_err();
    assert!(matches!(&error, Error::Protocol(m) if m.contains(&MAX_PAGES.to_string())), "{error:?}");
    assert_eq!(w.server.count("tools/list"), MAX_PAGES);
}

#[test]
fn pages_that_add_up_past_four_messages_end_the_walk_and_the_client_goes_on() {
    let mut options = legacy_options();
    options.limits.max_message_bytes = 4_096;
    let (mut w, client) = connected(
        tool_pages(|cursor| {
            let next = cursor.and_then(|c| c.parse::<u64>().ok()).unwrap_or(0) + 1;
            Answer::Result(json!({"tools": tools(&["t"])["tools"], "nextCursor": next.to_string(), "padding": "x".repeat(3_000)}))
        }),
        json!({"tools": {}}),
        options,
    );
    let error = list_all_tools(&mut w, &client).unwrap_err();
    assert!(matches!(&error, Error::LimitExceeded { limit: "maxMessageBytes", message } if message.contains("16384")), "{error:?}");
    assert_eq!(w.server.count("tools/list"), 16_384 / 3_000 + 1, "stops at the page that goes past, not at MAX_PAGES");
    let c = client.clone();
    let page = w.run(async move { c.list_tools(None, &RequestOptions::default()).await });
    assert!(page.is_ok(), "the client stays usable: {page:?}");
}

#[test]
fn a_cursor_that_is_not_a_string_ends_the_walk() {
    let (mut w, client) = legacy(tool_pages(|_| Answer::Result(json!({"tools": [], "nextCursor": 2}))));
    assert!(matches!(list_all_tools(&mut w, &client), Err(Error::Protocol(m)) if m.contains("nextCursor")));
    assert_eq!(w.server.count("tools/list"), 1);
}

#[test]
fn a_cursor_repeated_after_other_pages_is_caught_too() {
    let (mut w, client) = legacy(tool_pages(|cursor| {
        let next = match cursor {
            None => "a",
            Some("a") => "b",
            _ => "a",
        };
        Answer::Result(json!({"tools": tools(&["t"])["tools"], "nextCursor": next}))
    }));
    assert!(matches!(list_all_tools(&mut w, &client), Err(Error::Protocol(m)) if m.contains("twice")));
    assert_eq!(w.server.count("tools/list"), 3);
}

#[test]
fn an_error_on_a_later_page_is_the_walks_error() {
    let (mut w, client) = legacy(tool_pages(|cursor| match cursor {
        None => Answer::Result(json!({"tools": tools(&["a"])["tools"], "nextCursor": "2"})),
        Some(_) => Answer::error(-32602, "bad cursor"),
    }));
    assert!(matches!(list_all_tools(&mut w, &client), Err(Error::Rpc(e)) if e.code == -32602));
    assert_eq!(w.server.count("tools/list"), 2);
}

#[test]
fn a_malformed_cursor_param_is_refused_before_sending() {
    let (mut w, client) = legacy(tool_pages(|_| Answer::Result(tools(&["a"]))));
    let outcome = w.run(async move { client.list_page_reply(TOOLS, Some(json!({"cursor": 5})), &RequestOptions::default()).await });
    assert_eq!(outcome.unwrap_err().kind(), "invalid-argument");
    assert_eq!(w.server.count("tools/list"), 0);
}

#[test]
fn resources_templates_and_prompts_are_walked_by_their_own_item_fields() {
    let (mut w, client) = legacy(|s| {
        let (field, item) = match s.method() {
            "resources/list" => ("resources", json!({"uri": "file:///r", "name": "r"})),
            "resources/templates/list" => ("resourceTemplates", json!({"uriTemplate": "file:///{x}", "name": "t"})),
            "prompts/list" => ("prompts", json!({"name": "p"})),
            _ => return None,
        };
        let next = s.params().get("cursor").is_none().then_some("2");
        Some(Answer::Result(json!({ field: [item], "nextCursor": next })))
    });
    let c = client.clone();
    let resources = w.run(async move { c.list_all_resources(&RequestOptions::default()).await }).unwrap();
    let c = client.clone();
    let templates = w.run(async move { c.list_all_resource_templates(&RequestOptions::default()).await }).unwrap();
    let prompts = w.run(async move { client.list_all_prompts(&RequestOptions::default()).await }).unwrap();
    assert_eq!((resources.len(), templates.len(), prompts.len()), (2, 2, 2));
    assert_eq!(templates[1].uri_template, "file:///{x}");
    for method in ["resources/list", "resources/templates/list", "prompts/list"] {
        assert_eq!(w.server.count(method), 2, "{method}");
    }
}

#[cfg(feature = "modern")]
#[test]
fn the_modern_era_drops_tools_whose_header_annotations_are_invalid() {
    let (mut w, client) = connected(
        |s| {
            (s.method() == "tools/list").then(|| {
                Answer::Result(json!({"tools": [
                    {"name": "good", "inputSchema": {"type": "object", "properties": {"r": {"type": "string", "x-mcp-header": "Region"}}}},
                    {"name": "float", "inputSchema": {"type": "object", "properties": {"f": {"type": "number", "x-mcp-header": "F"}}}},
                    {"name": "deep", "inputSchema": {"type": "object", "$defs": {"d": {"x-mcp-header": "D"}}}},
                ]}))
            })
        },
        json!({"tools": {}}),
        ClientOptions::default().era(EraChoice::Modern),
    );
    assert_eq!(list_all_tools(&mut w, &client).unwrap(), ["good"]);
}

/// What a watcher was told, as text.
fn recorder() -> (Rc<RefCell<Vec<String>>>, impl Fn(ListChange) + 'static) {
    let told = Rc::new(RefCell::new(Vec::new()));
    let log = told.clone();
    let listener = move |change: ListChange| {
        log.borrow_mut().push(match change {
            ListChange::Refreshed(items) => format!("refreshed {}", items.len()),
            ListChange::Failed(error) => format!("failed {}", error.kind()),
            ListChange::Changed => "changed".into(),
        })
    };
    (told, listener)
}

fn watching(watcher: ListWatcher, script: impl Fn(&Seen) -> Option<Answer> + 'static) -> (World, Client) {
    let capabilities = json!({"tools": {"listChanged": true}, "prompts": {"listChanged": true}});
    connected(script, capabilities, ClientOptions { list_changed: vec![watcher], ..legacy_options() })
}

/// A tools watcher with `debounce_ms`, on a server whose tools are `a`: what it was told, the
/// world, and the client, which the watcher lives as long as.
fn watching_tools_listing_a(debounce_ms: u32) -> (Rc<RefCell<Vec<String>>>, World, Client) {
    let (told, listener) = recorder();
    let (w, client) = watching(ListWatcher::new(TOOLS, listener, true, debounce_ms), |s| {
        (s.method() == "tools/list").then(|| Answer::Result(tools(&["a"])))
    });
    (told, w, client)
}

fn prompts_listing(s: &Seen) -> Option<Answer> {
    (s.method() == "prompts/list").then(|| Answer::Result(json!({"prompts": [{"name": "p"}]})))
}

#[test]
fn a_watcher_hears_only_its_own_list() {
    let (told, listener) = recorder();
    let (mut w, _client) = watching(ListWatcher::new(PROMPTS, listener, true, 100), prompts_listing);
    w.server.push(notification("notifications/tools/list_changed"));
    w.advance(1_000);
    assert!(told.borrow().is_empty());
    w.server.push(notification("notifications/prompts/list_changed"));
    w.advance(100);
    assert_eq!(*told.borrow(), ["refreshed 1"]);
    assert_eq!(w.server.count("tools/list"), 0);
}

#[test]
fn a_failed_refresh_is_handed_to_the_watcher() {
    let (told, listener) = recorder();
    let (mut w, _client) = watching(ListWatcher::new(TOOLS, listener, true, 0), |s| {
        (s.method() == "tools/list").then(|| Answer::error(-32603, "database down"))
    });
    w.server.push(notification("notifications/tools/list_changed"));
    w.advance(0);
    assert_eq!(*told.borrow(), ["failed rpc"]);
}

#[test]
fn each_burst_gets_its_own_refresh() {
    let (told, mut w, _client) = watching_tools_listing_a(200);
    for burst in 0..2 {
        w.server.push(notification("notifications/tools/list_changed"));
        w.advance(150);
        w.server.push(notification("notifications/tools/list_changed"));
        w.advance(199);
        assert_eq!(w.server.count("tools/list"), burst, "still inside the burst's quiet period");
        w.advance(1);
    }
    assert_eq!(*told.borrow(), ["refreshed 1", "refreshed 1"]);
}

#[test]
fn a_watcher_without_refresh_waits_out_the_burst_too() {
    let (told, listener) = recorder();
    let (mut w, _client) = watching(ListWatcher::new(TOOLS, listener, false, 500), |_| None);
    for _ in 0..3 {
        w.server.push(notification("notifications/tools/list_changed"));
        w.advance(499);
    }
    assert!(told.borrow().is_empty());
    w.advance(1);
    assert_eq!(*told.borrow(), ["changed"]);
    assert_eq!(w.server.count("tools/list"), 0);
}

#[test]
fn a_closed_client_refreshes_nothing() {
    let (told, listener) = recorder();
    let (mut w, client) =
        watching(ListWatcher::new(TOOLS, listener, true, 300), |s| (s.method() == "tools/list").then(|| Answer::Result(tools(&[]))));
    w.server.push(notification("notifications/tools/list_changed"));
    w.run(async move { client.close().await });
    w.advance(1_000);
    assert!(told.borrow().is_empty());
    assert_eq!(w.server.count("tools/list"), 0);
}

#[test]
fn a_burst_without_end_is_refreshed_every_four_periods() {
    let (told, mut w, _client) = watching_tools_listing_a(300);
    // A change every 100 ms for 3 s: never 300 ms of quiet.
    for _ in 0..30 {
        w.server.push(notification("notifications/tools/list_changed"));
        w.advance(100);
    }
    assert_eq!(w.server.count("tools/list"), 2, "at 1.2 s and 2.4 s, each burst's fourth period");
    w.advance(1_000);
    assert_eq!(*told.borrow(), ["refreshed 1", "refreshed 1", "refreshed 1"]);
}

#[test]
fn refreshes_never_overlap_and_a_change_during_one_brings_one_more() {
    let (told, listener) = recorder();
    let (mut w, _client) = watching(ListWatcher::new(TOOLS, listener, true, 100), |s| (s.method() == "tools/list").then_some(Answer::Hold));
    w.server.push(notification("notifications/tools/list_changed"));
    w.advance(100);
    assert_eq!(w.server.count("tools/list"), 1);
    // Changes while the listing is held: none starts a listing of its own.
    for _ in 0..5 {
        w.server.push(notification("notifications/tools/list_changed"));
        w.advance(200);
    }
    assert_eq!(w.server.count("tools/list"), 1);
    let first = w.server.last("tools/list").unwrap().id().unwrap();
    w.server.respond(&first, tools(&["a"]));
    w.settle();
    assert_eq!(*told.borrow(), ["refreshed 1"]);
    // The changes it missed: one more listing, their burst long over.
    w.advance(0);
    assert_eq!(w.server.count("tools/list"), 2);
    let second = w.server.last("tools/list").unwrap().id().unwrap();
    w.server.respond(&second, tools(&["a", "b"]));
    w.settle();
    w.advance(1_000);
    assert_eq!(*told.borrow(), ["refreshed 1", "refreshed 2"]);
    assert_eq!(w.server.count("tools/list"), 2);
}
