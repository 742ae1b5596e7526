//! Era dispatch beyond the basic probe: pinned eras, answers to the probe
//! that are or are not evidence of an older server, and −32022 in both eras.

use crate::client::testing::{legacy_peer, Answer, Seen, World};
use crate::client::{ClientOptions, EraChoice};
use crate::protocol::jsonrpc::ErrorObject;
use crate::session::Channel;
use serde_json::json;

/// −32022 listing `supported`.
fn unsupported(supported: &[&str]) -> Answer {
    Answer::Error(ErrorObject { code: -32022, message: "unsupported".into(), data: Some(json!({ "supported": supported })) })
}

/// How a server refuses `initialize`.
type Refusal = fn() -> Answer;

/// A server that refuses discover the legacy way and answers `initialize` with `refusal`.
fn refusing_initialize(refusal: impl Fn() -> Answer + 'static) -> World {
    World::new(move |s: &Seen| match s.method() {
        "initialize" => refusal(),
        _ => legacy_peer(s, &json!({})),
    })
}

#[test]
fn an_initialize_refused_for_its_revision_is_a_typed_error_not_an_older_transport() {
    // The error names what the server speaks, never its refusal's text.
    let cases: [(Refusal, &str); 2] = [
        (|| Answer::Http(400, Some(-32022)), "the server refused the protocol version this client offered, and named none it speaks"),
        (|| unsupported(&["2030-01-01"]), "the server answered with protocol version \"2030-01-01\", which this client does not support"),
    ];
    for (refusal, message) in cases {
        let mut w = refusing_initialize(refusal);
        let error = w.connect(ClientOptions::default()).unwrap_err();
        assert_eq!(error.kind(), "unsupported-version", "{error:?}");
        assert_eq!(error.to_string(), message);
        assert!(!w.server.opened.borrow().contains(&Channel::Sse));
    }
}

#[test]
fn a_server_error_on_initialize_is_reported_not_taken_for_the_sse_transport() {
    for status in [500, 401] {
        let mut w = refusing_initialize(move || Answer::Http(status, None));
        let error = w.connect(ClientOptions::default()).unwrap_err();
        assert_eq!(error.status(), Some(status), "{error:?}");
        assert!(!w.server.opened.borrow().contains(&Channel::Sse), "{status}");
    }
}

#[test]
fn a_modern_refusal_of_initialize_in_a_4xx_is_not_taken_for_the_sse_transport() {
    let mut w = refusing_initialize(|| Answer::Http(400, Some(-32021)));
    let error = w.connect(ClientOptions::default()).unwrap_err();
    assert_eq!(error.status(), Some(400), "{error:?}");
    assert!(!w.server.opened.borrow().contains(&Channel::Sse));
}

#[test]
fn the_legacy_offer_carries_the_configured_revision_and_the_answer_is_kept() {
    let mut w = World::new(|s| match s.method() {
        "initialize" => Answer::Result(json!({
            "protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "older", "version": "0"},
        })),
        _ => legacy_peer(s, &json!({})),
    });
    let options = ClientOptions { protocol_version: "2025-06-18", ..ClientOptions::default() }.era(EraChoice::Legacy);
    let client = w.connect(options).unwrap();
    assert_eq!(w.server.last("initialize").unwrap().params()["protocolVersion"], "2025-06-18");
    assert_eq!(client.protocol_version(), "2025-06-18");
    assert_eq!(client.server().server_info["name"], "older");
}

/// The `server/discover` probe, which only the `modern` feature sends.
#[cfg(feature = "modern")]
mod probe {
    use super::*;
    use crate::client::testing::{modern_peer, FakeConnector};
    use crate::client::Era;
    use crate::error::Error;
    use std::rc::Rc;

    #[test]
    fn era_modern_connects_to_a_modern_server_without_initialize() {
        let mut w = World::new(|s| modern_peer(s, &json!({"tools": {}})));
        let client = w.connect(ClientOptions::default().era(EraChoice::Modern)).unwrap();
        assert_eq!((client.era(), client.protocol_version()), (Era::Modern, "2026-07-28"));
        assert_eq!(client.session_id(), None, "the modern era has no sessions");
        assert_eq!(w.server.count("initialize"), 0);
    }

    #[test]
    fn era_legacy_against_a_modern_only_server_reports_its_refusal_without_probing() {
        let mut w = World::new(|s| modern_peer(s, &json!({})));
        let error = w.connect(ClientOptions::default().era(EraChoice::Legacy)).unwrap_err();
        assert!(matches!(error, Error::Rpc(ref e) if e.code == -32601), "{error:?}");
        assert_eq!(w.server.count("server/discover"), 0);
    }

    #[test]
    fn era_modern_does_not_fall_back_on_a_version_list_of_older_revisions() {
        let mut w = discover_then_legacy(|| unsupported(&["2025-06-18"]));
        let error = w.connect(ClientOptions::default().era(EraChoice::Modern)).unwrap_err();
        assert!(matches!(error, Error::UnsupportedVersion(ref listed) if listed == "2025-06-18"), "{error:?}");
        assert_eq!(w.server.count("initialize"), 0);
    }

    #[test]
    fn a_server_that_refuses_the_revision_it_lists_twice_is_not_asked_a_third_time() {
        let mut w = discover_then_legacy(|| unsupported(&["2026-07-28"]));
        let error = w.connect(ClientOptions::default()).unwrap_err();
        assert!(matches!(error, Error::Rpc(ref e) if e.code == -32022), "{error:?}");
        assert_eq!(w.server.methods(), ["server/discover", "server/discover"]);
    }

    #[test]
    fn an_answer_to_discover_that_is_no_discover_result_means_an_older_server() {
        let mut w = discover_then_legacy(|| Answer::Result(json!({"ok": true})));
        let client = w.connect(ClientOptions::default()).unwrap();
        assert_eq!(client.era(), Era::Legacy);
        assert_eq!(w.server.methods(), ["server/discover", "initialize", "notifications/initialized"]);
    }

    #[test]
    fn method_not_found_for_discover_means_an_older_server() {
        // Every 2026-07-28 server implements server/discover: a legacy server that answers
        // unknown methods with a JSON-RPC error (in a 200 or a 404) is no modern one.
        for discover in [|| Answer::error(-32601, "Method not found"), || Answer::Http(404, Some(-32601))] {
            let mut w = discover_then_legacy(discover);
            let client = w.connect(ClientOptions::default()).unwrap();
            assert_eq!(client.era(), Era::Legacy);
            assert_eq!(w.server.methods(), ["server/discover", "initialize", "notifications/initialized"]);
        }
    }

    #[test]
    fn a_discover_result_listing_only_older_revisions_is_negotiated_the_legacy_way() {
        let mut w = discover_then_legacy(|| Answer::Result(json!({"supportedVersions": ["2025-11-25"], "capabilities": {}})));
        let client = w.connect(ClientOptions::default()).unwrap();
        assert_eq!((client.era(), client.protocol_version()), (Era::Legacy, "2025-11-25"));

        let mut w = discover_then_legacy(|| Answer::Result(json!({"supportedVersions": ["2031-01-01"], "capabilities": {}})));
        assert!(matches!(w.connect(ClientOptions::default()), Err(Error::UnsupportedVersion(v)) if v == "2031-01-01"));
        assert_eq!(w.server.count("initialize"), 0);
    }

    #[test]
    fn a_network_error_on_the_probe_is_reported_even_by_a_browser_when_the_era_is_pinned() {
        let mut w = discover_then_legacy(|| Answer::Network);
        let browser = Rc::new(FakeConnector::new(w.server.clone(), false, true));
        let error = w.connect_with(browser, ClientOptions::default().era(EraChoice::Modern)).unwrap_err();
        assert!(matches!(error, Error::Network { .. }), "{error:?}");
        assert_eq!(w.server.methods(), ["server/discover"], "no initialize follows a network error");
    }

    /// A server that answers `server/discover` with `discover` and is otherwise a legacy peer.
    fn discover_then_legacy(discover: impl Fn() -> Answer + 'static) -> World {
        World::new(move |s| match s.method() {
            "server/discover" => discover(),
            _ => legacy_peer(s, &json!({"tools": {}})),
        })
    }
}
