//! Choosing the era and the transport, and the handshakes.

use crate::client::testing::{legacy_peer, modern_peer, Answer, FakeConnector, World};
use crate::client::{ClientOptions, Era, EraChoice, TransportChoice};
use crate::error::Error;
use crate::session::Channel;
use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;

#[cfg(feature = "modern")]
#[test]
fn auto_speaks_2026_07_28_to_a_server_that_answers_discover() {
    let mut w = World::new(|s| modern_peer(s, &json!({"tools": {}})));
    let client = w.connect(ClientOptions::default()).unwrap();
    assert_eq!(client.era(), Era::Modern);
    assert_eq!(client.channel(), Channel::StreamableHttp);
    assert_eq!(client.protocol_version(), "2026-07-28");
    assert_eq!(client.server().server_info["name"], "modern");
    assert_eq!(w.server.methods(), ["server/discover"]);
    let meta = &w.server.last("server/discover").unwrap().params()["_meta"];
    assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert_eq!(meta["io.modelcontextprotocol/clientInfo"]["name"], "mcp-wasm");
    assert_eq!(meta["io.modelcontextprotocol/clientCapabilities"], json!({}));
}

#[cfg(feature = "modern")]
#[test]
fn auto_falls_back_to_initialize_when_discover_is_refused_the_legacy_way() {
    let mut w = World::new(|s| legacy_peer(s, &json!({"tools": {}})));
    let client = w.connect(ClientOptions::default()).unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.protocol_version(), "2025-11-25");
    assert_eq!(client.session_id().as_deref(), Some("session-1"));
    assert_eq!(w.server.methods(), ["server/discover", "initialize", "notifications/initialized"]);
    let init = w.server.last("initialize").unwrap().params();
    assert_eq!(init["protocolVersion"], "2025-11-25");
    assert_eq!(init["clientInfo"]["name"], "mcp-wasm");
    assert_eq!(w.server.opened.borrow().as_slice(), [Channel::StreamableHttp, Channel::StreamableHttp]);
}

#[cfg(all(feature = "legacy-sse", feature = "modern"))]
#[test]
fn a_refused_initialize_means_the_2024_11_05_sse_transport() {
    let mut w = World::new(|s| match s.channel {
        Channel::StreamableHttp => Answer::Http(405, None),
        _ => legacy_peer(s, &json!({})),
    });
    let client = w.connect(ClientOptions::default()).unwrap();
    assert_eq!((client.era(), client.channel()), (Era::Legacy, Channel::Sse));
    assert_eq!(w.server.opened.borrow().as_slice(), [Channel::StreamableHttp, Channel::StreamableHttp, Channel::Sse]);
}

#[cfg(feature = "modern")]
#[test]
fn a_server_error_on_the_probe_is_reported_not_taken_for_an_older_server() {
    for status in [500, 503, 401, 403] {
        let mut w = World::new(move |_| Answer::Http(status, None));
        let error = w.connect(ClientOptions::default()).unwrap_err();
        assert!(matches!(error, Error::Http { status: s, .. } if s == status), "{status}: {error:?}");
        assert_eq!(w.server.methods(), ["server/discover"], "{status}");
    }
}

#[cfg(feature = "modern")]
#[test]
fn a_network_error_on_the_probe_falls_back_only_where_it_may_hide_a_refusal() {
    let script = |s: &crate::client::testing::Seen| match s.method() {
        "server/discover" => Answer::Network,
        _ => legacy_peer(s, &json!({})),
    };
    let mut w = World::new(script);
    assert!(matches!(w.connect(ClientOptions::default()), Err(Error::Network { .. })));

    let mut w = World::new(script);
    let browser = Rc::new(FakeConnector::new(w.server.clone(), false, true));
    let client = w.connect_with(browser, ClientOptions::default()).unwrap();
    assert_eq!(client.era(), Era::Legacy);
}

#[cfg(feature = "modern")]
#[test]
fn a_modern_refusal_in_a_4xx_is_a_modern_server_not_an_older_one() {
    let mut w = World::new(|s| match s.method() {
        "server/discover" => Answer::error(-32021, "needs sampling"),
        _ => legacy_peer(s, &json!({})),
    });
    assert!(matches!(w.connect(ClientOptions::default()), Err(Error::Rpc(e)) if e.code == -32021));
    assert_eq!(w.server.count("initialize"), 0);
}

#[cfg(feature = "modern")]
#[test]
fn unsupported_version_listing_ours_is_retried_once() {
    let refused = Rc::new(Cell::new(false));
    let flag = refused.clone();
    let mut w = World::new(move |s| match s.method() {
        "server/discover" if !flag.replace(true) => Answer::Error(crate::protocol::jsonrpc::ErrorObject {
            code: -32022,
            message: "unsupported".into(),
            data: Some(json!({"supported": ["2026-07-28"]})),
        }),
        _ => modern_peer(s, &json!({})),
    });
    let client = w.connect(ClientOptions::default()).unwrap();
    assert_eq!(client.era(), Era::Modern);
    assert_eq!(w.server.count("server/discover"), 2);
}

#[test]
fn unsupported_version_listing_only_initialize_revisions_negotiates_the_legacy_way() {
    let mut w = World::new(|s| match s.method() {
        "server/discover" => Answer::Error(crate::protocol::jsonrpc::ErrorObject {
            code: -32022,
            message: "unsupported".into(),
            data: Some(json!({"supported": ["2025-06-18"]})),
        }),
        _ => legacy_peer(s, &json!({})),
    });
    let client = w.connect(ClientOptions::default()).unwrap();
    assert_eq!(client.era(), Era::Legacy);
}

#[cfg(feature = "modern")]
#[test]
fn unsupported_version_listing_nothing_we_speak_is_a_typed_error() {
    let mut w = World::new(|_| {
        Answer::Error(crate::protocol::jsonrpc::ErrorObject {
            code: -32022,
            message: "unsupported".into(),
            data: Some(json!({"supported": ["2030-01-01"]})),
        })
    });
    assert!(matches!(w.connect(ClientOptions::default()), Err(Error::UnsupportedVersion(v)) if v == "2030-01-01"));
    assert_eq!(w.server.count("initialize"), 0);
}

#[cfg(feature = "modern")]
#[test]
fn era_modern_refuses_an_older_server() {
    let mut w = World::new(|s| legacy_peer(s, &json!({})));
    let error = w.connect(ClientOptions::default().era(EraChoice::Modern)).unwrap_err();
    assert!(matches!(error, Error::Http { status: 400, .. }));
    assert_eq!(w.server.methods(), ["server/discover"]);
}

#[test]
fn era_legacy_never_probes() {
    let mut w = World::new(|s| legacy_peer(s, &json!({})));
    w.connect(ClientOptions::default().era(EraChoice::Legacy)).unwrap();
    assert_eq!(w.server.methods(), ["initialize", "notifications/initialized"]);
}

#[test]
fn transport_choices_pin_the_channel() {
    let mut w = World::new(|s| legacy_peer(s, &json!({})));
    let client = w.connect(ClientOptions { transport: TransportChoice::Sse, ..ClientOptions::default() }).unwrap();
    assert_eq!(client.channel(), Channel::Sse);
    assert_eq!(w.server.opened.borrow().as_slice(), [Channel::Sse]);

    let mut w = World::new(|s| match s.method() {
        "initialize" => Answer::Http(404, None),
        _ => legacy_peer(s, &json!({})),
    });
    let only_http = ClientOptions { transport: TransportChoice::StreamableHttp, ..ClientOptions::default() };
    assert!(matches!(w.connect(only_http), Err(Error::Http { status: 404, .. })));
    assert!(!w.server.opened.borrow().contains(&Channel::Sse));
}

#[test]
fn a_custom_transport_runs_initialize_on_it_alone() {
    let mut w = World::new(|s| legacy_peer(s, &json!({})));
    let custom = Rc::new(FakeConnector::new(w.server.clone(), true, false));
    let client = w.connect_with(custom, ClientOptions::default()).unwrap();
    assert_eq!(client.channel(), Channel::Custom);
    assert_eq!(w.server.methods(), ["initialize", "notifications/initialized"]);
    assert!(matches!(client.snapshot(), Err(Error::InvalidArgument(_))));
}

#[test]
fn handlers_declare_the_client_capabilities() {
    let mut w = World::new(|s| legacy_peer(s, &json!({})));
    let handlers = crate::client::Handlers::default()
        .sampling(|_, _| async { Ok(crate::protocol::types::CreateMessageResult::text("m", "t")) })
        .roots(|_| async { Ok(vec![]) });
    w.connect(ClientOptions::default().era(EraChoice::Legacy).handlers(handlers)).unwrap();
    let capabilities = w.server.last("initialize").unwrap().params()["capabilities"].clone();
    assert_eq!(capabilities, json!({"sampling": {}, "roots": {"listChanged": true}}));
}

#[test]
fn a_cancelled_connect_sends_nothing() {
    let mut w = World::new(|s| legacy_peer(s, &json!({})));
    let token = crate::client::CancelToken::new();
    token.cancel("not now");
    let options = ClientOptions { cancel: Some(token.source()), ..ClientOptions::default() };
    assert!(matches!(w.connect(options), Err(Error::Cancelled { reason }) if reason == "not now"));
    assert!(w.server.methods().is_empty());
}

#[test]
fn a_connect_cancelled_while_the_server_is_silent_stops_waiting() {
    let mut w = World::new(|_| Answer::Hold);
    let token = crate::client::CancelToken::new();
    let options = ClientOptions { cancel: Some(token.source()), ..ClientOptions::default() };
    let (connector, runtime) = (w.connector(), w.runtime.clone());
    let pending = w.start(async move { crate::client::Client::connect_with(connector, runtime, options).await });
    assert!(pending.borrow().is_none());
    token.cancel("gave up");
    w.settle();
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Cancelled { .. }))));
}

/// The goodbye of a failed handshake (an HTTP `DELETE` the server may hold, a
/// custom transport's `close()`) runs on its own: the connect fails at once.
#[test]
fn a_failed_connect_does_not_wait_for_the_goodbye() {
    for era in [EraChoice::Auto, EraChoice::Legacy] {
        let mut w = World::new(|_| Answer::Hold);
        w.server.holds_close.set(true);
        let token = crate::client::CancelToken::new();
        let options = ClientOptions { cancel: Some(token.source()), ..ClientOptions::default() }.era(era);
        let (connector, runtime) = (w.connector(), w.runtime.clone());
        let pending = w.start(async move { crate::client::Client::connect_with(connector, runtime, options).await });
        token.cancel("gave up");
        w.settle();
        assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Cancelled { .. }))), "{era:?}");
    }
}

/// The goodbye of a failed handshake still goes out, though the connect has
/// given its session up: a transport dropped first would hang up without it.
#[test]
fn a_failed_connect_still_says_goodbye() {
    let mut w = World::new(|_| Answer::error(-32603, "not today"));
    assert!(w.connect(ClientOptions::default().era(EraChoice::Legacy)).is_err());
    w.settle();
    assert_eq!(w.server.goodbyes.get(), 1);
}

#[test]
fn a_silent_server_times_the_handshake_out() {
    let mut w = World::new(|_| Answer::Hold);
    let (connector, runtime) = (w.connector(), w.runtime.clone());
    let pending =
        w.start(async move { crate::client::Client::connect_with(connector, runtime, ClientOptions::default().timeout(5_000)).await });
    w.advance(5_000);
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Timeout { ms: 5_000 }))));
}
