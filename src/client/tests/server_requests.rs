//! What the server asks of the client: legacy server requests and the
//! 2026-07-28 input rounds, answered by the same handlers, within bounds.

use crate::client::testing::{legacy_peer, modern_peer, text_result, Answer, FnValidator, Seen, World};
use crate::client::{Client, ClientEvent, ClientOptions, EraChoice, Handlers, RequestOptions};
use crate::error::Error;
use crate::protocol::types::{CallToolParams, CreateMessageResult, ElicitResult, Root};
use futures::FutureExt;
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

fn sampling_request(id: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "sampling/createMessage", "params": {
        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10,
    }})
}

fn handlers() -> Handlers {
    Handlers::default()
        .sampling(|params, _| async move { Ok(CreateMessageResult::text("test-model", format!("{} message(s)", params.messages.len()))) })
        .elicitation(|_, _| async {
            let mut content = Map::new();
            content.insert("name".into(), json!("Ada"));
            Ok(ElicitResult::accept(content))
        })
        .roots(|_| async { Ok(vec![Root::new("file:///work", "work")]) })
}

/// A legacy server that, on `tools/call`, first sends `requests`.
fn legacy_asking(requests: Vec<Value>, options: ClientOptions) -> (World, Client) {
    let mut w = World::new(move |s: &Seen| match s.method() {
        "tools/call" => Answer::After(requests.clone(), Box::new(Answer::Result(text_result("ok")))),
        _ => legacy_peer(s, &json!({"tools": {}})),
    });
    let client = w.connect(options.era(EraChoice::Legacy)).unwrap();
    (w, client)
}

fn call(w: &mut World, client: &Client) -> Result<crate::protocol::types::CallToolResult, Error> {
    let c = client.clone();
    w.run(async move { c.call_tool(CallToolParams::new("t"), &RequestOptions::default()).await })
}

fn response(w: &World, id: &str) -> Value {
    w.server.responses().into_iter().find(|r| r["id"] == id).unwrap_or(Value::Null)
}

#[test]
fn legacy_server_requests_are_answered_by_the_handlers() {
    let requests = vec![
        sampling_request("s1"),
        json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create", "params": {"message": "name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}}),
        json!({"jsonrpc": "2.0", "id": "r1", "method": "roots/list"}),
        json!({"jsonrpc": "2.0", "id": "p1", "method": "ping"}),
    ];
    let (mut w, client) = legacy_asking(requests, ClientOptions::default().handlers(handlers()));
    call(&mut w, &client).unwrap();
    assert_eq!(response(&w, "s1")["result"]["model"], "test-model");
    assert_eq!(response(&w, "s1")["result"]["content"]["text"], "1 message(s)");
    assert_eq!(response(&w, "e1")["result"], json!({"action": "accept", "content": {"name": "Ada"}}));
    assert_eq!(response(&w, "r1")["result"], json!({"roots": [{"uri": "file:///work", "name": "work"}]}));
    assert_eq!(response(&w, "p1")["result"], json!({}));
}

/// A Rust handler may answer with several blocks (2025-11-25), a tool use
/// among them: they go out as an array, as the handler gave them.
#[test]
fn a_sampling_answer_of_several_blocks_goes_out_as_an_array() {
    use crate::protocol::types::Content;
    let blocks = Handlers::default().sampling(|_, _| async {
        let tool_use = Content::Other(json!({"type": "tool_use", "id": "u1", "name": "get-sum", "input": {"a": 1}}));
        Ok(CreateMessageResult {
            stop_reason: Some("toolUse".into()),
            ..CreateMessageResult::new("m", vec![Content::text("adding"), tool_use])
        })
    });
    let (mut w, client) = legacy_asking(vec![sampling_request("s1")], ClientOptions::default().handlers(blocks));
    call(&mut w, &client).unwrap();
    let result = &response(&w, "s1")["result"];
    assert_eq!(
        result["content"],
        json!([{"type": "text", "text": "adding"}, {"type": "tool_use", "id": "u1", "name": "get-sum", "input": {"a": 1}}])
    );
    assert_eq!(result["stopReason"], "toolUse");
    let read: CreateMessageResult = serde_json::from_value(result.clone()).unwrap();
    assert_eq!((read.content.blocks().len(), read.content.blocks()[0].as_text()), (2, Some("adding")));
}

#[test]
fn a_request_without_a_handler_is_method_not_found() {
    let (mut w, client) = legacy_asking(vec![sampling_request("s1")], ClientOptions::default());
    call(&mut w, &client).unwrap();
    assert_eq!(response(&w, "s1")["error"]["code"], -32601);
}

#[test]
fn a_wrong_answer_is_refused_and_reported() {
    let bad = Handlers::default().sampling_json(Rc::new(|_, _| async { Ok(json!({"role": "assistant"})) }.boxed_local()));
    let (mut w, client) = legacy_asking(vec![sampling_request("s1")], ClientOptions::default().handlers(bad));
    let problems = Rc::new(RefCell::new(Vec::new()));
    let log = problems.clone();
    client.on_event(move |event| {
        if let ClientEvent::Problem(error) = event {
            log.borrow_mut().push(error.kind());
        }
    });
    call(&mut w, &client).unwrap();
    assert_eq!(response(&w, "s1")["error"]["code"], -32603);
    assert_eq!(*problems.borrow(), ["invalid-result"]);
}

#[test]
fn an_elicitation_answer_is_checked_against_the_requested_schema() {
    let request = json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create", "params": {"message": "age?",
        "requestedSchema": {"type": "object", "properties": {"age": {"type": "integer"}}, "required": ["age"]}}});
    let (mut w, client) = legacy_asking(vec![request], ClientOptions::default().handlers(handlers()));
    call(&mut w, &client).unwrap();
    assert_eq!(response(&w, "e1")["error"]["code"], -32602);
}

/// As for tool output, a validator from the options checks a form answer in
/// place of the built-in one (in any build): it is asked once, and its verdict
/// stands; defaults and `required` are still the client's.
#[test]
fn a_validator_from_the_options_checks_a_form_answer_in_place_of_the_built_in_one() {
    let request = json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create", "params": {"message": "name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "integer"}, "age": {"type": "integer", "default": 7}}}}});
    let asked = Rc::new(RefCell::new(0));
    let counter = asked.clone();
    let accept_all = FnValidator(move |_: &Value, _: &Value| {
        *counter.borrow_mut() += 1;
        Ok(())
    });
    let options = ClientOptions { validator: Some(Rc::new(accept_all)), ..ClientOptions::default() }.handlers(handlers());
    let (mut w, client) = legacy_asking(vec![request], options);
    call(&mut w, &client).unwrap();
    assert_eq!(response(&w, "e1")["result"], json!({"action": "accept", "content": {"name": "Ada", "age": 7}}));
    assert_eq!(*asked.borrow(), 1);
}

#[test]
fn a_flood_of_server_requests_is_answered_with_errors_beyond_the_cap() {
    let never = Handlers::default().sampling_json(Rc::new(|_, _| futures::future::pending().boxed_local()));
    let requests: Vec<Value> = (0..20).map(|i| sampling_request(&format!("s{i}"))).collect();
    let (mut w, client) = legacy_asking(requests, ClientOptions::default().handlers(never));
    call(&mut w, &client).unwrap();
    let refused: Vec<Value> = w.server.responses().into_iter().filter(|r| r.get("error").is_some()).collect();
    assert_eq!(refused.len(), 4, "{refused:?}");
    assert!(client.session_id().is_some(), "the client stays usable");
    assert!(call(&mut w, &client).is_ok());
}

/// A modern server whose `tools/call` asks for `inputs` until it is given answers.
fn modern_asking(inputs: Value, options: ClientOptions) -> (World, Client) {
    let mut w = World::new(move |s: &Seen| match s.method() {
        "tools/call" if s.params().get("inputResponses").is_none() => {
            Answer::Result(json!({"resultType": "input_required", "inputRequests": inputs, "requestState": "opaque-1"}))
        }
        "tools/call" => Answer::Result(text_result("thanks")),
        _ => modern_peer(s, &json!({"tools": {}})),
    });
    let client = w.connect(options).unwrap();
    (w, client)
}

#[cfg(feature = "modern")]
#[test]
fn modern_input_rounds_use_the_same_handlers_and_echo_the_state() {
    let inputs = json!({
        "who": {"method": "elicitation/create", "params": {"message": "name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}},
        "llm": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}},
    });
    let (mut w, client) = modern_asking(inputs, ClientOptions::default().handlers(handlers()));
    assert_eq!(call(&mut w, &client).unwrap().text(), "thanks");
    let retry = w.server.last("tools/call").unwrap().params();
    assert_eq!(retry["requestState"], "opaque-1");
    assert_eq!(retry["inputResponses"]["who"]["content"]["name"], "Ada");
    assert_eq!(retry["inputResponses"]["llm"]["model"], "test-model");
    assert_eq!(retry["name"], "t");
    assert_eq!(w.server.count("tools/call"), 2);
}

#[cfg(feature = "modern")]
#[test]
fn input_without_a_handler_is_a_missing_capability() {
    let inputs = json!({"llm": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}});
    let (mut w, client) = modern_asking(inputs, ClientOptions::default());
    assert!(matches!(call(&mut w, &client), Err(Error::MissingCapability(_))));
    assert_eq!(w.server.count("tools/call"), 1);
}

#[cfg(feature = "modern")]
#[test]
fn endless_input_rounds_stop_at_the_cap() {
    let mut w = World::new(|s: &Seen| match s.method() {
        "tools/call" => Answer::Result(json!({"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}})),
        _ => modern_peer(s, &json!({"tools": {}})),
    });
    let client = w.connect(ClientOptions { max_input_rounds: 3, ..ClientOptions::default() }.handlers(handlers())).unwrap();
    assert!(matches!(call(&mut w, &client), Err(Error::InputRoundsExceeded { rounds: 3 })));
    assert_eq!(w.server.count("tools/call"), 4);
}

#[cfg(feature = "modern")]
#[test]
fn too_many_inputs_in_one_round_are_refused_before_any_handler_runs() {
    let inputs: Map<String, Value> = (0..17).map(|i| (format!("k{i}"), json!({"method": "roots/list"}))).collect();
    let asked = Rc::new(RefCell::new(0));
    let count = asked.clone();
    let roots = Handlers::default().roots_json(Rc::new(move |_, _| {
        *count.borrow_mut() += 1;
        async { Ok(json!([])) }.boxed_local()
    }));
    let (mut w, client) = modern_asking(Value::Object(inputs), ClientOptions::default().handlers(roots));
    let error = call(&mut w, &client).unwrap_err();
    assert_eq!(error.kind(), "limit-exceeded");
    assert_eq!(*asked.borrow(), 0);
}

#[cfg(feature = "modern")]
#[test]
fn a_handler_that_never_answers_is_stopped_by_the_calls_timeout() {
    let never = Handlers::default().roots_json(Rc::new(|_, _| futures::future::pending().boxed_local()));
    let (mut w, client) = modern_asking(json!({"r": {"method": "roots/list"}}), ClientOptions::default().handlers(never));
    let c = client.clone();
    let pending = w.start(async move { c.call_tool(CallToolParams::new("t"), &RequestOptions::default().timeout(3_000)).await });
    w.advance(3_000);
    assert!(matches!(pending.borrow_mut().take(), Some(Err(Error::Timeout { ms: 3_000 }))));
    assert_eq!(w.server.count("tools/call"), 1, "nothing is sent without the input");
}

/// Handlers that count how often they are asked.
fn counted() -> (Rc<std::cell::Cell<u32>>, Handlers) {
    let asked = Rc::new(std::cell::Cell::new(0));
    let (sampling, elicitation) = (asked.clone(), asked.clone());
    let handlers = Handlers::default()
        .sampling(move |_, _| {
            sampling.set(sampling.get() + 1);
            async { Ok(CreateMessageResult::text("m", "hi")) }
        })
        .elicitation(move |_, _| {
            elicitation.set(elicitation.get() + 1);
            async { Ok(ElicitResult::accept(Map::new())) }
        });
    (asked, handlers)
}

#[test]
fn requests_that_need_what_the_client_did_not_declare_are_refused_before_any_handler() {
    let mut tools = sampling_request("s1");
    tools["params"]["tools"] = json!([{"name": "t", "inputSchema": {"type": "object"}}]);
    let mut choice = sampling_request("s2");
    choice["params"]["toolChoice"] = json!({"mode": "auto"});
    let url = json!({"jsonrpc": "2.0", "id": "u1", "method": "elicitation/create",
        "params": {"mode": "url", "message": "sign in", "url": "https://example.com/x", "elicitationId": "e"}});
    let (asked, handlers) = counted();
    // Form elicitation alone: `null` takes URL mode out of what the handler declares.
    let options = ClientOptions { capabilities: Some(json!({"elicitation": {"url": null}})), ..ClientOptions::default() };
    let (mut w, client) = legacy_asking(vec![tools, choice, url], options.handlers(handlers));
    call(&mut w, &client).unwrap();
    for id in ["s1", "s2", "u1"] {
        assert_eq!(response(&w, id)["error"]["code"], -32602, "{id}");
    }
    assert_eq!(asked.get(), 0);
    let declared = w.server.last("initialize").unwrap().params()["capabilities"].clone();
    assert_eq!(declared["elicitation"], json!({"form": {}}), "no `url: null` goes out");
}

#[test]
fn requests_without_what_their_method_requires_are_refused_before_any_handler() {
    let mut no_messages = sampling_request("s1");
    no_messages["params"]["messages"] = json!("not an array");
    let mut no_budget = sampling_request("s2");
    no_budget["params"].as_object_mut().unwrap().remove("maxTokens");
    let no_params = json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create"});
    let (asked, handlers) = counted();
    let (mut w, client) = legacy_asking(vec![no_messages, no_budget, no_params], ClientOptions::default().handlers(handlers));
    call(&mut w, &client).unwrap();
    for id in ["s1", "s2", "e1"] {
        assert_eq!(response(&w, id)["error"]["code"], -32602, "{id}");
    }
    assert_eq!(asked.get(), 0);
}

#[test]
fn a_capability_taken_away_refuses_its_requests_though_a_handler_is_there() {
    let form = json!({"jsonrpc": "2.0", "id": "f1", "method": "elicitation/create",
        "params": {"message": "name?", "requestedSchema": {"type": "object", "properties": {}}}});
    for (capabilities, id, request, refused) in [
        (json!({"sampling": null}), "s1", sampling_request("s1"), true),
        (json!({"elicitation": null}), "f1", form.clone(), true),
        (json!({"elicitation": {"form": null}}), "f1", form.clone(), true),
        // An empty `elicitation`, as 2025-06-18 clients declare it, means form mode.
        (json!({"elicitation": {"form": null, "url": null}}), "f1", form.clone(), false),
    ] {
        let (asked, handlers) = counted();
        let options = ClientOptions { capabilities: Some(capabilities.clone()), ..ClientOptions::default() };
        let (mut w, client) = legacy_asking(vec![request], options.handlers(handlers));
        call(&mut w, &client).unwrap();
        let answer = response(&w, id);
        assert_eq!((answer["error"]["code"] == -32602, asked.get() == 0), (refused, refused), "{capabilities}: {answer}");
    }
}

#[test]
fn requests_for_what_the_client_declared_reach_the_handlers() {
    let mut tools = sampling_request("s1");
    tools["params"]["tools"] = json!([{"name": "t", "inputSchema": {"type": "object"}}]);
    let url = json!({"jsonrpc": "2.0", "id": "u1", "method": "elicitation/create",
        "params": {"mode": "url", "message": "sign in", "url": "https://example.com/x", "elicitationId": "e"}});
    let (asked, handlers) = counted();
    let options = ClientOptions { capabilities: Some(json!({"sampling": {"tools": {}}})), ..ClientOptions::default() };
    let (mut w, client) = legacy_asking(vec![tools, url], options.handlers(handlers));
    call(&mut w, &client).unwrap();
    assert_eq!(response(&w, "s1")["result"]["model"], "m");
    assert_eq!(response(&w, "u1")["result"]["action"], "accept");
    assert_eq!(asked.get(), 2);
}

#[cfg(feature = "modern")]
#[test]
fn a_modern_server_that_sends_requests_gets_no_answer_and_is_reported() {
    let mut w = World::new(|s: &Seen| match s.method() {
        "tools/call" => Answer::After(
            vec![sampling_request("s1"), json!({"jsonrpc": "2.0", "id": "p1", "method": "ping"})],
            Box::new(Answer::Result(text_result("ok"))),
        ),
        _ => modern_peer(s, &json!({"tools": {}})),
    });
    let (asked, handlers) = counted();
    let client = w.connect(ClientOptions::default().handlers(handlers)).unwrap();
    let problems = Rc::new(RefCell::new(Vec::new()));
    let seen = problems.clone();
    client.on_event(move |event| {
        if let ClientEvent::Problem(problem) = event {
            seen.borrow_mut().push(problem.to_string());
        }
    });
    assert_eq!(call(&mut w, &client).unwrap().text(), "ok");
    assert_eq!(asked.get(), 0);
    assert!(w.server.responses().is_empty(), "{:?}", w.server.responses());
    assert_eq!(problems.borrow().len(), 2, "{:?}", problems.borrow());
    assert!(problems.borrow()[0].contains("sampling/createMessage"));
}
