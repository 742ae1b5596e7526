use super::*;
use crate::protocol::jsonrpc::Message;
use crate::session::handler::HandlerResult;
use crate::session::testing::harness;
use futures::task::LocalSpawnExt;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;

/// Answers elicitations with a fixed name; knows nothing else.
struct Answers;

impl ClientHandler for Answers {
    fn handle(&self, method: &str, _: Option<Value>, _: InboundContext) -> Option<HandlerResult> {
        (method == "elicitation/create").then(|| Box::pin(async { Ok(json!({"action": "accept", "content": {"name": "Ada"}})) }) as HandlerResult)
    }
}

type Slot = Rc<RefCell<Option<Result<Outcome, Error>>>>;

fn start(h: &mut crate::session::testing::Harness, handler: Option<Rc<dyn ClientHandler>>, max_rounds: u32) -> Slot {
    let slot: Slot = Rc::default();
    let (session, out) = (h.session.clone(), slot.clone());
    h.pool
        .spawner()
        .spawn_local(async move {
            let prepare = |p: Option<Value>| p.unwrap_or_else(|| json!({}));
            let call = CallOptions::default;
            let outcome =
                request_with_input(&session, handler.as_deref(), "tools/call", Some(json!({"name": "ask"})), &prepare, &call, max_rounds).await;
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
fn input_without_a_handler_is_unsupported() {
    let mut h = harness();
    let slot = start(&mut h, None, 10);
    h.reply(&input_required(1, "s"));
    assert!(matches!(slot.borrow_mut().take().unwrap(), Err(Error::Unsupported(_))));
    assert_eq!(h.transport.sent.borrow().len(), 1, "no retry without an answer");
}

#[test]
fn bad_result_types_are_protocol_errors() {
    let mut h = harness();
    let slot = start(&mut h, Some(Rc::new(Answers)), 10);
    h.reply(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"later"}}"#);
    assert!(matches!(slot.borrow_mut().take().unwrap(), Err(Error::Protocol(_))));
}
