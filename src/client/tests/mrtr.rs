//! Multi-round-trip input (2026-07-28) through the client: what each retry
//! carries, the round cap, and a handler stopped by the caller.

use crate::client::testing::{connected, text_result, Answer, Pending, Seen, World};
use crate::client::{CancelToken, Client, ClientOptions, Handlers, RequestOptions, DEFAULT_MAX_ROUNDS};
use crate::error::Error;
use crate::protocol::jsonrpc::ErrorObject;
use crate::protocol::types::{CallToolParams, Root};
use futures::FutureExt;
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

fn roots_request() -> Value {
    json!({"method": "roots/list"})
}

fn ask(inputs: Value, state: Option<&str>) -> Answer {
    Answer::Result(json!({"resultType": "input_required", "inputRequests": inputs, "requestState": state}))
}

fn roots() -> Handlers {
    Handlers::default().roots(|_| async { Ok(vec![Root::new("file:///w", "w")]) })
}

fn modern(script: impl Fn(&Seen) -> Option<Answer> + 'static, options: ClientOptions) -> (World, Client) {
    connected(script, json!({"tools": {}, "prompts": {}}), options)
}

fn call(w: &mut World, client: &Client, options: RequestOptions) -> Pending<Result<String, Error>> {
    let c = client.clone();
    w.start(async move { c.call_tool(CallToolParams::new("t"), &options).await.map(|r| r.text()) })
}

/// Every `tools/call` asks for roots again.
fn endless(s: &Seen) -> Option<Answer> {
    (s.method() == "tools/call").then(|| ask(json!({ "r": roots_request() }), Some("again")))
}

#[test]
fn the_default_round_cap_is_ten() {
    let (mut w, client) = modern(endless, ClientOptions::default().handlers(roots()));
    let done = call(&mut w, &client, RequestOptions::default());
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::InputRoundsExceeded { rounds: DEFAULT_MAX_ROUNDS }))));
    assert_eq!(w.server.count("tools/call"), DEFAULT_MAX_ROUNDS as usize + 1);
}

#[test]
fn a_cap_of_zero_refuses_the_first_input_request() {
    let (mut w, client) = modern(endless, ClientOptions { max_input_rounds: 0, ..ClientOptions::default() }.handlers(roots()));
    let done = call(&mut w, &client, RequestOptions::default());
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::InputRoundsExceeded { rounds: 0 }))));
    assert_eq!(w.server.count("tools/call"), 1);
}

#[test]
fn each_retry_carries_only_the_latest_answers_and_state() {
    let (mut w, client) = modern(
        |s| {
            let answered = s.params().get("inputResponses").cloned().unwrap_or(Value::Null);
            (s.method() == "tools/call").then(|| match (answered.get("first"), answered.get("second")) {
                (None, None) => ask(json!({ "first": roots_request() }), Some("s1")),
                (Some(_), None) => ask(json!({ "second": roots_request() }), None),
                _ => Answer::Result(text_result("done")),
            })
        },
        ClientOptions::default().handlers(roots()),
    );
    let done = call(&mut w, &client, RequestOptions::default());
    assert_eq!(done.borrow_mut().take().unwrap().unwrap(), "done");
    let calls: Vec<Value> = w.server.seen.borrow().iter().filter(|s| s.method() == "tools/call").map(|s| s.params()).collect();
    assert_eq!(calls.len(), 3);
    assert_eq!(calls[1]["requestState"], "s1");
    assert_eq!(calls[1]["inputResponses"]["first"]["roots"][0]["uri"], "file:///w");
    assert!(calls[2].get("requestState").is_none(), "a round without state drops the previous one");
    let keys: Vec<&String> = calls[2]["inputResponses"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["second"]);
}

#[test]
fn a_handlers_refusal_fails_the_call_and_nothing_more_is_sent() {
    let refusing = Handlers::default().roots_json(Rc::new(|_, _| async { Err(ErrorObject::new(-32603, "no roots today")) }.boxed_local()));
    let (mut w, client) = modern(endless, ClientOptions::default().handlers(refusing));
    let done = call(&mut w, &client, RequestOptions::default());
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Rpc(e))) if e.message == "no roots today"));
    assert_eq!(w.server.count("tools/call"), 1);
}

/// A roots handler that answers only once told the answer is no longer
/// wanted, and keeps the reason it was told.
fn waiting_for_cancellation() -> (Rc<RefCell<Option<String>>>, Handlers) {
    let heard = Rc::new(RefCell::new(None));
    let log = heard.clone();
    let handlers = Handlers::default().roots_json(Rc::new(move |_, ctx| {
        let log = log.clone();
        async move {
            *log.borrow_mut() = Some(ctx.cancelled().await);
            Ok(json!({"roots": []}))
        }
        .boxed_local()
    }));
    (heard, handlers)
}

#[test]
fn cancelling_while_a_handler_works_fails_the_call_and_tells_the_handler() {
    let (heard, waiting) = waiting_for_cancellation();
    let (mut w, client) = modern(endless, ClientOptions::default().handlers(waiting));
    let token = CancelToken::new();
    let done = call(&mut w, &client, RequestOptions::default().cancel_with(&token));
    assert!(done.borrow().is_none());
    token.cancel("changed my mind");
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Cancelled { reason })) if reason == "changed my mind"));
    assert_eq!(heard.borrow().as_deref(), Some("changed my mind"));
    assert_eq!(w.server.count("tools/call"), 1);
}

#[test]
fn a_timeout_while_a_handler_works_is_told_to_the_handler() {
    let (heard, waiting) = waiting_for_cancellation();
    let (mut w, client) = modern(endless, ClientOptions::default().timeout(4_000).handlers(waiting));
    let done = call(&mut w, &client, RequestOptions::default());
    w.advance(4_000);
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Timeout { ms: 4_000 }))), "the client's default timeout applies");
    assert!(heard.borrow().as_deref().is_some_and(|reason| reason.contains("timed out")));
}

#[test]
fn other_requests_than_tool_calls_get_input_rounds_too() {
    let (mut w, client) = modern(
        |s| {
            (s.method() == "prompts/get").then(|| match s.params().get("inputResponses") {
                None => ask(json!({ "r": roots_request() }), Some("p")),
                Some(_) => Answer::Result(json!({"messages": []})),
            })
        },
        ClientOptions::default().handlers(roots()),
    );
    let prompt = w.run(async move { client.get_prompt("p", Map::new(), &RequestOptions::default()).await }).unwrap();
    assert!(prompt.messages.is_empty());
    assert_eq!(w.server.count("prompts/get"), 2);
    assert_eq!(w.server.last("prompts/get").unwrap().params()["name"], "p");
}

#[test]
fn an_unknown_result_type_is_a_protocol_error() {
    let (mut w, client) =
        modern(|s| (s.method() == "tools/call").then(|| Answer::Result(json!({"resultType": "maybe"}))), ClientOptions::default());
    let done = call(&mut w, &client, RequestOptions::default());
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Protocol(_)))));
}

#[test]
fn max_total_timeout_caps_every_round_of_input_together() {
    use crate::session::Runtime;
    let mut w = World::new(|s| endless(s).unwrap_or_else(|| crate::client::testing::modern_peer(s, &json!({"tools": {}}))));
    let runtime = w.runtime.clone();
    // Each round's answer takes 400 ms: well within each request's own timeout.
    let handlers = Handlers::default().roots(move |_| {
        let nap = runtime.sleep(400);
        async move {
            nap.await;
            Ok(vec![Root::new("file:///w", "w")])
        }
    });
    let client = w.connect(ClientOptions::default().handlers(handlers)).unwrap();
    let done = call(&mut w, &client, RequestOptions { max_total_timeout_ms: Some(1_000), ..RequestOptions::default() });
    w.advance(999);
    assert!(done.borrow().is_none());
    w.advance(1);
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Timeout { ms: 1_000 }))), "the cap is on the rounds together");
    assert!(w.server.count("tools/call") < 4, "no round after the cap");
}

/// A roots handler, and how often it was asked.
fn counted_roots() -> (Rc<std::cell::Cell<u32>>, Handlers) {
    let asked = Rc::new(std::cell::Cell::new(0));
    let counted = asked.clone();
    let handlers = Handlers::default().roots(move |_| {
        counted.set(counted.get() + 1);
        async { Ok(vec![Root::new("file:///w", "w")]) }
    });
    (asked, handlers)
}

#[test]
fn the_handlers_are_not_asked_for_a_round_that_would_never_be_sent() {
    let (asked, handlers) = counted_roots();
    let (mut w, client) = modern(endless, ClientOptions { max_input_rounds: 3, ..ClientOptions::default() }.handlers(handlers));
    let done = call(&mut w, &client, RequestOptions::default());
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::InputRoundsExceeded { rounds: 3 }))));
    assert_eq!((w.server.count("tools/call"), asked.get()), (4, 3));
}

#[test]
fn input_asked_for_in_answer_to_a_list_is_refused() {
    let (asked, handlers) = counted_roots();
    let (mut w, client) = modern(
        |s| (s.method() == "tools/list").then(|| ask(json!({ "r": roots_request() }), None)),
        ClientOptions::default().handlers(handlers),
    );
    let c = client.clone();
    let listed = w.run(async move { c.list_tools(None, &RequestOptions::default()).await });
    assert!(matches!(&listed, Err(Error::Protocol(m)) if m.contains("tools/list")), "{listed:?}");
    assert_eq!((w.server.count("tools/list"), asked.get()), (1, 0));
}
