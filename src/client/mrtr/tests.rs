use super::*;
use crate::protocol::jsonrpc::Message;
use crate::session::handler::HandlerResult;
use crate::session::testing::harness;
use futures::future::{self, FutureExt};
use futures::task::LocalSpawnExt;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;

/// Answers elicitations with a fixed name; knows nothing else.
struct Answers;

impl ClientHandler for Answers {
    fn handle(&self, method: &str, _: Option<Value>, _: InboundContext) -> Option<HandlerResult> {
        (method == "elicitation/create")
            .then(|| Box::pin(async { Ok(json!({"action": "accept", "content": {"name": "Ada"}})) }) as HandlerResult)
    }
}

type Slot = Rc<RefCell<Option<Result<Outcome, Error>>>>;

fn start(h: &mut crate::session::testing::Harness, handler: Option<Rc<dyn ClientHandler>>, max_rounds: u32) -> Slot {
    launch(h, handler, Rc::new(CallOptions::default), max_rounds)
}

fn launch(
    h: &mut crate::session::testing::Harness,
    handler: Option<Rc<dyn ClientHandler>>,
    options: Rc<dyn Fn() -> CallOptions>,
    max_rounds: u32,
) -> Slot {
    let slot: Slot = Rc::default();
    let (session, out) = (h.session.clone(), slot.clone());
    h.pool
        .spawner()
        .spawn_local(async move {
            let prepare = |p: Option<Params>| p.unwrap_or_else(|| json!({}).into());
            let call = move || options();
            let outcome = request_with_input(
                &session,
                handler.as_deref(),
                "tools/call",
                Some(json!({"name": "ask"}).into()),
                &prepare,
                &call,
                max_rounds,
            )
            .await;
            *out.borrow_mut() = Some(outcome);
        })
        .unwrap();
    h.pool.run_until_stalled();
    slot
}

fn input_required(id: i64, state: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"resultType":"input_required","requestState":"{state}",
            "inputRequests":{{"who":{{"method":"elicitation/create","params":{{"message":"name?"}}}}}}}}}}"#
    )
}

#[test]
fn input_is_fulfilled_and_the_request_retried_under_a_new_id() {
    let mut h = harness();
    let slot = start(&mut h, Some(Rc::new(Answers)), 10);
    h.reply(&input_required(1, "s1"));
    h.reply(&input_required(2, "s2"));
    h.reply(r#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[]}}"#);
    assert_eq!(slot.borrow_mut().take().unwrap().unwrap(), Outcome::Complete(json!({"content": []})));
    let sent = h.transport.sent.borrow();
    let Message::Request { id, params: Some(retry), .. } = &sent[2] else { panic!("{:?}", sent[2]) };
    assert_eq!(id.to_value(), json!(3));
    let retry = retry.to_value();
    assert_eq!(retry["requestState"], json!("s2"));
    assert_eq!(retry["inputResponses"]["who"]["content"]["name"], json!("Ada"));
    assert_eq!(retry["name"], json!("ask"));
}

#[test]
fn the_round_cap_is_a_typed_error() {
    let mut h = harness();
    let slot = start(&mut h, Some(Rc::new(Answers)), 2);
    for id in 1..=3 {
        h.reply(&input_required(id, "again"));
    }
    assert!(matches!(slot.borrow_mut().take().unwrap(), Err(Error::InputRoundsExceeded { rounds: 2 })));
}

#[test]
fn input_without_a_handler_is_a_missing_capability() {
    let mut h = harness();
    let slot = start(&mut h, None, 10);
    h.reply(&input_required(1, "s"));
    let error = slot.borrow_mut().take().unwrap().unwrap_err();
    assert_eq!(
        error.to_string(),
        "the server requires client capabilities this client lacks: elicitation/create input (the client has no handler for it)"
    );
    assert_eq!(h.transport.sent.borrow().len(), 1, "no retry without an answer");
}

#[test]
fn bad_result_types_are_protocol_errors() {
    let mut h = harness();
    let slot = start(&mut h, Some(Rc::new(Answers)), 10);
    h.reply(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"later"}}"#);
    assert!(matches!(slot.borrow_mut().take().unwrap(), Err(Error::Protocol(_))));
}

/// A handler that never answers, and records why it was told to stop.
struct NeverAnswers {
    stopped: Rc<RefCell<Vec<String>>>,
}

impl ClientHandler for NeverAnswers {
    fn handle(&self, _: &str, _: Option<Value>, ctx: InboundContext) -> Option<HandlerResult> {
        let stopped = self.stopped.clone();
        Some(Box::pin(async move {
            let reason = ctx.cancelled.await;
            stopped.borrow_mut().push(reason);
            future::pending().await
        }))
    }
}

fn start_with(h: &mut crate::session::testing::Harness, handler: Rc<dyn ClientHandler>, options: Rc<dyn Fn() -> CallOptions>) -> Slot {
    launch(h, Some(handler), options, 10)
}

#[test]
fn a_handler_that_never_answers_times_out_with_the_request() {
    let mut h = harness();
    let stopped: Rc<RefCell<Vec<String>>> = Rc::default();
    let slot = start_with(
        &mut h,
        Rc::new(NeverAnswers { stopped: stopped.clone() }),
        Rc::new(|| CallOptions { timeout_ms: Some(500), ..Default::default() }),
    );
    h.reply(&input_required(1, "s1"));
    h.runtime.advance(499);
    h.pool.run_until_stalled();
    assert!(slot.borrow().is_none());
    h.runtime.advance(1);
    h.pool.run_until_stalled();
    assert!(matches!(slot.borrow_mut().take().unwrap(), Err(Error::Timeout { ms: 500 })));
    assert_eq!(stopped.borrow().len(), 1, "the handler's signal fired");
    assert!(stopped.borrow()[0].contains("timed out"));
}

#[test]
fn the_callers_cancel_reaches_a_pending_handler() {
    let mut h = harness();
    let stopped: Rc<RefCell<Vec<String>>> = Rc::default();
    let (tx, rx) = futures::channel::oneshot::channel::<String>();
    let rx = rx.map(|r| r.unwrap_or_default()).shared();
    let options: Rc<dyn Fn() -> CallOptions> =
        Rc::new(move || CallOptions { cancel: Some(rx.clone().boxed_local()), ..Default::default() });
    let slot = start_with(&mut h, Rc::new(NeverAnswers { stopped: stopped.clone() }), options);
    h.reply(&input_required(1, "s1"));
    assert!(slot.borrow().is_none());
    tx.send("the user closed the dialog".into()).unwrap();
    h.pool.run_until_stalled();
    assert!(matches!(slot.borrow_mut().take().unwrap(), Err(Error::Cancelled { reason }) if reason == "the user closed the dialog"));
    assert_eq!(*stopped.borrow(), ["the user closed the dialog"]);
}

#[test]
fn closing_the_client_ends_a_round_whose_handler_is_pending() {
    let mut h = harness();
    let stopped: Rc<RefCell<Vec<String>>> = Rc::default();
    let slot = start_with(&mut h, Rc::new(NeverAnswers { stopped: stopped.clone() }), Rc::new(CallOptions::default));
    h.reply(&input_required(1, "s1"));
    assert!(slot.borrow().is_none());
    let session = h.session.clone();
    h.pool.spawner().spawn_local(async move { session.close().await }).unwrap();
    h.pool.run_until_stalled();
    assert!(matches!(slot.borrow_mut().take(), Some(Err(Error::Closed))), "the call fails with closed, not at its timeout");
    assert_eq!(*stopped.borrow(), ["the client closed"], "the handler's signal fired");
}

#[test]
fn too_many_inputs_in_one_round_are_refused() {
    let mut h = harness();
    h.session.set_max_server_requests(2);
    let slot = start(&mut h, Some(Rc::new(Answers)), 10);
    let requests: Vec<String> = (0..3).map(|i| format!(r#""k{i}":{{"method":"elicitation/create","params":{{}}}}"#)).collect();
    h.reply(&format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{{}}}}}}}"#,
        requests.join(",")
    ));
    assert!(matches!(slot.borrow_mut().take().unwrap(), Err(Error::LimitExceeded { limit: "maxServerRequests", .. })));
}
