//! The engine over a scripted in-memory transport and a manual clock.

use super::*;
use crate::session::handler::{ClientHandler, InboundContext};
use crate::session::testing::{harness, Harness};
use futures::Future;
use serde_json::json;

#[test]
fn a_response_settles_its_request_by_id() {
    let mut h = harness();
    let first = h.start("tools/list", CallOptions::default());
    let second = h.start("tools/call", CallOptions::default());
    h.reply(r#"{"jsonrpc":"2.0","id":2,"result":{"second":true}}"#);
    h.reply(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}"#);
    assert_eq!(second.borrow().as_ref().unwrap().as_ref().unwrap(), &json!({"second": true}));
    assert!(matches!(first.borrow().as_ref().unwrap(), Err(Error::Rpc(e)) if e.code == -32602));
}

#[test]
fn unknown_and_late_ids_are_ignored() {
    let mut h = harness();
    let call = h.start("tools/list", CallOptions::default());
    h.reply(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#);
    h.reply(r#"{"jsonrpc":"2.0","id":"1","result":{}}"#);
    assert!(call.borrow().is_none(), "a string id \"1\" is not the number 1");
    h.reply(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    h.reply(r#"{"jsonrpc":"2.0","id":1,"result":{"again":true}}"#);
    assert_eq!(call.borrow().as_ref().unwrap().as_ref().unwrap(), &json!({}));
}

#[test]
fn timeout_rejects_and_sends_cancelled() {
    let mut h = harness();
    let call = h.start("tools/call", CallOptions { timeout_ms: Some(50), ..Default::default() });
    h.runtime.advance(49);
    h.pool.run_until_stalled();
    assert!(call.borrow().is_none());
    h.runtime.advance(1);
    h.pool.run_until_stalled();
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Timeout { ms: 50 })));
    let sent = h.transport.sent.borrow();
    let Message::Notification { method, params } = sent.last().unwrap() else { panic!("no notification") };
    assert_eq!(method, "notifications/cancelled");
    assert_eq!(params.as_ref().unwrap().to_value()["requestId"], json!(1));
    drop(sent);
    // The late answer is dropped silently.
    h.reply(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
}

/// Where a started call's outcome lands.
type Outcome = Rc<RefCell<Option<Result<Value, Error>>>>;

/// An `initialize` whose send is held (the OAuth flow in it), with a `timeout_ms` timeout.
fn initialize_held(timeout_ms: u32) -> (Harness, Outcome) {
    let mut h = harness();
    h.transport.hold_sends.set(true);
    let call = h.start("initialize", CallOptions { timeout_ms: Some(timeout_ms), ..Default::default() });
    (h, call)
}

/// Moves the clock on by `ms`, a person signing in for `signing_in` of them.
fn pass(h: &mut Harness, ms: u64, signing_in: u64) {
    h.transport.user_wait_ms.set(h.transport.user_wait_ms.get() + signing_in);
    h.runtime.advance(ms);
    h.pool.run_until_stalled();
}

/// `call` is still waiting, and times out with `timeout_ms` one millisecond later.
fn times_out_in_a_millisecond(h: &mut Harness, call: &Outcome, timeout_ms: u32, signing_in: u64) {
    assert!(call.borrow().is_none(), "a millisecond before its deadline");
    pass(h, 1, signing_in);
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Timeout { ms }) if *ms == timeout_ms));
}

#[test]
fn the_time_a_person_signs_in_is_given_back_to_the_timeout() {
    let (mut h, call) = initialize_held(100);
    // 80 of the first 100 ms on the consent page: 80 more ms, and no more.
    pass(&mut h, 100, 80);
    pass(&mut h, 79, 0);
    times_out_in_a_millisecond(&mut h, &call, 100, 0);
}

#[test]
fn a_consent_in_progress_holds_the_request_and_the_timeout_holds_after_it() {
    let (mut h, call) = initialize_held(50);
    for _ in 0..5 {
        pass(&mut h, 50, 50);
    }
    assert!(call.borrow().is_none(), "someone signing in for five timeouts");
    h.transport.let_sends_finish();
    h.pool.run_until_stalled();
    h.reply(r#"{"jsonrpc":"2.0","id":1,"result":{"signedIn":true}}"#);
    assert_eq!(call.borrow().as_ref().unwrap().as_ref().unwrap(), &json!({"signedIn": true}));

    let late = h.start("tools/list", CallOptions { timeout_ms: Some(50), ..Default::default() });
    pass(&mut h, 50, 0);
    assert!(matches!(late.borrow().as_ref().unwrap(), Err(Error::Timeout { ms: 50 })), "no consent: the timeout holds");
}

#[test]
fn a_consent_gets_ten_minutes_past_the_timeout_at_most() {
    // A timeout that does not divide the limit: 7 + 7 + 3 minutes, then the deadline.
    let (mut h, call) = initialize_held(420_000);
    pass(&mut h, 420_000, 420_000);
    pass(&mut h, 420_000, 420_000);
    pass(&mut h, 179_999, 179_999);
    times_out_in_a_millisecond(&mut h, &call, 420_000, 1);
}

/// Where a notification's outcome lands.
type Notified = Rc<RefCell<Option<Result<(), Error>>>>;

/// A notification whose send the transport holds, as it holds one waiting on a consent page.
fn notification_held() -> (Harness, Notified) {
    let mut h = harness();
    h.transport.hold_sends.set(true);
    let session = h.session.clone();
    let outcome = h.run(async move { session.notify_until("notifications/roots/list_changed", None, None).await });
    (h, outcome)
}

#[test]
fn a_notification_that_waits_on_a_consent_gets_the_time_back() {
    let (mut h, outcome) = notification_held();
    // The session's default timeout is 1,000 ms: 600 of the first 1,000 on the consent page.
    pass(&mut h, 1_000, 600);
    pass(&mut h, 599, 0);
    assert!(outcome.borrow().is_none(), "a millisecond before its deadline");
    pass(&mut h, 1, 0);
    assert!(matches!(outcome.borrow().as_ref().unwrap(), Err(Error::Timeout { ms: 1_000 })));
}

#[test]
fn closing_ends_a_notification_that_waits_on_a_consent_and_the_sign_in_with_it() {
    let (mut h, outcome) = notification_held();
    // Past the deadline, the whole of it on the consent page: the wait has been re-armed.
    pass(&mut h, 1_500, 1_500);
    assert!(outcome.borrow().is_none());
    h.pool.run_until(h.session.close());
    h.pool.run_until_stalled();
    assert!(matches!(outcome.borrow().as_ref().unwrap(), Err(Error::Closed)), "at once, not at the next deadline");
    assert_eq!(h.transport.sends_given_up(), 1, "the send, and the consent it waits on, let go");
}

#[test]
fn a_cap_on_the_whole_counts_the_consent() {
    let mut h = harness();
    let session = h.session.clone();
    let stopped = h.run(async move { session.stop_after(1_000, None, ConsentTime::Counts).await });
    // All of it on a consent page, which a timeout would give back.
    pass(&mut h, 999, 999);
    assert!(stopped.borrow().is_none(), "a millisecond before its deadline");
    pass(&mut h, 1, 1);
    assert!(matches!(stopped.borrow().as_ref(), Some(Error::Timeout { ms: 1_000 })));
}

#[test]
fn initialize_is_never_cancelled() {
    let mut h = harness();
    let call = h.start("initialize", CallOptions { timeout_ms: Some(10), ..Default::default() });
    h.runtime.advance(10);
    h.pool.run_until_stalled();
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Timeout { .. })));
    assert_eq!(h.sent_methods(), ["initialize"]);
}

#[test]
fn caller_cancellation_sends_the_reason() {
    let mut h = harness();
    let (tx, rx) = oneshot::channel::<String>();
    let cancel = Box::pin(async move { rx.await.unwrap_or_default() });
    let call = h.start("tools/call", CallOptions { cancel: Some(cancel), ..Default::default() });
    tx.send("user clicked stop".into()).unwrap();
    h.pool.run_until_stalled();
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Cancelled { reason }) if reason == "user clicked stop"));
    let sent = h.transport.sent.borrow();
    assert_eq!(sent.last().unwrap().to_value()["params"], json!({"requestId": 1, "reason": "user clicked stop"}));
}

#[test]
fn closed_resolves_at_the_close_and_lets_dropped_waiters_go() {
    let mut h = harness();
    let session = h.session.clone();
    for _ in 0..1_000 {
        drop(session.closed());
    }
    let waiting = session.closed();
    assert_eq!(session.inner.state.borrow().close_waiters.len(), 1, "dropped waiters do not pile up");
    h.pool.run_until(session.close());
    h.pool.run_until(waiting);
    h.pool.run_until(session.closed());
}

#[test]
fn close_rejects_pending_and_is_idempotent() {
    let mut h = harness();
    let call = h.start("tools/list", CallOptions::default());
    let session = h.session.clone();
    h.pool.run_until(session.close());
    h.pool.run_until(session.close());
    h.pool.run_until_stalled();
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Closed)));
    assert_eq!(h.transport.closed.get(), 1);
    // Closing is not giving up on a request: no cancellation is sent.
    assert_eq!(h.sent_methods(), ["tools/list"]);
    let after = h.start("ping", CallOptions::default());
    assert!(matches!(after.borrow().as_ref().unwrap(), Err(Error::Closed)));
    assert!(matches!(h.pool.run_until(session.notify("x", None)), Err(Error::Closed)));
}

#[test]
fn a_send_failure_rejects_without_cancelling() {
    let mut h = harness();
    h.transport.fail_sends.set(true);
    let call = h.start("tools/list", CallOptions::default());
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Network { .. })));
    h.transport.fail_sends.set(false);
    h.runtime.advance(10_000);
    h.pool.run_until_stalled();
    assert!(h.sent_methods().is_empty());
}

#[test]
fn a_failed_stream_fails_its_request() {
    let mut h = harness();
    let call = h.start("tools/call", CallOptions::default());
    (h.sink)(Inbound::RequestFailed { id: RequestId::Number(1), error: Error::protocol("stream ended".into()) });
    h.pool.run_until_stalled();
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Protocol(_))));
}

#[test]
fn server_ping_is_answered_and_unknown_requests_get_method_not_found() {
    let mut h = harness();
    h.reply(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    h.reply(r#"{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{}}"#);
    let sent: Vec<Value> = h.transport.sent.borrow().iter().map(Message::to_value).collect();
    assert_eq!(sent[0], json!({"jsonrpc": "2.0", "id": "p", "result": {}}));
    assert_eq!(sent[1]["id"], json!(5));
    assert_eq!(sent[1]["error"]["code"], json!(-32601));
}

/// A server that pings faster than it takes the answers gets at most 64 of them on their way at
/// once and 4,096 more queued, each sent as one before it arrives; past that, it is told once that
/// the rest went unanswered. Once they arrive, pings are answered again.
#[test]
fn automatic_replies_on_their_way_are_bounded() {
    let mut h = harness();
    let problems: Rc<RefCell<Vec<String>>> = Rc::default();
    let log = problems.clone();
    h.session.set_problem_listener(Some(Rc::new(move |problem: Error| log.borrow_mut().push(problem.to_string()))));
    h.transport.hold_sends.set(true);
    let pings = super::MAX_AUTOMATIC_REPLIES + super::MAX_QUEUED_REPLIES + 100;
    for i in 0..pings {
        h.reply(&format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#));
    }
    assert_eq!(h.transport.sent.borrow().len(), super::MAX_AUTOMATIC_REPLIES, "the rest wait");
    assert_eq!(problems.borrow().len(), 1, "{problems:?}");
    assert!(problems.borrow()[0].contains("left unanswered"), "{problems:?}");
    h.transport.let_sends_finish();
    h.pool.run_until_stalled();
    let answered = h.transport.sent.borrow().len();
    assert_eq!(answered, super::MAX_AUTOMATIC_REPLIES + super::MAX_QUEUED_REPLIES, "the queued ones went as the others arrived");
    h.reply(r#"{"jsonrpc":"2.0","id":"again","method":"ping"}"#);
    let sent = h.transport.sent.borrow();
    assert_eq!(sent.last().map(Message::to_value), Some(json!({"jsonrpc": "2.0", "id": "again", "result": {}})));
}

/// A server that never takes an answer (its POST held) holds it for the default timeout at most:
/// the send is dropped then, which aborts the POST, and its slot among the automatic replies is free.
#[test]
fn answers_nobody_awaits_are_given_up_after_the_default_timeout() {
    let mut h = harness();
    h.transport.hold_sends.set(true);
    h.reply(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    h.runtime.advance(999);
    h.pool.run_until_stalled();
    assert_eq!(h.transport.sends_given_up(), 0);
    h.runtime.advance(1);
    h.pool.run_until_stalled();
    assert_eq!(h.transport.sends_given_up(), 1);
    assert_eq!(h.session.inner.state.borrow().automatic_replies, 0);
}

/// `close()` settles a request whose send has not finished (in Streamable HTTP, a token request
/// before the POST) with `Closed` at once, and drops the send.
#[test]
fn close_settles_a_request_still_being_sent() {
    let mut h = harness();
    h.transport.hold_sends.set(true);
    let call = h.start("tools/call", CallOptions::default());
    assert!(call.borrow().is_none());
    let session = h.session.clone();
    h.pool.run_until(session.close());
    h.pool.run_until_stalled();
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Closed)));
    assert_eq!(h.transport.sends_given_up(), 1);
}

#[test]
fn notifications_reach_the_listener() {
    let mut h = harness();
    let seen: Rc<RefCell<Vec<String>>> = Rc::default();
    let log = seen.clone();
    h.session.set_notification_listener(Some(Rc::new(move |method: &str, _: Option<&Value>| {
        log.borrow_mut().push(method.to_owned());
    })));
    h.reply(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    assert_eq!(*seen.borrow(), ["notifications/tools/list_changed"]);
}

#[test]
fn dropping_a_request_future_cancels_it() {
    let h = harness();
    let mut request = Box::pin(h.session.request("tools/call", None, CallOptions::default()));
    let waker = futures::task::noop_waker();
    let mut cx = std::task::Context::from_waker(&waker);
    assert!(request.as_mut().poll(&mut cx).is_pending());
    drop(request);
    let Harness { mut pool, transport, .. } = h;
    pool.run_until_stalled();
    assert_eq!(transport.sent.borrow().len(), 2);
    assert_eq!(transport.sent.borrow().last().unwrap().method(), Some("notifications/cancelled"));
}

fn progress_options(seen: &Rc<RefCell<Vec<Value>>>, reset: bool, max_total: Option<u32>) -> CallOptions {
    let log = seen.clone();
    CallOptions {
        timeout_ms: Some(100),
        on_progress: Some(Rc::new(move |p: &Value| log.borrow_mut().push(p.clone()))),
        reset_timeout_on_progress: reset,
        max_total_timeout_ms: max_total,
        ..Default::default()
    }
}

#[test]
fn progress_is_requested_routed_and_resets_the_timeout() {
    let mut h = harness();
    let seen: Rc<RefCell<Vec<Value>>> = Rc::default();
    let call = h.start("tools/call", progress_options(&seen, true, None));
    let sent = h.transport.sent.borrow()[0].to_value();
    assert_eq!(sent["params"]["_meta"]["progressToken"], json!(1));
    for step in 1..=3 {
        h.runtime.advance(90);
        h.reply(&format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":1,"progress":{step},"total":3}}}}"#
        ));
    }
    // Progress for a token nobody asked for is dropped.
    h.reply(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":77,"progress":1}}"#);
    assert!(call.borrow().is_none(), "270 ms passed, but each progress restarted the 100 ms timeout");
    assert_eq!(seen.borrow().len(), 3);
    assert_eq!(seen.borrow()[2]["progress"], json!(3));
    h.reply(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
    assert!(call.borrow().as_ref().unwrap().is_ok());
}

/// The answer ends the operation: progress right behind it, on the same
/// stream and before the caller has woken up, is not delivered.
#[test]
fn progress_after_the_answer_is_not_delivered() {
    let mut h = harness();
    let seen: Rc<RefCell<Vec<Value>>> = Rc::default();
    let call = h.start("tools/call", progress_options(&seen, false, None));
    let messages = [
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"total":2}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":50,"total":2}}"#,
    ];
    for text in messages {
        for message in crate::protocol::jsonrpc::decode(text, false).unwrap() {
            (h.sink)(Inbound::Message(message));
        }
    }
    h.pool.run_until_stalled();
    assert!(call.borrow().as_ref().unwrap().is_ok());
    let delivered: Vec<Value> = seen.borrow().iter().map(|p| p["progress"].clone()).collect();
    assert_eq!(delivered, [json!(1)]);
}

#[test]
fn without_reset_progress_does_not_extend_the_timeout() {
    let mut h = harness();
    let seen: Rc<RefCell<Vec<Value>>> = Rc::default();
    let call = h.start("tools/call", progress_options(&seen, false, None));
    h.runtime.advance(90);
    h.reply(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#);
    h.runtime.advance(10);
    h.pool.run_until_stalled();
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Timeout { ms: 100 })));
}

#[test]
fn the_total_cap_wins_over_progress_resets() {
    let mut h = harness();
    let seen: Rc<RefCell<Vec<Value>>> = Rc::default();
    let call = h.start("tools/call", progress_options(&seen, true, Some(250)));
    for _ in 0..3 {
        h.runtime.advance(90);
        h.reply(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#);
    }
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Timeout { ms: 250 })));
    assert_eq!(h.sent_methods().last().map(String::as_str), Some("notifications/cancelled"));
}

/// Answers `sampling/createMessage` when the test says so; knows nothing else.
struct ScriptedHandler {
    answers: RefCell<Vec<oneshot::Sender<Result<Value, ErrorObject>>>>,
    cancellations: Rc<RefCell<Vec<String>>>,
}

impl ClientHandler for ScriptedHandler {
    fn handle(&self, method: &str, _: Option<Value>, ctx: InboundContext) -> Option<crate::session::handler::HandlerResult> {
        if method != "sampling/createMessage" {
            return None;
        }
        let (tx, rx) = oneshot::channel();
        self.answers.borrow_mut().push(tx);
        let log = self.cancellations.clone();
        let cancelled = ctx.cancelled;
        Some(Box::pin(async move {
            match future::select(rx, cancelled).await {
                future::Either::Left((answer, _)) => answer.unwrap_or(Err(ErrorObject::new(-32603, "dropped"))),
                future::Either::Right((reason, _)) => {
                    log.borrow_mut().push(reason);
                    future::pending().await
                }
            }
        }))
    }
}

/// A session whose server requests go to a [`ScriptedHandler`].
fn with_scripted_handler() -> (Harness, Rc<ScriptedHandler>) {
    let h = harness();
    let handler = Rc::new(ScriptedHandler { answers: RefCell::default(), cancellations: Rc::default() });
    h.session.set_handler(Some(handler.clone()));
    (h, handler)
}

#[test]
fn server_requests_run_concurrently_and_can_be_cancelled() {
    let (mut h, handler) = with_scripted_handler();
    h.reply(r#"{"jsonrpc":"2.0","id":"a","method":"sampling/createMessage","params":{}}"#);
    h.reply(r#"{"jsonrpc":"2.0","id":"b","method":"sampling/createMessage","params":{}}"#);
    h.reply(r#"{"jsonrpc":"2.0","id":"c","method":"roots/list"}"#);
    // "c" has no handler: answered at once, while "a" and "b" are still open.
    assert_eq!(h.transport.sent.borrow()[0].to_value()["error"]["code"], json!(-32601));
    // The server withdraws "a"; the handler sees why, and nothing is sent for it.
    h.reply(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a","reason":"too slow"}}"#);
    assert_eq!(*handler.cancellations.borrow(), ["too slow"]);
    let answers: Vec<_> = handler.answers.borrow_mut().drain(..).collect();
    let mut answers = answers.into_iter();
    let _ = answers.next().unwrap().send(Ok(json!({"late": true})));
    let _ = answers.next().unwrap().send(Err(ErrorObject::new(-1, "user declined")));
    h.pool.run_until_stalled();
    let sent: Vec<Value> = h.transport.sent.borrow().iter().map(Message::to_value).collect();
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(sent[1]["id"], json!("b"));
    assert_eq!(sent[1]["error"], json!({"code": -1, "message": "user declined"}));
}

#[test]
fn a_second_server_request_under_an_id_in_use_is_refused() {
    let (mut h, handler) = with_scripted_handler();
    let problems = problems_of(&h);
    h.reply(r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{}}"#);
    h.reply(r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{}}"#);
    h.pool.run_until_stalled();
    assert_eq!(handler.answers.borrow().len(), 1, "only the first reaches the handler");
    assert!(handler.cancellations.borrow().is_empty(), "the first goes on: {:?}", handler.cancellations.borrow());
    let refused: Vec<Value> = h.transport.sent.borrow().iter().map(Message::to_value).collect();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!((refused[0]["id"].clone(), refused[0]["error"]["code"].clone()), (json!(7), json!(-32600)));
    assert!(matches!(problems.borrow().as_slice(), [Error::Protocol(why)] if why.contains("already in use")));
    let first = handler.answers.borrow_mut().remove(0);
    let _ = first.send(Ok(json!({"role": "assistant"})));
    h.pool.run_until_stalled();
    let sent: Vec<Value> = h.transport.sent.borrow().iter().map(Message::to_value).collect();
    assert_eq!(sent.last().map(|m| m["result"].clone()), Some(json!({"role": "assistant"})));
    // Once answered, the id is free again.
    h.reply(r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{}}"#);
    assert_eq!(handler.answers.borrow().len(), 1, "a later request may use the id again");
}

#[test]
fn an_id_withdrawn_and_used_again_at_once_belongs_to_the_new_request() {
    let (mut h, handler) = with_scripted_handler();
    h.reply(r#"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{}}"#);
    // The withdrawal and the new request under the same id arrive before the first one's task runs again.
    for text in [
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"changed my mind"}}"#,
        r#"{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{}}"#,
    ] {
        for message in crate::protocol::jsonrpc::decode(text, false).unwrap() {
            (h.sink)(Inbound::Message(message));
        }
    }
    h.pool.run_until_stalled();
    assert_eq!(*handler.cancellations.borrow(), ["changed my mind"], "only the first was withdrawn");
    let second = handler.answers.borrow_mut().remove(1);
    let _ = second.send(Ok(json!({"role": "assistant"})));
    h.pool.run_until_stalled();
    let sent: Vec<Value> = h.transport.sent.borrow().iter().map(Message::to_value).collect();
    assert_eq!(sent.iter().map(|m| (m["id"].clone(), m["result"].clone())).collect::<Vec<_>>(), [(json!(9), json!({"role": "assistant"}))]);
}

#[test]
fn closing_cancels_server_requests_in_flight() {
    let (mut h, handler) = with_scripted_handler();
    h.reply(r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}"#);
    let session = h.session.clone();
    h.pool.run_until(session.close());
    h.pool.run_until_stalled();
    assert_eq!(*handler.cancellations.borrow(), ["the client closed"]);
    assert!(h.transport.sent.borrow().is_empty());
}

#[test]
fn a_lost_connection_fails_every_pending_request() {
    let mut h = harness();
    let first = h.start("tools/call", CallOptions::default());
    let second = h.start("tools/list", CallOptions::default());
    (h.sink)(Inbound::ConnectionLost(Error::Network { message: "the SSE stream closed".into() }));
    h.pool.run_until_stalled();
    for call in [first, second] {
        assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::Network { .. })));
    }
    assert!(!h.session.is_closed(), "the session decides; the transport only reports");
}

fn problems_of(h: &Harness) -> Rc<RefCell<Vec<Error>>> {
    let seen: Rc<RefCell<Vec<Error>>> = Rc::default();
    let log = seen.clone();
    h.session.set_problem_listener(Some(Rc::new(move |problem| log.borrow_mut().push(problem))));
    seen
}

#[test]
fn a_flood_of_server_requests_is_refused_beyond_the_cap() {
    let (mut h, handler) = with_scripted_handler();
    h.session.set_max_server_requests(2);
    let problems = problems_of(&h);
    for id in 1..=5 {
        h.reply(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"sampling/createMessage","params":{{}}}}"#));
    }
    assert_eq!(handler.answers.borrow().len(), 2, "only two reach the handler");
    let refused: Vec<Value> = h.transport.sent.borrow().iter().map(Message::to_value).collect();
    assert_eq!(refused.iter().map(|m| m["id"].clone()).collect::<Vec<_>>(), [json!(3), json!(4), json!(5)]);
    assert!(refused.iter().all(|m| m["error"]["code"] == json!(-32603)));
    assert_eq!(problems.borrow().len(), 3);
    assert!(problems.borrow().iter().all(|p| matches!(p, Error::LimitExceeded { limit: "maxServerRequests", .. })));
    // Once one is answered there is room again.
    let first = handler.answers.borrow_mut().remove(0);
    let _ = first.send(Ok(json!({"role": "assistant"})));
    h.pool.run_until_stalled();
    h.reply(r#"{"jsonrpc":"2.0","id":6,"method":"sampling/createMessage","params":{}}"#);
    assert_eq!(handler.answers.borrow().len(), 2, "request 6 is handled");
}

/// Answers `sampling/createMessage` when the test says so, heedless of the server withdrawing it.
struct HeedlessHandler {
    answers: RefCell<Vec<oneshot::Sender<Value>>>,
}

impl ClientHandler for HeedlessHandler {
    fn handle(&self, _: &str, _: Option<Value>, _: InboundContext) -> Option<crate::session::handler::HandlerResult> {
        let (tx, rx) = oneshot::channel();
        self.answers.borrow_mut().push(tx);
        Some(Box::pin(async move { Ok(rx.await.unwrap_or(Value::Null)) }))
    }
}

#[test]
fn a_withdrawn_request_holds_its_slot_while_its_handler_runs() {
    let mut h = harness();
    let handler = Rc::new(HeedlessHandler { answers: RefCell::default() });
    h.session.set_handler(Some(handler.clone()));
    h.session.set_max_server_requests(2);
    let problems = problems_of(&h);
    let ask =
        |h: &mut Harness, id: u32| h.reply(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"sampling/createMessage","params":{{}}}}"#));
    ask(&mut h, 1);
    ask(&mut h, 2);
    h.reply(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#);
    ask(&mut h, 3);
    assert_eq!(handler.answers.borrow().len(), 2, "the withdrawn request's handler still runs: no room for a third");
    assert!(matches!(problems.borrow().as_slice(), [Error::LimitExceeded { limit: "maxServerRequests", .. }]));
    let first = handler.answers.borrow_mut().remove(0);
    let _ = first.send(json!({"late": true}));
    h.pool.run_until_stalled();
    let sent: Vec<Value> = h.transport.sent.borrow().iter().map(Message::to_value).collect();
    assert!(sent.iter().all(|m| m["id"] != json!(1)), "nothing is sent for the withdrawn request: {sent:?}");
    ask(&mut h, 4);
    assert_eq!(handler.answers.borrow().len(), 2, "once it ended, request 4 is handled");
}

#[test]
fn an_oversized_message_fails_the_request_it_answers() {
    use crate::protocol::jsonrpc::envelope::scan;
    let mut h = harness();
    let call = h.start("tools/call", CallOptions::default());
    let other = h.start("tools/list", CallOptions::default());
    let problems = problems_of(&h);
    let envelope = scan(br#"{"jsonrpc":"2.0","result":{"x":"..."},"id":1}"#);
    (h.sink)(Inbound::Oversized { envelope, bytes: 300_000_000, limit: 1_000 });
    h.pool.run_until_stalled();
    assert!(matches!(call.borrow().as_ref().unwrap(), Err(Error::LimitExceeded { limit: "maxMessageBytes", .. })));
    assert!(other.borrow().is_none(), "the other request still waits");
    // A request from the server is refused by id; a notification is reported.
    (h.sink)(Inbound::Oversized {
        envelope: scan(br#"{"id":"s1","method":"sampling/createMessage","params":{}}"#),
        bytes: 5_000,
        limit: 1_000,
    });
    (h.sink)(Inbound::Oversized { envelope: scan(br#"{"method":"notifications/message","params":{}}"#), bytes: 5_000, limit: 1_000 });
    h.pool.run_until_stalled();
    let last = h.transport.sent.borrow().last().map(Message::to_value).unwrap();
    assert_eq!((last["id"].clone(), last["error"]["code"].clone()), (json!("s1"), json!(-32600)));
    assert_eq!(problems.borrow().len(), 2);
    h.reply(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#);
    assert!(other.borrow().as_ref().unwrap().is_ok());
}

#[test]
fn the_trace_sees_every_message_in_and_out_in_order() {
    let mut h = harness();
    let seen: Rc<RefCell<Vec<(TraceDirection, Value)>>> = Rc::default();
    let log = seen.clone();
    h.session.set_trace_listener(Some(Rc::new(move |direction: TraceDirection, message: &Message| {
        log.borrow_mut().push((direction, message.to_value()));
    })));
    let call = h.start("tools/list", CallOptions::default());
    h.reply(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}"#);
    h.reply(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    h.reply(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#);
    assert!(call.borrow().is_some());
    let seen = seen.borrow();
    let summary: Vec<(TraceDirection, Value, Value)> = seen
        .iter()
        .map(|(d, m)| (*d, m.get("method").cloned().unwrap_or(Value::Null), m.get("id").cloned().unwrap_or(Value::Null)))
        .collect();
    assert_eq!(
        summary,
        [
            (TraceDirection::Out, json!("tools/list"), json!(1)),
            (TraceDirection::In, json!("notifications/message"), Value::Null),
            (TraceDirection::In, json!("ping"), json!("p")),
            (TraceDirection::Out, Value::Null, json!("p")),
            (TraceDirection::In, Value::Null, json!(1)),
        ]
    );
    assert_eq!(seen[4].1["result"], json!({"tools": []}));
}

#[test]
fn clearing_the_trace_stops_it() {
    let mut h = harness();
    let count = Rc::new(RefCell::new(0));
    let counter = count.clone();
    h.session.set_trace_listener(Some(Rc::new(move |_: TraceDirection, _: &Message| *counter.borrow_mut() += 1)));
    let _first = h.start("tools/list", CallOptions::default());
    h.session.set_trace_listener(None);
    let _second = h.start("prompts/list", CallOptions::default());
    h.reply(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    assert_eq!(*count.borrow(), 1);
    assert_eq!(h.sent_methods(), ["tools/list", "prompts/list"]);
}

#[test]
fn a_result_the_client_reads_for_itself_is_bounded_in_values_and_the_session_goes_on() {
    let mut h = harness();
    let dense = h.start("initialize", CallOptions::default());
    let zeros = vec!["0"; crate::protocol::json::MAX_VALUES].join(",");
    let raw = format!(r#"{{"protocolVersion":"2025-11-25","zeros":[{zeros}]}}"#);
    (h.sink)(Inbound::RawResponse { id: RequestId::Number(1), text: Rc::new(raw.clone()), kept: None });
    h.pool.run_until_stalled();
    let error = dense.borrow_mut().take();
    assert!(matches!(&error, Some(Err(Error::LimitExceeded { limit: "message values", .. }))), "{error:?}");
    let next = h.start("ping", CallOptions::default());
    h.reply(r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
    assert_eq!(next.borrow().as_ref().unwrap().as_ref().unwrap(), &json!({}), "the session goes on");
    let whole = LargeResult { text: Rc::new(raw), kept: None }.parse_whole().map(|v| v["zeros"].as_array().map(Vec::len));
    assert_eq!(whole, Ok(Some(crate::protocol::json::MAX_VALUES)), "a consumer's own read of it is whole");
}
