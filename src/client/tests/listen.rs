//! `subscriptions/listen` (2026-07-28): the filter, reconnection with
//! backoff, stopping, and the acknowledgements subscriptions wait for.

use crate::client::testing::{connected, never_acknowledging, notification, Answer, Seen, World};
use crate::client::{Client, ClientEvent, ClientOptions, EraChoice, RequestOptions};
use crate::error::Error;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

fn modern(script: impl Fn(&Seen) -> Option<Answer> + 'static, capabilities: Value) -> (World, Client) {
    connected(script, capabilities, ClientOptions::default().era(EraChoice::Modern))
}

/// Answers the listen requests with `answers` in turn, then holds them open.
fn listen_answers(answers: Vec<fn() -> Answer>) -> impl Fn(&Seen) -> Option<Answer> {
    let answers = RefCell::new(VecDeque::from(answers));
    move |s| (s.method() == "subscriptions/listen").then(|| answers.borrow_mut().pop_front().map_or(Answer::Hold, |answer| answer()))
}

/// Acknowledges the stream, then holds it open.
fn acknowledged() -> Answer {
    Answer::After(vec![notification("notifications/subscriptions/acknowledged")], Box::new(Answer::Hold))
}

fn filter(w: &World) -> Value {
    w.server.last("subscriptions/listen").unwrap().params()["notifications"].clone()
}

fn listens(w: &World) -> usize {
    w.server.count("subscriptions/listen")
}

fn subscribe(
    w: &mut World,
    client: &Client,
    uri: &'static str,
    options: RequestOptions,
) -> crate::client::testing::Pending<Result<(), Error>> {
    let c = client.clone();
    w.start(async move { c.subscribe_resource(uri, &options).await })
}

fn unsubscribe(w: &mut World, client: &Client, uri: &'static str) -> crate::client::testing::Pending<Result<(), Error>> {
    let c = client.clone();
    w.start(async move { c.unsubscribe_resource(uri, &RequestOptions::default()).await })
}

#[test]
fn the_filter_asks_for_every_list_change_the_server_declares_and_carries_meta() {
    let capabilities = json!({"tools": {"listChanged": true}, "prompts": {"listChanged": true}, "resources": {"listChanged": false}});
    let (w, _client) = modern(|_| None, capabilities);
    assert_eq!(filter(&w), json!({"toolsListChanged": true, "promptsListChanged": true}));
    let params = w.server.last("subscriptions/listen").unwrap().params();
    assert_eq!(params["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
}

#[test]
fn with_nothing_to_listen_for_no_stream_opens_until_a_subscription() {
    let (mut w, client) = modern(listen_answers(vec![acknowledged]), json!({"resources": {"subscribe": true}}));
    assert_eq!(listens(&w), 0);
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    assert!(matches!(done.borrow_mut().take(), Some(Ok(()))));
    assert_eq!(filter(&w), json!({"resourceSubscriptions": ["file:///a"]}));
}

#[test]
fn a_dropped_stream_is_reconnected_with_growing_delays() {
    let (mut w, _client) = modern(listen_answers(vec![|| Answer::Network, || Answer::Network]), json!({"tools": {"listChanged": true}}));
    // The delays are 1 000 ms then 1 500 ms, plus the jitter the manual clock's random 0.5 gives.
    for (delay, expected) in [(1_050, 2), (1_575, 3)] {
        w.advance(delay - 1);
        assert_eq!(listens(&w), expected - 1);
        w.advance(1);
        assert_eq!(listens(&w), expected);
    }
    w.advance(60_000);
    assert_eq!(listens(&w), 3, "the third stream stays open");
}

#[test]
fn a_graceful_end_starts_the_backoff_over_only_after_an_acknowledgement() {
    let ended = || Answer::Result(json!({}));
    let acknowledged_then_ended =
        || Answer::After(vec![notification("notifications/subscriptions/acknowledged")], Box::new(Answer::Result(json!({}))));
    let (mut w, _client) = modern(
        listen_answers(vec![|| Answer::Network, || Answer::Network, acknowledged_then_ended, ended, ended]),
        json!({"tools": {"listChanged": true}}),
    );
    w.advance(1_050);
    w.advance(1_575);
    assert_eq!(listens(&w), 3);
    w.advance(1_050);
    assert_eq!(listens(&w), 4, "after an acknowledged stream ends, the first delay applies again");
    // 1 500 ms then 2 250 ms, plus 5 % jitter: a server that ends its streams unacknowledged is asked ever less often.
    w.advance(1_574);
    assert_eq!(listens(&w), 4);
    w.advance(1);
    assert_eq!(listens(&w), 5);
    w.advance(2_361);
    assert_eq!(listens(&w), 5);
    w.advance(1);
    assert_eq!(listens(&w), 6);
}

#[test]
fn closing_ends_the_open_stream_for_good() {
    let (mut w, client) = modern(|_| None, json!({"tools": {"listChanged": true}}));
    assert_eq!(listens(&w), 1);
    w.run(async move { client.close().await });
    w.advance(120_000);
    assert_eq!(listens(&w), 1);
    assert_eq!(w.runtime.pending_timers(), 0);
}

#[test]
fn a_client_its_owners_let_go_of_ends_its_stream_and_releases_the_transport() {
    let (mut w, client) = modern(|_| None, json!({"tools": {"listChanged": true}}));
    assert_eq!(listens(&w), 1);
    let state = std::rc::Rc::downgrade(&client.state);
    let before = std::rc::Rc::strong_count(&w.server);
    drop(client);
    w.settle();
    assert!(state.upgrade().is_none(), "the open stream does not keep the client");
    assert!(std::rc::Rc::strong_count(&w.server) < before, "the transport is dropped");
    w.advance(120_000);
    assert_eq!(listens(&w), 1, "and the stream is not opened again");
    assert_eq!(w.runtime.pending_timers(), 0);
}

#[test]
fn a_subscription_waits_for_the_acknowledgement_of_the_new_stream() {
    let (mut w, client) = modern(listen_answers(vec![acknowledged]), json!({"resources": {"subscribe": true, "listChanged": true}}));
    let first = w.server.last("subscriptions/listen").unwrap().id().unwrap();
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    assert!(done.borrow().is_none());
    assert_eq!(listens(&w), 2);
    let cancelled = w.server.last("notifications/cancelled").unwrap().params();
    assert_eq!(cancelled["requestId"], first.to_value(), "the old stream is ended");
    w.server.push(notification("notifications/subscriptions/acknowledged"));
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Ok(()))));
}

#[test]
fn a_subscription_never_acknowledged_times_out() {
    let (mut w, client) = modern(listen_answers(vec![]), json!({"resources": {"subscribe": true}}));
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default().timeout(2_000));
    w.advance(1_999);
    assert!(done.borrow().is_none());
    w.advance(1);
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Timeout { ms: 2_000 }))));
}

#[test]
fn closing_the_client_fails_a_subscription_waiting_for_its_acknowledgement() {
    let (mut w, client) = modern(listen_answers(vec![]), json!({"resources": {"subscribe": true}}));
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    assert!(done.borrow().is_none());
    w.run(async move { client.close().await });
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Closed))), "at once, not at the timeout");
}

#[test]
fn waiters_that_timed_out_are_not_kept_for_an_acknowledgement_that_never_comes() {
    let (mut w, client) = modern(listen_answers(vec![]), json!({"resources": {"subscribe": true}}));
    for n in 0..50 {
        let uri: &'static str = Box::leak(format!("file:///{n}").into_boxed_str());
        let done = subscribe(&mut w, &client, uri, RequestOptions::default().timeout(100));
        w.advance(100);
        assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Timeout { ms: 100 }))), "subscription {n}");
    }
    let kept = client.state.listening.acks.borrow().len();
    assert!(kept <= 2, "{kept} waiters kept after 50 subscriptions that each gave up");
}

#[test]
fn subscribing_again_or_unsubscribing_what_was_not_subscribed_reopens_nothing() {
    let (mut w, client) =
        modern(listen_answers(vec![acknowledged, acknowledged]), json!({"resources": {"subscribe": true, "listChanged": true}}));
    subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    assert_eq!(listens(&w), 2);
    assert!(matches!(subscribe(&mut w, &client, "file:///a", RequestOptions::default()).borrow_mut().take(), Some(Ok(()))));
    let c = client.clone();
    w.run(async move { c.unsubscribe_resource("file:///never", &RequestOptions::default()).await }).unwrap();
    assert_eq!(listens(&w), 2);
}

#[test]
fn the_legacy_era_never_listens() {
    let capabilities = json!({"tools": {"listChanged": true}, "resources": {"subscribe": true}});
    let (mut w, client) = connected(|_| None, capabilities, ClientOptions::default().era(EraChoice::Legacy));
    w.run(async move { client.subscribe_resource("file:///a", &RequestOptions::default()).await }).unwrap();
    assert_eq!(listens(&w), 0);
    assert_eq!(w.server.count("resources/subscribe"), 1);
}

#[test]
fn connecting_waits_for_the_acknowledgement_of_the_first_stream() {
    let mut w = never_acknowledging();
    let options = ClientOptions::default().era(EraChoice::Modern).timeout(5_000);
    let connector = w.connector();
    let runtime = w.runtime.clone();
    let done = w.start(async move { Client::connect_with(connector, runtime, options).await.map(drop) });
    assert_eq!(listens(&w), 1);
    assert!(done.borrow().is_none(), "not before the server acknowledged the stream");
    w.server.push(notification("notifications/subscriptions/acknowledged"));
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Ok(()))));
}

#[test]
fn connecting_does_not_fail_on_a_stream_refused_or_never_acknowledged() {
    // Refused: connect goes on at once, and the stream is tried again after a backoff.
    let (mut w, client) = modern(listen_answers(vec![|| Answer::error(-32603, "Internal error")]), json!({"tools": {"listChanged": true}}));
    assert!(!client.is_closed());
    w.advance(1_050);
    assert_eq!(listens(&w), 2);
    // Never acknowledged: connect goes on once its timeout has passed.
    let mut w = never_acknowledging();
    let options = ClientOptions::default().era(EraChoice::Modern).timeout(5_000);
    let (connector, runtime) = (w.connector(), w.runtime.clone());
    let done = w.start(async move { Client::connect_with(connector, runtime, options).await.map(drop) });
    w.advance(4_999);
    assert!(done.borrow().is_none());
    w.advance(1);
    assert!(matches!(done.borrow_mut().take(), Some(Ok(()))));
}

#[test]
fn a_subscription_whose_stream_is_refused_fails_with_the_refusal() {
    let (mut w, client) = modern(listen_answers(vec![|| Answer::error(-32602, "bad filter")]), json!({"resources": {"subscribe": true}}));
    let events = connection_events(&client);
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Rpc(e))) if e.code == -32602));
    assert!(events.borrow().is_empty(), "the call that waited reports it, not an error event as well: {:?}", events.borrow());
}

#[test]
fn a_connect_cancelled_while_it_waits_for_the_acknowledgement_fails_and_ends_the_stream() {
    let mut w = never_acknowledging();
    let token = crate::client::CancelToken::new();
    let options = ClientOptions { cancel: Some(token.source()), ..ClientOptions::default().era(EraChoice::Modern) };
    let (connector, runtime) = (w.connector(), w.runtime.clone());
    let done = w.start(async move { Client::connect_with(connector, runtime, options).await.map(drop) });
    assert_eq!(listens(&w), 1);
    assert!(done.borrow().is_none());
    token.cancel("the user left");
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Cancelled { reason })) if reason == "the user left"));
    w.advance(120_000);
    assert_eq!(listens(&w), 1, "the stream is not opened again");
    assert_eq!(w.runtime.pending_timers(), 0, "and no timer is left");
}

/// The connection events `client` reports from now on: `reconnecting` as its
/// attempt and delay, `reconnected`, and problems as their kind.
fn connection_events(client: &Client) -> Rc<RefCell<Vec<String>>> {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    client.on_event(move |event| match event {
        ClientEvent::Reconnecting { attempt, delay_ms } => log.borrow_mut().push(format!("reconnecting {attempt} {delay_ms}")),
        ClientEvent::Reconnected => log.borrow_mut().push("reconnected".into()),
        ClientEvent::Problem(error) => log.borrow_mut().push(format!("problem {}", error.kind())),
        _ => {}
    });
    seen
}

fn stream_id(w: &World) -> crate::protocol::jsonrpc::RequestId {
    w.server.last("subscriptions/listen").unwrap().id().unwrap()
}

#[test]
fn a_stream_that_drops_is_reported_reconnecting_then_reconnected_as_the_legacy_get_stream_is() {
    let (mut w, client) = modern(listen_answers(vec![acknowledged, acknowledged]), json!({"tools": {"listChanged": true}}));
    let events = connection_events(&client);
    w.server.respond(&stream_id(&w), json!({}));
    w.settle();
    assert_eq!(*events.borrow(), ["reconnecting 1 1050"]);
    w.advance(1_050);
    assert_eq!(listens(&w), 2);
    assert_eq!(*events.borrow(), ["reconnecting 1 1050", "reconnected"]);
}

#[test]
fn an_acknowledged_stream_that_fails_starts_the_backoff_over() {
    let (mut w, client) = modern(listen_answers(vec![|| Answer::Network, acknowledged]), json!({"tools": {"listChanged": true}}));
    let events = connection_events(&client);
    w.advance(1_050);
    assert_eq!(listens(&w), 2);
    w.server.refuse(&stream_id(&w), -32603, "Internal error");
    w.settle();
    // The stream opened in connect failed once (attempt 1); the acknowledged one's failure is attempt 1 again.
    assert_eq!(*events.borrow(), ["reconnected", "reconnecting 1 1050"]);
    w.advance(1_050);
    assert_eq!(listens(&w), 3);
    w.server.refuse(&stream_id(&w), -32603, "Internal error");
    w.settle();
    assert_eq!(events.borrow().last().unwrap(), "reconnecting 2 1575", "a stream never acknowledged keeps the backoff growing");
}

#[test]
fn a_stream_refused_as_unknown_or_invalid_is_a_problem_and_not_tried_again_until_the_subscriptions_change() {
    for code in [-32601, -32602] {
        let (mut w, client) =
            modern(listen_answers(vec![acknowledged]), json!({"tools": {"listChanged": true}, "resources": {"subscribe": true}}));
        let events = connection_events(&client);
        w.server.refuse(&stream_id(&w), code, "no");
        w.settle();
        assert_eq!(*events.borrow(), ["problem rpc"]);
        w.advance(120_000);
        assert_eq!(listens(&w), 1, "{code} would only come again");
        assert_eq!(w.runtime.pending_timers(), 0);
        let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
        assert_eq!(listens(&w), 2, "a new filter is asked for");
        assert!(done.borrow().is_none());
    }
}

#[test]
fn a_stream_refused_while_connecting_is_a_problem_heard_after_connect_returns() {
    // connect() waits for the first stream's acknowledgement; a refusal ends that wait before
    // anyone could listen for events, so it is reported once connect has returned.
    let (mut w, client) =
        modern(listen_answers(vec![|| Answer::error(-32601, "Method not found")]), json!({"tools": {"listChanged": true}}));
    let events = connection_events(&client);
    w.advance(1);
    assert_eq!(*events.borrow(), ["problem rpc"]);
    w.advance(120_000);
    assert_eq!(*events.borrow(), ["problem rpc"], "reported once");
    assert_eq!(listens(&w), 1);
}

#[test]
fn a_stream_acknowledged_while_connecting_reports_nothing() {
    let (mut w, client) = modern(listen_answers(vec![acknowledged]), json!({"tools": {"listChanged": true}}));
    let events = connection_events(&client);
    w.advance(1_000);
    assert!(events.borrow().is_empty(), "{:?}", events.borrow());
}

#[test]
fn a_refusal_a_subscription_waited_for_is_its_error_and_no_problem() {
    let (mut w, client) =
        modern(listen_answers(vec![|| Answer::error(-32601, "Method not found")]), json!({"resources": {"subscribe": true}}));
    let events = connection_events(&client);
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    w.advance(1);
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Rpc(refusal))) if refusal.code == -32601));
    assert!(events.borrow().is_empty(), "{:?}", events.borrow());
}

#[test]
fn a_subscription_never_acknowledged_is_asked_for_again_by_the_next_try() {
    let (mut w, client) = modern(listen_answers(vec![]), json!({"resources": {"subscribe": true}}));
    let timeout = || RequestOptions { timeout_ms: Some(1_000), ..RequestOptions::default() };
    let first = subscribe(&mut w, &client, "file:///a", timeout());
    w.advance(1_000);
    assert!(matches!(first.borrow_mut().take(), Some(Err(Error::Timeout { .. }))));
    let again = subscribe(&mut w, &client, "file:///a", timeout());
    w.settle();
    assert!(again.borrow().is_none(), "it waits for an acknowledgement again, rather than count the first try as done");
    assert_eq!(listens(&w), 2);
    w.advance(1_000);
    assert!(matches!(again.borrow_mut().take(), Some(Err(Error::Timeout { .. }))));
}

#[test]
fn an_unsubscription_never_acknowledged_puts_the_stream_back_as_it_was() {
    let capabilities = json!({"resources": {"subscribe": true}, "tools": {"listChanged": true}});
    let (mut w, client) = modern(listen_answers(vec![acknowledged, acknowledged, || Answer::Hold, acknowledged]), capabilities);
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    assert!(matches!(done.borrow_mut().take(), Some(Ok(()))));
    let c = client.clone();
    let options = RequestOptions { timeout_ms: Some(1_000), ..RequestOptions::default() };
    let left = w.start(async move { c.unsubscribe_resource("file:///a", &options).await });
    w.advance(1_000);
    assert!(matches!(left.borrow_mut().take(), Some(Err(Error::Timeout { .. }))));
    assert_eq!(listens(&w), 4, "the stream opens again with the subscription the server still has");
    assert_eq!(filter(&w), json!({"toolsListChanged": true, "resourceSubscriptions": ["file:///a"]}));
}

/// An acknowledgement that names what the server granted of the filter.
fn granted(notifications: Value) -> Value {
    let mut ack = notification("notifications/subscriptions/acknowledged");
    ack["params"] = json!({ "notifications": notifications });
    ack
}

/// A server that grants less than asked: its acknowledgement names what it
/// granted (`notifications`), without the resource. The subscription fails,
/// and the set and the stream go back to what they were.
#[test]
fn a_subscription_the_acknowledgement_does_not_grant_fails_and_is_undone() {
    let (mut w, client) = modern(listen_answers(vec![acknowledged]), json!({"resources": {"subscribe": true, "listChanged": true}}));
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    w.server.push(granted(json!({"resourcesListChanged": true})));
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Unsupported(what))) if what == "a subscription to \"file:///a\""));
    assert_eq!(filter(&w), json!({"resourcesListChanged": true}), "the stream asks again without it");
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    w.server.push(granted(json!({"resourcesListChanged": true, "resourceSubscriptions": ["file:///a"]})));
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Ok(()))));
}

/// A subscription that a later call took back before the acknowledgement
/// came is not judged by it: the stream no longer asks for the resource. An
/// acknowledgement whose `notifications` is not an object names nothing.
#[test]
fn an_acknowledgement_judges_only_what_the_stream_still_asks_for() {
    let (mut w, client) = modern(listen_answers(vec![acknowledged]), json!({"resources": {"subscribe": true, "listChanged": true}}));
    let subscribed = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    let unsubscribed = unsubscribe(&mut w, &client, "file:///a");
    w.server.push(granted(json!({"resourcesListChanged": true})));
    w.settle();
    assert!(matches!(subscribed.borrow_mut().take(), Some(Ok(()))));
    assert!(matches!(unsubscribed.borrow_mut().take(), Some(Ok(()))));
    let done = subscribe(&mut w, &client, "file:///b", RequestOptions::default());
    w.server.push(granted(Value::Null));
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Ok(()))));
}

/// [`granted`], naming the stream it acknowledges, as servers do.
fn granted_on(stream: &crate::protocol::jsonrpc::RequestId, notifications: Value) -> Value {
    let mut ack = granted(notifications);
    ack["params"]["_meta"] = json!({ "io.modelcontextprotocol/subscriptionId": stream.to_value() });
    ack
}

/// Two subscriptions in a row: the first one's stream ends when the second
/// opens, and its acknowledgement, still on the way, grants only the first
/// resource. It answers for no stream of the client's; the second stream's does.
#[test]
fn the_acknowledgement_of_a_stream_already_ended_answers_nothing() {
    let (mut w, client) = modern(listen_answers(vec![]), json!({"resources": {"subscribe": true}}));
    let first = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    let ended = stream_id(&w);
    let second = subscribe(&mut w, &client, "file:///b", RequestOptions::default());
    assert_ne!(stream_id(&w), ended);
    w.server.push(granted_on(&ended, json!({"resourceSubscriptions": ["file:///a"]})));
    w.settle();
    assert!(first.borrow().is_none() && second.borrow().is_none(), "both still wait for the current stream's acknowledgement");
    w.server.push(granted_on(&stream_id(&w), json!({"resourceSubscriptions": ["file:///a", "file:///b"]})));
    w.settle();
    assert!(matches!(first.borrow_mut().take(), Some(Ok(()))));
    assert!(matches!(second.borrow_mut().take(), Some(Ok(()))));
}

/// A stream that drops and is granted less when it comes back: the
/// subscription it left out is given up, with a problem event, and
/// subscribing again asks for it on a new stream.
#[test]
fn a_reconnection_granted_less_gives_up_the_subscription_it_left_out_with_a_problem() {
    let (mut w, client) = modern(listen_answers(vec![acknowledged]), json!({"resources": {"subscribe": true, "listChanged": true}}));
    let done = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    let both = json!({"resourcesListChanged": true, "resourceSubscriptions": ["file:///a"]});
    w.server.push(granted_on(&stream_id(&w), both.clone()));
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Ok(()))));
    let events = connection_events(&client);
    w.server.respond(&stream_id(&w), json!({}));
    w.advance(1_050);
    assert_eq!(filter(&w), both, "the stream comes back asking for the subscription");
    w.server.push(granted_on(&stream_id(&w), json!({"resourcesListChanged": true})));
    w.settle();
    assert_eq!(*events.borrow(), ["reconnecting 1 1050", "reconnected", "problem unsupported"]);
    assert_eq!(client.state.subscriptions.borrow().len(), 0);
    w.server.respond(&stream_id(&w), json!({}));
    w.advance(1_050);
    assert_eq!(filter(&w), json!({"resourcesListChanged": true}), "the next reconnection no longer asks for it");
    let listened = listens(&w);
    let again = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    assert_eq!(listens(&w), listened + 1, "subscribing again opens a stream that asks for it");
    w.server.push(granted_on(&stream_id(&w), both));
    w.settle();
    assert!(matches!(again.borrow_mut().take(), Some(Ok(()))));
}

/// A second subscription to a resource whose first still waits for its
/// acknowledgement has the first one's outcome, not an early success.
#[test]
fn a_subscription_joining_one_that_waits_has_its_outcome() {
    let (mut w, client) = modern(listen_answers(vec![acknowledged]), json!({"resources": {"subscribe": true, "listChanged": true}}));
    let first = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    let listened = listens(&w);
    let second = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    assert_eq!(listens(&w), listened, "the second opens no stream of its own");
    assert!(second.borrow().is_none(), "nor resolves before the server acknowledged the first");
    w.server.push(granted_on(&stream_id(&w), json!({"resourcesListChanged": true})));
    w.settle();
    for outcome in [first, second] {
        assert!(matches!(outcome.borrow_mut().take(), Some(Err(Error::Unsupported(what))) if what == "a subscription to \"file:///a\""));
    }
    let first = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    let second = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    w.server.push(granted_on(&stream_id(&w), json!({"resourceSubscriptions": ["file:///a"]})));
    w.settle();
    assert!(matches!(first.borrow_mut().take(), Some(Ok(()))));
    assert!(matches!(second.borrow_mut().take(), Some(Ok(()))));
    let third = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    assert!(matches!(third.borrow_mut().take(), Some(Ok(()))), "once granted, subscribing again resolves at once");
}

/// A call that joins a subscription waits no longer than its own timeout.
#[test]
fn a_subscription_joining_one_that_waits_times_out_on_its_own() {
    let (mut w, client) = modern(listen_answers(vec![]), json!({"resources": {"subscribe": true}}));
    let first = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    let second = subscribe(&mut w, &client, "file:///a", RequestOptions { timeout_ms: Some(100), ..RequestOptions::default() });
    w.advance(100);
    assert!(matches!(second.borrow_mut().take(), Some(Err(Error::Timeout { ms: 100 }))));
    assert!(first.borrow().is_none());
    w.server.push(granted_on(&stream_id(&w), json!({"resourceSubscriptions": ["file:///a"]})));
    w.settle();
    assert!(matches!(first.borrow_mut().take(), Some(Ok(()))));
}

/// The acknowledgement of the stream a subscription ends can arrive after
/// the subscription restarted the stream and before the new stream's request
/// starts: it is not the new stream's either.
#[test]
fn an_acknowledgement_between_a_restart_and_the_new_request_is_not_the_new_streams() {
    let (mut w, client) = modern(listen_answers(vec![]), json!({"resources": {"subscribe": true}}));
    let first = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    let ack = granted_on(&stream_id(&w), json!({"resourceSubscriptions": ["file:///a"]}));
    let (c, server) = (client.clone(), w.server.clone());
    let second = w.start(async move {
        let options = RequestOptions::default();
        let mut subscribing = Box::pin(c.subscribe_resource("file:///b", &options));
        assert!(futures::poll!(subscribing.as_mut()).is_pending());
        server.push(ack);
        subscribing.await
    });
    w.settle();
    assert!(first.borrow().is_none() && second.borrow().is_none());
    w.server.push(granted_on(&stream_id(&w), json!({"resourceSubscriptions": ["file:///a", "file:///b"]})));
    w.settle();
    assert!(matches!(first.borrow_mut().take(), Some(Ok(()))));
    assert!(matches!(second.borrow_mut().take(), Some(Ok(()))));
}

/// Subscribe, unsubscribe, subscribe again, all waiting: the first call
/// timing out neither undoes the third one's subscription nor takes its
/// mark, so the third is judged by the acknowledgement and joinable.
#[test]
fn a_subscription_timing_out_does_not_undo_a_later_one_to_the_same_resource() {
    let (mut w, client) = modern(listen_answers(vec![]), json!({"resources": {"subscribe": true}}));
    let first = subscribe(&mut w, &client, "file:///a", RequestOptions::default().timeout(1_000));
    let unsubscribed = unsubscribe(&mut w, &client, "file:///a");
    let third = subscribe(&mut w, &client, "file:///a", RequestOptions::default().timeout(10_000));
    w.advance(1_000);
    assert!(matches!(first.borrow_mut().take(), Some(Err(Error::Timeout { ms: 1_000 }))));
    assert_eq!(*client.state.subscriptions.borrow(), ["file:///a"], "the third call's subscription stays");
    let joined = subscribe(&mut w, &client, "file:///a", RequestOptions::default());
    w.server.push(granted_on(&stream_id(&w), json!({"resourceSubscriptions": []})));
    w.settle();
    assert!(matches!(unsubscribed.borrow_mut().take(), Some(Ok(()))));
    for outcome in [third, joined] {
        assert!(matches!(outcome.borrow_mut().take(), Some(Err(Error::Unsupported(_)))), "judged by the acknowledgement");
    }
    assert!(client.state.subscriptions.borrow().is_empty());
}
