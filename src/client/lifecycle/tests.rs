use super::*;
use crate::session::testing::harness;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;

fn offer() -> Offer {
    Offer { protocol_version: "2025-11-25", capabilities: json!({}), client_info: json!({"name": "test", "version": "1"}) }
}

type Outcome = Rc<RefCell<Option<Result<ServerIdentity, Error>>>>;

fn run_handshake(answer: &str) -> (crate::session::testing::Harness, Outcome) {
    let mut h = harness();
    let session = h.session.clone();
    let outcome: Outcome = h.run(async move { initialize(&session, &offer(), &CallOptions::default).await.map_err(Error::from) });
    h.reply(answer);
    (h, outcome)
}

#[test]
fn accepts_a_counter_offer_it_speaks_and_sends_initialized() {
    let (h, outcome) = run_handshake(
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},
            "serverInfo":{"name":"s","version":"2"},"instructions":"be nice","extra":1}}"#,
    );
    let identity = outcome.borrow_mut().take().unwrap().unwrap();
    assert_eq!(identity.protocol_version, "2025-06-18");
    assert_eq!(identity.capabilities, json!({"tools": {}}));
    assert_eq!(identity.instructions.as_deref(), Some("be nice"));
    assert_eq!(h.sent_methods(), ["initialize", "notifications/initialized"]);
    assert_eq!(h.transport.version.get(), Some("2025-06-18"));
    let sent = h.transport.sent.borrow();
    assert_eq!(
        sent[0].to_value()["params"],
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}})
    );
}

#[test]
fn an_unknown_version_is_a_typed_error_and_a_clean_disconnect() {
    let (h, outcome) = run_handshake(
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1999-01-01","capabilities":{},
            "serverInfo":{"name":"s","version":"2"}}}"#,
    );
    assert!(matches!(outcome.borrow_mut().take().unwrap(), Err(Error::UnsupportedVersion(v)) if v == "1999-01-01"));
    assert_eq!(h.transport.closed.get(), 1);
    assert_eq!(h.sent_methods(), ["initialize"]);
}

#[test]
fn malformed_results_are_protocol_errors() {
    for result in [
        r#""text""#,
        r#"{"capabilities":{},"serverInfo":{"name":"s","version":"1"}}"#,
        r#"{"protocolVersion":"2025-11-25","capabilities":[],"serverInfo":{"name":"s","version":"1"}}"#,
        r#"{"protocolVersion":"2025-11-25","capabilities":{}}"#,
        r#"{"protocolVersion":"2025-11-25","serverInfo":{"name":"s"},"instructions":5}"#,
    ] {
        let (h, outcome) = run_handshake(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#));
        assert!(matches!(outcome.borrow_mut().take().unwrap(), Err(Error::Protocol(_))), "{result}");
        assert_eq!(h.transport.closed.get(), 1);
    }
}

#[test]
fn a_server_error_passes_through() {
    let (_, outcome) = run_handshake(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"no"}}"#);
    assert!(matches!(outcome.borrow_mut().take().unwrap(), Err(Error::Rpc(e)) if e.code == -32600));
}
