//! Snapshots: suspend, keep as JSON text, resume in "another process"
//! (a new client on the same server), and refuse what is not a snapshot.

use crate::client::testing::{connected, legacy_peer, tell, telling_capabilities, tools, Answer, Seen, World};
use crate::client::{Client, ClientOptions, Era, EraChoice, RequestOptions, Snapshot, TransportChoice};
use crate::error::Error;
use crate::session::Channel;
use serde_json::{json, Value};

/// Through JSON text and back, as storage keeps it.
fn stored(snapshot: &Snapshot) -> Snapshot {
    let text = snapshot.to_value().to_string();
    Snapshot::from_value(&serde_json::from_str(&text).unwrap()).unwrap()
}

fn resume(w: &mut World, snapshot: Snapshot) -> Client {
    let (connector, runtime) = (w.connector(), w.runtime.clone());
    w.run(async move { Client::resume_with(snapshot, connector, runtime, ClientOptions::default()).await }).unwrap()
}

fn suspend(w: &mut World, client: &Client) -> Snapshot {
    let c = client.clone();
    w.run(async move { c.suspend().await }).unwrap()
}

fn lists_tools(s: &Seen) -> Option<Answer> {
    (s.method() == "tools/list").then(|| Answer::Result(tools(&["a"])))
}

#[test]
fn a_legacy_round_trip_keeps_the_era_session_and_negotiated_revision() {
    let mut w = World::new(|s| match s.method() {
        "initialize" => Answer::Result(json!({
            "protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "older", "version": "1"},
        })),
        _ => lists_tools(s).unwrap_or_else(|| legacy_peer(s, &json!({}))),
    });
    let client = w.connect(ClientOptions::default().era(EraChoice::Legacy)).unwrap();
    let snapshot = stored(&suspend(&mut w, &client));
    assert!(client.is_closed());
    let resumed = resume(&mut w, snapshot);
    assert_eq!((resumed.era(), resumed.protocol_version()), (Era::Legacy, "2025-06-18"));
    assert_eq!(resumed.session_id().as_deref(), Some("session-1"));
    assert_eq!(resumed.server().server_info["name"], "older");
    let r = resumed.clone();
    w.run(async move { r.list_tools(None, &RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.count("initialize"), 1);
}

/// An id may not be used twice in a session, and the session a snapshot
/// names goes on after it: a server still running the first client's call
/// would answer the resumed client's call of the same id with its result.
#[test]
fn a_resumed_session_numbers_its_requests_apart_from_those_before() {
    let mut w = World::new(|s| lists_tools(s).unwrap_or_else(|| legacy_peer(s, &json!({"tools": {}}))));
    let client = w.connect(ClientOptions::default().era(EraChoice::Legacy)).unwrap();
    let c = client.clone();
    w.run(async move { c.list_tools(None, &RequestOptions::default()).await }).unwrap();
    let snapshot = stored(&suspend(&mut w, &client));
    let resumed = resume(&mut w, snapshot);
    for _ in 0..2 {
        let r = resumed.clone();
        w.run(async move { r.list_tools(None, &RequestOptions::default()).await }).unwrap();
    }
    let ids: Vec<_> = w.server.seen.borrow().iter().filter_map(Seen::id).collect();
    let unique: std::collections::BTreeSet<String> = ids.iter().map(|id| id.to_value().to_string()).collect();
    assert_eq!((ids.len(), unique.len()), (4, 4), "initialize and a list, then two lists: {ids:?}");
    assert!(ids.iter().all(|id| id.to_value().as_i64().is_some_and(|n| n > 0 && n < 1 << 53)), "{ids:?}");
}

#[cfg(feature = "modern")]
#[test]
fn a_modern_round_trip_listens_again_for_what_the_snapshot_says_was_declared() {
    let (mut w, client) = connected(|_| None, json!({"tools": {"listChanged": true}}), ClientOptions::default());
    let snapshot = stored(&suspend(&mut w, &client));
    assert_eq!(snapshot.to_value()["era"], "modern");
    let resumed = resume(&mut w, snapshot);
    assert_eq!((resumed.era(), resumed.protocol_version(), resumed.session_id()), (Era::Modern, "2026-07-28", None));
    assert_eq!(w.server.count("server/discover"), 1);
    assert_eq!(w.server.count("subscriptions/listen"), 2, "one stream per client");
    assert_eq!(w.server.last("subscriptions/listen").unwrap().params()["notifications"], json!({"toolsListChanged": true}));
}

#[cfg(feature = "modern")]
#[test]
fn resuming_does_not_wait_for_the_listen_streams_acknowledgement() {
    let (mut w, client) = connected(|_| None, json!({"tools": {"listChanged": true}}), ClientOptions::default());
    let snapshot = stored(&suspend(&mut w, &client));
    // From here on, the server holds every listen stream open without a word.
    let mut w = crate::client::testing::never_acknowledging();
    let resumed = resume(&mut w, snapshot);
    assert_eq!(w.server.count("subscriptions/listen"), 1, "the stream opens, and resuming did not wait for it");
    assert!(!resumed.is_closed());
}

#[test]
fn a_resumed_client_checks_calls_against_the_snapshots_capabilities() {
    let (mut w, client) = connected(lists_tools, json!({}), ClientOptions::default().era(EraChoice::Legacy));
    let snapshot = stored(&suspend(&mut w, &client));
    let resumed = resume(&mut w, snapshot);
    let outcome = w.run(async move { resumed.list_tools(None, &RequestOptions::default()).await });
    assert_eq!(outcome.unwrap_err().kind(), "unsupported");
    assert_eq!(w.server.count("tools/list"), 0);
}

#[test]
fn an_sse_snapshot_connects_anew() {
    let mut w = World::new(|s| legacy_peer(s, &json!({})));
    let client = w.connect(ClientOptions { transport: TransportChoice::Sse, ..ClientOptions::default() }).unwrap();
    let snapshot = stored(&suspend(&mut w, &client));
    assert_eq!(snapshot.transport, "sse");
    let resumed = resume(&mut w, snapshot);
    assert_eq!(resumed.channel(), Channel::Sse);
    assert_eq!(w.server.count("initialize"), 2, "an HTTP+SSE session ends with its stream");
}

#[test]
fn a_snapshot_after_a_renewal_carries_the_new_session() {
    let (mut w, client) = connected(lists_tools, json!({"tools": {}}), ClientOptions::default().era(EraChoice::Legacy));
    w.server.forget_sessions();
    let c = client.clone();
    w.run(async move { c.list_tools(None, &RequestOptions::default()).await }).unwrap();
    assert_eq!(client.snapshot().unwrap().session_id.as_deref(), Some("session-2"));
}

#[test]
fn a_snapshot_with_a_bad_field_is_refused_naming_the_field() {
    let (_w, client) = connected(|_| None, json!({}), ClientOptions::default().era(EraChoice::Legacy));
    let good = client.snapshot().unwrap().to_value();
    let cases: [(&str, Option<Value>); 6] = [
        ("serverInfo", Some(json!("legacy"))),
        ("lastEventId", Some(json!(7))),
        ("era", None),
        ("transport", None),
        ("protocolVersion", Some(json!(20251125))),
        ("url", Some(json!(["http://x"]))),
    ];
    for (field, value) in cases {
        let mut bad = good.clone();
        match value {
            Some(value) => bad[field] = value,
            None => drop(bad.as_object_mut().unwrap().remove(field)),
        }
        let why = Snapshot::from_value(&bad).unwrap_err();
        assert!(why.contains(&format!("snapshot.{field}")), "{field}: {why}");
    }
    assert!(Snapshot::from_value(&good).is_ok());
}

#[test]
fn a_closed_client_cannot_be_suspended() {
    let (mut w, client) = connected(|_| None, json!({}), ClientOptions::default().era(EraChoice::Legacy));
    let c = client.clone();
    w.run(async move { c.close().await });
    let outcome = w.run(async move { client.suspend().await });
    assert!(matches!(outcome, Err(Error::Closed)));
}

/// Answers lists, and the subscriptions and logging level a snapshot keeps.
fn told(s: &Seen) -> Option<Answer> {
    match s.method() {
        "resources/subscribe" | "logging/setLevel" => Some(Answer::Result(json!({}))),
        _ => lists_tools(s),
    }
}

/// The session a legacy snapshot names still has what the client told it,
/// so resuming sends nothing; a renewal after it tells the new session, as
/// it would have without the suspension.
#[test]
fn a_resumed_legacy_client_gives_a_renewed_session_the_level_and_subscriptions() {
    let (mut w, client) = connected(told, telling_capabilities(), ClientOptions::default().era(EraChoice::Legacy));
    tell(&mut w, &client, &["file:///b", "file:///a"], "error");
    let snapshot = stored(&suspend(&mut w, &client));
    assert_eq!(snapshot.log_level.as_deref(), Some("error"));
    assert_eq!(snapshot.subscriptions, ["file:///a", "file:///b"]);
    let resumed = resume(&mut w, snapshot);
    w.settle();
    assert_eq!((w.server.count("logging/setLevel"), w.server.count("resources/subscribe")), (1, 2), "the kept session has them");
    w.server.forget_sessions();
    let r = resumed.clone();
    w.run(async move { r.list_tools(None, &RequestOptions::default()).await }).unwrap();
    w.settle();
    let restored = |method: &str| -> Vec<Value> {
        w.server
            .seen
            .borrow()
            .iter()
            .filter(|s| s.method() == method && s.session.as_deref() == Some("session-2"))
            .map(Seen::params)
            .collect()
    };
    assert_eq!(restored("logging/setLevel"), [json!({"level": "error"})]);
    assert_eq!(restored("resources/subscribe"), [json!({"uri": "file:///a"}), json!({"uri": "file:///b"})]);
}

/// An HTTP+SSE snapshot connects anew: the new session is told at once.
#[test]
fn a_resumed_sse_client_tells_its_new_session_the_level_and_subscriptions() {
    let mut w = World::new(|s| told(s).unwrap_or_else(|| legacy_peer(s, &telling_capabilities())));
    let client = w.connect(ClientOptions { transport: TransportChoice::Sse, ..ClientOptions::default() }).unwrap();
    tell(&mut w, &client, &["file:///b", "file:///a"], "error");
    let snapshot = stored(&suspend(&mut w, &client));
    let _resumed = resume(&mut w, snapshot);
    w.settle();
    assert_eq!(w.server.count("initialize"), 2);
    assert_eq!((w.server.count("logging/setLevel"), w.server.count("resources/subscribe")), (2, 4));
}

/// The modern era keeps both on the client: each request carries the level,
/// and the listen stream the subscriptions. A resumed client keeps them on.
#[cfg(feature = "modern")]
#[test]
fn a_resumed_modern_client_listens_for_its_subscriptions_at_its_level() {
    let (mut w, client) = connected(lists_tools, telling_capabilities(), ClientOptions::default());
    tell(&mut w, &client, &["file:///b", "file:///a"], "error");
    let snapshot = stored(&suspend(&mut w, &client));
    let resumed = resume(&mut w, snapshot);
    w.settle();
    let listen = w.server.last("subscriptions/listen").unwrap().params();
    assert_eq!(listen["notifications"]["resourceSubscriptions"], json!(["file:///a", "file:///b"]), "{listen}");
    let r = resumed.clone();
    w.run(async move { r.list_tools(None, &RequestOptions::default()).await }).unwrap();
    let list = w.server.last("tools/list").unwrap().params();
    assert_eq!(list["_meta"]["io.modelcontextprotocol/logLevel"], "error", "{list}");
}

/// A `Snapshot` made in Rust may list its subscriptions in any order, or
/// twice: the resumed client keeps them as it keeps its own, so an
/// unsubscription takes.
#[test]
fn a_resumed_client_keeps_a_hand_made_snapshots_subscriptions_in_order() {
    let mut w = World::new(|s| match s.method() {
        "resources/unsubscribe" => Answer::Result(json!({})),
        _ => told(s).unwrap_or_else(|| legacy_peer(s, &telling_capabilities())),
    });
    let client = w.connect(ClientOptions::default().era(EraChoice::Legacy)).unwrap();
    let mut snapshot = suspend(&mut w, &client);
    snapshot.subscriptions = ["file:///c", "file:///b", "file:///c", "file:///a"].map(String::from).to_vec();
    let resumed = resume(&mut w, snapshot);
    assert_eq!(resumed.snapshot().unwrap().subscriptions, ["file:///a", "file:///b", "file:///c"]);
    let r = resumed.clone();
    w.run(async move { r.unsubscribe_resource("file:///c", &RequestOptions::default()).await }).unwrap();
    assert_eq!(resumed.snapshot().unwrap().subscriptions, ["file:///a", "file:///b"]);
}

/// A server that declares megabytes (a long `serverInfo.description`, padded `experimental`
/// capabilities) would make every snapshot too large to keep: `snapshot()` refuses with a
/// `limit-exceeded` error, and the client goes on.
#[test]
fn a_snapshot_refuses_what_a_server_declared_past_its_limit() {
    let description = "d".repeat(crate::client::snapshot::MAX_DECLARED_BYTES);
    let mut w = World::new(move |s| match s.method() {
        "initialize" => Answer::Result(json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "wordy", "version": "1", "description": description},
        })),
        _ => legacy_peer(s, &json!({"tools": {}})),
    });
    let client = w.connect(ClientOptions::default().era(EraChoice::Legacy)).unwrap();
    assert!(matches!(client.snapshot(), Err(Error::LimitExceeded { limit: "snapshot", .. })));
    assert!(client.server().server_info.get("description").is_some(), "the client still has all of it");
    let (mut w, client) = connected(|_| None, json!({"tools": {}}), ClientOptions::default().era(EraChoice::Legacy));
    assert!(client.snapshot().is_ok());
    let c = client.clone();
    w.run(async move { c.close().await });
}
