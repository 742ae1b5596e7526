//! Events, list watchers, snapshots and closing.

use crate::client::testing::{legacy_peer, modern_peer, tools, Answer, Seen, World};
use crate::client::{Client, ClientEvent, ClientOptions, EraChoice, EventFilter, ListChange, ListWatcher, RequestOptions, TOOLS};
use crate::error::Error;
use futures::StreamExt;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

fn legacy(script: impl Fn(&Seen) -> Option<Answer> + 'static, capabilities: Value, options: ClientOptions) -> (World, Client) {
    let mut w = World::new(move |s| script(s).unwrap_or_else(|| legacy_peer(s, &capabilities)));
    let client = w.connect(options.era(EraChoice::Legacy)).unwrap();
    (w, client)
}

fn message(level: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": level, "data": "hi"}})
}

#[test]
fn notifications_reach_listeners_in_order_until_removed() {
    let (mut w, client) = legacy(|_| None, json!({}), ClientOptions::default());
    let heard = Rc::new(RefCell::new(Vec::new()));
    let log = heard.clone();
    let id = client.on_event(move |event| {
        if let Some(n) = event.notification() {
            log.borrow_mut().push(n.params.as_ref().map_or(Value::Null, |p| p["level"].clone()));
        }
    });
    w.server.push(message("info"));
    w.server.push(message("error"));
    client.off_event(id);
    w.server.push(message("debug"));
    w.settle();
    assert_eq!(*heard.borrow(), [json!("info"), json!("error")]);
}

#[test]
fn a_stream_gets_its_method_and_reports_when_it_falls_behind() {
    let (mut w, client) = legacy(|_| None, json!({}), ClientOptions::default());
    let mut logs = client.events(EventFilter::Notifications(Some("notifications/message".into())), 2);
    w.server.push(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
    w.server.push(message("info"));
    let first = w.run(async move {
        let first = logs.next().await;
        (first, logs)
    });
    let (first, mut logs) = first;
    assert_eq!(first.unwrap().unwrap().notification().unwrap().method, "notifications/message");
    for _ in 0..3 {
        w.server.push(message("info"));
    }
    let rest = w.run(async move {
        let mut seen = Vec::new();
        while let Some(item) = logs.next().await {
            seen.push(item.map(|_| ()));
        }
        seen
    });
    assert_eq!(rest.len(), 3);
    assert!(matches!(rest.last(), Some(Err(Error::Lagged { capacity: 2 }))));
}

#[test]
fn close_fails_pending_calls_ends_streams_and_happens_once() {
    let (mut w, client) = legacy(|s| (s.method() == "tools/list").then_some(Answer::Hold), json!({"tools": {}}), ClientOptions::default());
    let closes = Rc::new(RefCell::new(0));
    let count = closes.clone();
    client.on_event(move |event| {
        if matches!(event, ClientEvent::Closed) {
            *count.borrow_mut() += 1;
        }
    });
    let mut stream = client.events(EventFilter::All, 8);
    let c = client.clone();
    let pending = w.start(async move { c.list_tools(None, &RequestOptions::default()).await });
    let c = client.clone();
    w.run(async move {
        c.close().await;
        c.close().await;
    });
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Closed))));
    assert_eq!(*closes.borrow(), 1);
    assert!(client.is_closed());
    let c = client.clone();
    assert!(matches!(w.run(async move { c.list_tools(None, &RequestOptions::default()).await }), Err(Error::Closed)));
    let ended = w.run(async move {
        let mut events = Vec::new();
        while let Some(event) = stream.next().await {
            events.push(event.map(|e| matches!(e, ClientEvent::Closed)));
        }
        events
    });
    assert!(matches!(ended.last(), Some(Ok(true))));
    assert!(matches!(client.snapshot(), Err(Error::Closed)));
}

/// The transport's close (an HTTP `DELETE`) may take long: the calls fail
/// and `Closed` is heard as closing begins, not once it is done.
#[test]
fn close_is_heard_before_the_transport_has_closed() {
    let (mut w, client) = legacy(|s| (s.method() == "tools/list").then_some(Answer::Hold), json!({"tools": {}}), ClientOptions::default());
    let heard = Rc::new(RefCell::new(false));
    let closed = heard.clone();
    client.on_event(move |event| *closed.borrow_mut() |= matches!(event, ClientEvent::Closed));
    let c = client.clone();
    let pending = w.start(async move { c.list_tools(None, &RequestOptions::default()).await });
    w.server.holds_close.set(true);
    let c = client.clone();
    let closing = w.start(async move { c.close().await });
    assert!(closing.borrow().is_none(), "the transport is still closing");
    assert!(*heard.borrow());
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Closed))));
    let c = client.clone();
    // A second close returns at once (`run` fails a future that does not complete).
    w.run(async move { c.close().await });
}

#[test]
fn a_watcher_refreshes_its_list_once_per_burst() {
    let changes = Rc::new(RefCell::new(Vec::new()));
    let log = changes.clone();
    let watcher = ListWatcher::new(
        TOOLS,
        move |change| {
            log.borrow_mut().push(match change {
                ListChange::Refreshed(items) => items.len(),
                _ => usize::MAX,
            })
        },
        true,
        300,
    );
    let options = ClientOptions { list_changed: vec![watcher], ..ClientOptions::default() };
    let (mut w, _client) = legacy(
        |s| (s.method() == "tools/list").then(|| Answer::Result(tools(&["a", "b"]))),
        json!({"tools": {"listChanged": true}}),
        options,
    );
    for _ in 0..3 {
        w.server.push(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
        w.advance(100);
    }
    assert_eq!(w.server.count("tools/list"), 0);
    w.advance(300);
    assert_eq!(w.server.count("tools/list"), 1);
    assert_eq!(*changes.borrow(), [2]);
}

/// A watcher's wait for the end of a burst (up to a minute) ends when the client closes: its
/// timer must not hold a Node process or a Worker's invocation.
#[test]
fn a_close_ends_a_watchers_wait() {
    let told = Rc::new(Cell::new(0));
    let count = told.clone();
    let watcher = ListWatcher::new(TOOLS, move |_| count.set(count.get() + 1), true, 20_000);
    let options = ClientOptions { list_changed: vec![watcher], ..ClientOptions::default() };
    let (mut w, client) = legacy(|_| None, json!({"tools": {"listChanged": true}}), options);
    w.server.push(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
    w.advance(0);
    assert_eq!(w.runtime.pending_timers(), 1);
    let c = client.clone();
    w.run(async move { c.close().await });
    w.settle();
    assert_eq!(w.runtime.pending_timers(), 0, "no timer is left");
    w.advance(60_000);
    assert_eq!((told.get(), w.server.count("tools/list")), (0, 0));
}

#[test]
fn a_watcher_without_refresh_is_only_told() {
    let told = Rc::new(RefCell::new(0));
    let count = told.clone();
    let watcher =
        ListWatcher::new(TOOLS, move |change| *count.borrow_mut() += usize::from(matches!(change, ListChange::Changed)), false, 0);
    let options = ClientOptions { list_changed: vec![watcher], ..ClientOptions::default() };
    let (mut w, _client) = legacy(|_| None, json!({"tools": {"listChanged": true}}), options);
    w.server.push(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
    w.advance(0);
    assert_eq!(*told.borrow(), 1);
    assert_eq!(w.server.count("tools/list"), 0);
}

#[test]
fn a_legacy_snapshot_resumes_the_session_without_a_handshake() {
    let (mut w, client) =
        legacy(|s| (s.method() == "tools/list").then(|| Answer::Result(tools(&["a"]))), json!({"tools": {}}), ClientOptions::default());
    let c = client.clone();
    let snapshot = w.run(async move { c.suspend().await }).unwrap();
    assert_eq!(
        (snapshot.session_id.as_deref(), snapshot.modern, snapshot.transport.as_str()),
        (Some("session-1"), false, "streamable-http")
    );
    let restored = crate::client::Snapshot::from_value(&snapshot.to_value()).unwrap();
    let (connector, runtime) = (w.connector(), w.runtime.clone());
    let options = ClientOptions::default();
    let resumed = w.run(async move { Client::resume_with(restored, connector, runtime, options).await }).unwrap();
    let r = resumed.clone();
    w.run(async move { r.list_all_tools(&RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.count("initialize"), 1);
    assert_eq!(w.server.last("tools/list").unwrap().session.as_deref(), Some("session-1"));
    assert_eq!(resumed.server().server_info["name"], "legacy");
}

#[test]
fn a_resumed_session_the_server_forgot_is_renewed_on_first_use() {
    let (mut w, client) =
        legacy(|s| (s.method() == "tools/list").then(|| Answer::Result(tools(&["a"]))), json!({"tools": {}}), ClientOptions::default());
    let c = client.clone();
    let snapshot = w.run(async move { c.suspend().await }).unwrap();
    w.server.forget_sessions();
    let (connector, runtime) = (w.connector(), w.runtime.clone());
    let resumed = w.run(async move { Client::resume_with(snapshot, connector, runtime, ClientOptions::default()).await }).unwrap();
    let r = resumed.clone();
    w.run(async move { r.list_all_tools(&RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.count("initialize"), 2);
    assert_eq!(resumed.session_id().as_deref(), Some("session-2"));
}

#[cfg(feature = "modern")]
#[test]
fn a_modern_snapshot_reuses_the_discovery() {
    let mut w = World::new(|s| modern_peer(s, &json!({"tools": {}})));
    let client = w.connect(ClientOptions::default()).unwrap();
    let snapshot = client.snapshot().unwrap();
    assert!(snapshot.modern && snapshot.session_id.is_none());
    let (connector, runtime) = (w.connector(), w.runtime.clone());
    let resumed = w.run(async move { Client::resume_with(snapshot, connector, runtime, ClientOptions::default()).await }).unwrap();
    assert_eq!(resumed.era(), crate::client::Era::Modern);
    assert_eq!(w.server.count("server/discover"), 1);
}
