//! Tasks: a tool call run as a task, polled to its end; the task requests
//! one by one; listing tasks.

use crate::client::testing::{connected, text_result, Answer, Seen, World};
use crate::client::{Client, ClientOptions, EraChoice, RequestOptions, TaskOptions};
use crate::error::Error;
use serde_json::{json, Value};
use std::cell::Cell;

/// A task server: the task is created with `statuses[0]`, and each
/// `tasks/get` reports the next status (the last one repeats). `interval`
/// is the `pollInterval` it suggests, if any.
fn task_server(statuses: &'static [&'static str], interval: Option<u32>) -> impl Fn(&Seen) -> Option<Answer> {
    let polls = Cell::new(0);
    move |s| {
        let task = |status: &str| {
            let mut task = json!({"taskId": "t1", "status": status});
            if let Some(ms) = interval {
                task["pollInterval"] = json!(ms);
            }
            task
        };
        match s.method() {
            "tools/call" => Some(Answer::Result(json!({ "task": task(statuses[0]) }))),
            "tasks/get" => {
                polls.set(polls.get() + 1);
                Some(Answer::Result(task(statuses[polls.get().min(statuses.len() - 1)])))
            }
            "tasks/result" => Some(Answer::Result(text_result("done"))),
            "tasks/list" => Some(Answer::Result(json!({"tasks": [task("working")], "nextCursor": "n"}))),
            _ => None,
        }
    }
}

fn all_task_capabilities() -> Value {
    json!({"tools": {}, "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}})
}

fn tasks_client(statuses: &'static [&'static str], interval: Option<u32>) -> (World, Client) {
    connected(task_server(statuses, interval), all_task_capabilities(), ClientOptions::default().era(EraChoice::Legacy))
}

fn run_task(w: &mut World, client: &Client, options: TaskOptions) -> crate::client::testing::Pending<Result<Value, Error>> {
    let c = client.clone();
    w.start(async move { c.call_tool_as_task_value(json!({"name": "slow"}), &options).await })
}

#[test]
fn a_task_created_complete_goes_straight_to_its_result() {
    let (mut w, client) = tasks_client(&["completed"], None);
    let done = run_task(&mut w, &client, TaskOptions::default());
    assert_eq!(done.borrow_mut().take().unwrap().unwrap()["content"][0]["text"], "done");
    assert_eq!(w.server.count("tasks/get"), 0);
    assert_eq!(w.server.last("tasks/result").unwrap().params(), json!({"taskId": "t1"}));
}

#[test]
fn the_typed_call_sends_the_params_and_reads_the_result() {
    let (mut w, client) = tasks_client(&["completed"], None);
    let params = crate::protocol::types::CallToolParams::new("slow").argument("topic", "rust");
    let result = w.run(async move { client.call_tool_as_task(params, &TaskOptions::default()).await }).unwrap();
    assert_eq!((result.text(), result.is_error), ("done".to_owned(), None));
    let sent = w.server.last("tools/call").unwrap().params();
    assert_eq!((&sent["name"], &sent["arguments"], &sent["task"]), (&json!("slow"), &json!({"topic": "rust"}), &json!({})));
}

#[test]
fn a_failed_task_returns_its_result_for_the_caller_to_read() {
    let (mut w, client) = tasks_client(&["working", "failed"], Some(200));
    let done = run_task(&mut w, &client, TaskOptions::default());
    w.advance(200);
    assert!(done.borrow_mut().take().unwrap().is_ok());
    assert_eq!((w.server.count("tasks/get"), w.server.count("tasks/result")), (1, 1));
}

#[test]
fn a_task_the_server_cancelled_is_an_error_naming_the_task_and_the_tool() {
    let (mut w, client) = tasks_client(&["working", "cancelled"], Some(200));
    let done = run_task(&mut w, &client, TaskOptions::default());
    w.advance(200);
    let error = done.borrow_mut().take().unwrap().unwrap_err();
    assert!(matches!(&error, Error::Protocol(m) if m.contains("t1") && m.contains("\"slow\"")), "{error:?}");
    assert_eq!(w.server.count("tasks/cancel"), 0, "the server cancelled it itself");
}

#[test]
fn a_task_that_needs_input_stops_polling_and_waits_for_its_result() {
    let (mut w, client) = tasks_client(&["working", "input_required"], Some(200));
    let done = run_task(&mut w, &client, TaskOptions::default());
    w.advance(200);
    assert!(done.borrow_mut().take().unwrap().is_ok());
    w.advance(10_000);
    assert_eq!(w.server.count("tasks/get"), 1);
}

/// Checks that a task started with `interval` (suggested) and `options` is
/// polled every `every` ms.
fn polled_every(interval: Option<u32>, options: TaskOptions, every: u64) {
    let (mut w, client) = tasks_client(&["working"], interval);
    let _pending = run_task(&mut w, &client, options);
    for polls in 0..2 {
        w.advance(every - 1);
        assert_eq!(w.server.count("tasks/get"), polls);
        w.advance(1);
        assert_eq!(w.server.count("tasks/get"), polls + 1);
    }
}

#[test]
fn without_a_suggested_interval_the_task_is_polled_every_second() {
    polled_every(None, TaskOptions::default(), 1_000);
}

#[test]
fn the_callers_interval_wins_over_the_servers() {
    polled_every(Some(200), TaskOptions { poll_interval_ms: Some(2_000), ..TaskOptions::default() }, 2_000);
}

#[test]
fn an_error_while_polling_ends_the_task_call_with_it() {
    let polled = task_server(&["working"], Some(100));
    let (mut w, client) = connected(
        move |s| if s.method() == "tasks/get" { Some(Answer::error(-32602, "unknown task")) } else { polled(s) },
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    );
    let done = run_task(&mut w, &client, TaskOptions::default());
    w.advance(100);
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Rpc(e))) if e.code == -32602));
    assert_eq!(w.server.count("tasks/result"), 0);
    assert_eq!(w.server.count("tasks/cancel"), 1, "nobody follows the task any more");
}

#[test]
fn a_creation_without_a_task_id_is_a_protocol_error() {
    let (mut w, client) = connected(
        |s| (s.method() == "tools/call").then(|| Answer::Result(json!({"task": {"status": "working"}}))),
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    );
    let done = run_task(&mut w, &client, TaskOptions::default());
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Protocol(_)))));
    assert_eq!(w.server.count("tasks/get"), 0);
}

#[test]
fn not_strict_runs_a_task_the_server_did_not_declare() {
    let (mut w, client) = connected(
        task_server(&["completed"], None),
        json!({"tools": {}}),
        ClientOptions { strict: false, ..ClientOptions::default() }.era(EraChoice::Legacy),
    );
    let done = run_task(&mut w, &client, TaskOptions::default());
    assert!(done.borrow_mut().take().unwrap().is_ok());
}

#[test]
fn the_task_requests_one_by_one() {
    let (mut w, client) = tasks_client(&["working", "completed"], None);
    let c = client.clone();
    let status = w.run(async move { c.task_request("tasks/get", "t1", &RequestOptions::default()).await }).unwrap();
    assert_eq!(status["status"], "completed");
    let c = client.clone();
    let result = w.run(async move { c.task_request("tasks/result", "t1", &RequestOptions::default()).await }).unwrap();
    assert_eq!(result["content"][0]["text"], "done");
    assert_eq!(w.server.last("tasks/get").unwrap().params(), json!({"taskId": "t1"}));
}

#[test]
fn a_task_status_without_its_fields_is_a_protocol_error() {
    let (mut w, client) = connected(
        |s| (s.method() == "tasks/get").then(|| Answer::Result(json!({"taskId": "t1"}))),
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    );
    let outcome = w.run(async move { client.task_request("tasks/get", "t1", &RequestOptions::default()).await });
    assert!(matches!(outcome, Err(Error::Protocol(m)) if m.contains("status")));
}

#[test]
fn tasks_are_listed_page_by_page() {
    let (mut w, client) = tasks_client(&["working"], None);
    let c = client.clone();
    let page = w.run(async move { c.list_tasks_reply(Some(json!({"cursor": "n"})), &RequestOptions::default()).await }).unwrap();
    assert_eq!(page.value()["tasks"][0]["taskId"], "t1");
    assert_eq!(page.value()["nextCursor"], "n");
    assert_eq!(w.server.last("tasks/list").unwrap().params(), json!({"cursor": "n"}));
    let bad = w.run(async move { client.list_tasks_reply(Some(json!({"cursor": 1})), &RequestOptions::default()).await });
    assert_eq!(bad.unwrap_err().kind(), "invalid-argument");
    assert_eq!(w.server.count("tasks/list"), 1);
}

#[test]
fn task_listing_and_cancelling_need_their_own_declarations() {
    let (mut w, client) = connected(task_server(&["working"], None), json!({"tasks": {}}), ClientOptions::default().era(EraChoice::Legacy));
    let c = client.clone();
    let listed = w.run(async move { c.list_tasks_reply(None, &RequestOptions::default()).await });
    assert!(listed.unwrap_err().to_string().contains("tasks.list"));
    let cancelled = w.run(async move { client.task_request("tasks/cancel", "t1", &RequestOptions::default()).await });
    assert!(cancelled.unwrap_err().to_string().contains("tasks.cancel"));
    assert!(w.server.methods().iter().all(|m| !m.starts_with("tasks/")));
}

#[test]
fn a_cancelled_task_call_fails_at_once_though_the_server_never_answers_its_cancel() {
    let polled = task_server(&["working"], Some(1_000));
    let (mut w, client) = connected(
        move |s| if s.method() == "tasks/cancel" { Some(Answer::Hold) } else { polled(s) },
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    );
    let token = crate::client::CancelToken::new();
    let options =
        TaskOptions { request: RequestOptions { cancel: Some(token.source()), ..RequestOptions::default() }, ..TaskOptions::default() };
    let done = run_task(&mut w, &client, options);
    token.cancel("enough");
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Cancelled { reason })) if reason == "enough"));
    assert_eq!(w.server.count("tasks/cancel"), 1, "the server is told");
}

/// `task_server`, with `tasks/get` left unanswered.
fn polls_held() -> (World, Client) {
    let polled = task_server(&["working"], Some(100));
    connected(
        move |s| if s.method() == "tasks/get" { Some(Answer::Hold) } else { polled(s) },
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    )
}

#[test]
fn a_task_call_cancelled_during_a_poll_cancels_the_task() {
    let (mut w, client) = polls_held();
    let token = crate::client::CancelToken::new();
    let options =
        TaskOptions { request: RequestOptions { cancel: Some(token.source()), ..RequestOptions::default() }, ..TaskOptions::default() };
    let done = run_task(&mut w, &client, options);
    w.advance(100);
    assert_eq!(w.server.count("tasks/get"), 1);
    token.cancel("enough");
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Cancelled { reason })) if reason == "enough"));
    assert_eq!(w.server.last("tasks/cancel").map(|s| s.params()), Some(json!({"taskId": "t1"})), "nobody follows the task any more");
}

/// Dropping a call's future cancels it; a task's call leaves the task to
/// nobody then, so the server is asked to cancel the task too.
#[test]
fn a_task_call_whose_future_is_dropped_cancels_the_task() {
    let (mut w, client) = polls_held();
    let c = client.clone();
    let (call, handle) =
        futures::future::abortable(async move { c.call_tool_as_task_value(json!({"name": "slow"}), &TaskOptions::default()).await });
    let done = w.start(call);
    w.advance(100);
    assert_eq!(w.server.count("tasks/get"), 1);
    handle.abort();
    w.settle();
    assert!(matches!(done.borrow_mut().take(), Some(Err(futures::future::Aborted))));
    assert_eq!(w.server.last("tasks/cancel").map(|s| s.params()), Some(json!({"taskId": "t1"})));
}

#[test]
fn a_task_call_whose_poll_times_out_cancels_the_task() {
    let (mut w, client) = polls_held();
    let options =
        TaskOptions { request: RequestOptions { timeout_ms: Some(1_000), ..RequestOptions::default() }, ..TaskOptions::default() };
    let done = run_task(&mut w, &client, options);
    w.advance(100);
    assert_eq!(w.server.count("tasks/get"), 1);
    w.advance(1_000);
    assert!(matches!(done.borrow_mut().take(), Some(Err(Error::Timeout { .. }))));
    assert_eq!(w.server.count("tasks/cancel"), 1);
}

#[test]
fn an_input_required_task_whose_result_outlasts_the_timeout_is_polled_again() {
    let asked = Cell::new(0);
    let (mut w, client) = connected(
        move |s| match s.method() {
            "tools/call" => Some(Answer::Result(json!({"task": {"taskId": "t1", "status": "input_required"}}))),
            "tasks/get" => Some(Answer::Result(json!({"taskId": "t1", "status": "completed"}))),
            "tasks/result" => {
                asked.set(asked.get() + 1);
                Some(if asked.get() == 1 { Answer::Hold } else { Answer::Result(text_result("done")) })
            }
            _ => None,
        },
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    );
    let options =
        TaskOptions { request: RequestOptions { timeout_ms: Some(1_000), ..RequestOptions::default() }, ..TaskOptions::default() };
    let done = run_task(&mut w, &client, options);
    w.advance(1_000);
    assert_eq!(done.borrow_mut().take().unwrap().unwrap()["content"][0]["text"], "done");
    assert_eq!((w.server.count("tasks/result"), w.server.count("tasks/get"), w.server.count("tasks/cancel")), (2, 1, 0));
}

#[test]
fn a_server_that_runs_the_call_at_once_answers_the_task_call_with_its_result() {
    let (mut w, client) = connected(
        |s| (s.method() == "tools/call").then(|| Answer::Result(text_result("at once"))),
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    );
    let done = run_task(&mut w, &client, TaskOptions::default());
    assert_eq!(done.borrow_mut().take().unwrap().unwrap()["content"][0]["text"], "at once");
    assert!(w.server.methods().iter().all(|m| !m.starts_with("tasks/")));
}

#[test]
fn a_task_result_is_checked_against_the_tools_output_schema() {
    let polled = task_server(&["completed"], None);
    let (mut w, client) = connected(
        move |s| match s.method() {
            "tools/list" => Some(Answer::Result(json!({"tools": [{"name": "slow", "inputSchema": {"type": "object"},
                "execution": {"taskSupport": "required"},
                "outputSchema": {"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]}}]}))),
            "tasks/result" => Some(Answer::Result(json!({"content": [], "structuredContent": {"n": "many"}}))),
            _ => polled(s),
        },
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    );
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    let done = run_task(&mut w, &client, TaskOptions::default());
    let error = done.borrow_mut().take().unwrap().unwrap_err();
    assert!(matches!(&error, Error::Invalid(m) if m.contains("/n")), "{error:?}");
    assert_eq!(w.server.count("tasks/cancel"), 0, "the task had ended");
}

#[test]
fn a_tasks_progress_is_heard_for_its_whole_life_under_the_calls_token() {
    let token = std::rc::Rc::new(std::cell::RefCell::new(Value::Null));
    let (seen, polls) = (token.clone(), Cell::new(0));
    let (mut w, client) = connected(
        move |s| match s.method() {
            "tools/call" => {
                *seen.borrow_mut() = s.params()["_meta"]["progressToken"].clone();
                Some(Answer::Result(json!({"task": {"taskId": "t1", "status": "working", "pollInterval": 100}})))
            }
            "tasks/get" => {
                polls.set(polls.get() + 1);
                let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                    "params": {"progressToken": seen.borrow().clone(), "progress": polls.get()}});
                let status = if polls.get() == 2 { "completed" } else { "working" };
                Some(Answer::After(
                    vec![progress],
                    Box::new(Answer::Result(json!({"taskId": "t1", "status": status, "pollInterval": 100}))),
                ))
            }
            "tasks/result" => Some(Answer::Result(text_result("done"))),
            _ => None,
        },
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    );
    let heard = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let hears = heard.clone();
    let request = RequestOptions::default().on_progress(move |p| hears.borrow_mut().push(p["progress"].clone()), false);
    let done = run_task(&mut w, &client, TaskOptions { request, ..TaskOptions::default() });
    w.advance(100);
    w.advance(100);
    assert!(done.borrow_mut().take().unwrap().is_ok());
    assert_eq!(*heard.borrow(), vec![json!(1), json!(2)]);
    assert!(token.borrow().is_string(), "{:?}", token.borrow());
    assert!(w.server.last("tasks/get").unwrap().params().get("_meta").is_none(), "a poll asks for no progress of its own");
    w.server.push(
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token.borrow().clone(), "progress": 3}}),
    );
    w.settle();
    assert_eq!(heard.borrow().len(), 2, "nobody listens once the call is over");
}

#[test]
fn a_null_meta_or_token_gets_a_progress_token_of_the_calls_own() {
    for params in [json!({"name": "slow", "_meta": null}), json!({"name": "slow", "_meta": {"progressToken": null, "k": 1}})] {
        let (mut w, client) = tasks_client(&["completed"], None);
        let request = RequestOptions::default().on_progress(|_| {}, false);
        let options = TaskOptions { request, ..TaskOptions::default() };
        let c = client.clone();
        w.run(async move { c.call_tool_as_task_value(params, &options).await }).unwrap();
        let meta = w.server.last("tools/call").unwrap().params()["_meta"].clone();
        assert!(meta["progressToken"].is_string(), "{meta}");
    }
}

/// A server that lists `slow` as needing a task, `either` as allowing one and
/// `quick` (no `execution`) as forbidding them, and answers a plain call with
/// its result; `tools/list` has a next page when `paged`.
fn listing_task_server(paged: bool) -> impl Fn(&Seen) -> Option<Answer> {
    let tasks = task_server(&["completed"], None);
    move |s| match (s.method(), s.params().get("task").is_some()) {
        ("tools/list", _) if paged && s.params().get("cursor").is_none() => Some(Answer::Result(json!({
            "tools": [{"name": "quick", "inputSchema": {"type": "object"}}],
            "nextCursor": "2",
        }))),
        ("tools/list", _) => Some(Answer::Result(json!({"tools": [
            {"name": "slow", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}},
            {"name": "either", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}},
            {"name": "quick", "inputSchema": {"type": "object"}},
        ]}))),
        ("tools/call", false) => Some(Answer::Result(text_result("plain"))),
        _ => tasks(s),
    }
}

#[test]
fn a_listed_tool_is_called_as_its_task_support_says() {
    let (mut w, client) = connected(listing_task_server(false), all_task_capabilities(), ClientOptions::default().era(EraChoice::Legacy));
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    use crate::protocol::task_support::TaskSupport::{Forbidden, Optional, Required};
    let supports: Vec<_> = ["slow", "either", "quick", "unlisted"].iter().map(|name| client.task_support(name)).collect();
    assert_eq!(supports, [Some(Required), Some(Optional), Some(Forbidden), Some(Forbidden)]);
    // call_tool of a tool that needs a task runs it as one.
    let c = client.clone();
    let result = w.run(async move { c.call_tool(crate::protocol::types::CallToolParams::new("slow"), &RequestOptions::default()).await });
    assert_eq!(result.unwrap().text(), "done");
    assert_eq!(w.server.last("tools/call").unwrap().params()["task"], json!({}));
    // call_tool_as_task of a tool that forbids them calls it plainly; of one that allows them, as a task.
    for (name, plain) in [("quick", true), ("either", false)] {
        let c = client.clone();
        let result = w.run(async move { c.call_tool_as_task_value(json!({"name": name}), &TaskOptions::default()).await }).unwrap();
        assert_eq!(result["content"][0]["text"], if plain { "plain" } else { "done" }, "{name}");
        assert_eq!(w.server.last("tools/call").unwrap().params().get("task").is_none(), plain, "{name}");
    }
}

/// Before a whole listing of the tools, nothing is known: each call goes out as asked.
#[test]
fn without_a_whole_listing_calls_go_out_as_asked() {
    let (mut w, client) = connected(listing_task_server(true), all_task_capabilities(), ClientOptions::default().era(EraChoice::Legacy));
    let c = client.clone();
    w.run(async move { c.list_tools(None, &RequestOptions::default()).await }).unwrap();
    assert_eq!(client.task_support("quick"), None);
    let c = client.clone();
    let result = w.run(async move { c.call_tool_as_task_value(json!({"name": "quick"}), &TaskOptions::default()).await }).unwrap();
    assert_eq!(
        (result["content"][0]["text"].as_str(), w.server.last("tools/call").unwrap().params()["task"].clone()),
        (Some("done"), json!({}))
    );
    let c = client.clone();
    let result = w.run(async move { c.call_tool(crate::protocol::types::CallToolParams::new("slow"), &RequestOptions::default()).await });
    assert_eq!(result.unwrap().text(), "plain");
}

/// After `notifications/tools/list_changed`, a tool the last listing did not
/// name may be a new one: unknown, until a listing tells again. What the
/// listing declared of its task tools stands.
#[test]
fn a_change_of_the_tools_makes_the_unlisted_unknown_until_listed_again() {
    use crate::protocol::task_support::TaskSupport::{Forbidden, Required};
    let (mut w, client) = connected(listing_task_server(false), all_task_capabilities(), ClientOptions::default().era(EraChoice::Legacy));
    let list = |w: &mut World, client: &Client| {
        let c = client.clone();
        w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    };
    list(&mut w, &client);
    assert_eq!((client.task_support("new"), client.task_support("slow")), (Some(Forbidden), Some(Required)));
    w.server.push(crate::client::testing::notification("notifications/tools/list_changed"));
    w.settle();
    assert_eq!((client.task_support("new"), client.task_support("slow")), (None, Some(Required)));
    list(&mut w, &client);
    assert_eq!(client.task_support("new"), Some(Forbidden));
}

/// Without `tasks.requests.tools.call`, no tool runs as a task, whatever its
/// listing says: calls go out as asked.
#[test]
fn without_the_servers_task_declaration_the_listing_decides_nothing() {
    let (mut w, client) = connected(listing_task_server(false), json!({"tools": {}}), ClientOptions::default().era(EraChoice::Legacy));
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    assert_eq!((client.task_support("slow"), client.task_support("quick")), (None, None));
    let c = client.clone();
    let result = w.run(async move { c.call_tool(crate::protocol::types::CallToolParams::new("slow"), &RequestOptions::default()).await });
    assert_eq!(result.unwrap().text(), "plain");
}

/// A whole listing during which the learned facts were cleared for their
/// budget (pages asked one by one before it had filled it) has not taught
/// them all it listed: its task tools must not read as forbidden.
#[test]
fn a_listing_whose_learning_was_cleared_midway_leaves_the_unnamed_unknown() {
    let limits = crate::session::limits::Limits { max_message_bytes: 4_096, ..crate::session::limits::Limits::DEFAULT };
    let padding = "x".repeat(3_000);
    let (mut w, client) = connected(
        move |s: &Seen| {
            let tool = |name: &str, support: &str| json!({"name": name, "inputSchema": {}, "execution": {"taskSupport": support}});
            (s.method() == "tools/list").then(|| match s.params()["cursor"].as_str() {
                Some("more") => Answer::Result(json!({"tools": [tool("elsewhere", "optional")], "nextCursor": "more", "padding": padding})),
                Some(_) => Answer::Result(json!({"tools": [tool("quick", "forbidden")], "padding": padding})),
                None => Answer::Result(json!({"tools": [tool("slow", "required")], "nextCursor": "2", "padding": padding})),
            })
        },
        all_task_capabilities(),
        ClientOptions { limits, ..ClientOptions::default().era(EraChoice::Legacy) },
    );
    for _ in 0..9 {
        let c = client.clone();
        w.run(async move { c.list_tools(Some("more"), &RequestOptions::default()).await }).unwrap();
    }
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    assert_eq!(client.state.tool_upsets.get(), 1, "the walk's second page went past the budget");
    assert_eq!((client.task_support("slow"), client.task_support("quick")), (None, None));
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    use crate::protocol::task_support::TaskSupport::{Forbidden, Required};
    assert_eq!((client.task_support("slow"), client.task_support("quick")), (Some(Required), Some(Forbidden)));
}

/// A stream of the tools that reaches the last of several pages has listed
/// them whole, as `list_all_tools` does; one stopped before has not.
#[test]
fn a_stream_of_every_page_lists_the_tools_whole() {
    use crate::protocol::task_support::TaskSupport::{Forbidden, Required};
    use futures::StreamExt;
    let (mut w, client) = connected(listing_task_server(true), all_task_capabilities(), ClientOptions::default().era(EraChoice::Legacy));
    let c = client.clone();
    let first = w.run(async move { c.stream_tools(RequestOptions::default()).take(1).collect::<Vec<_>>().await });
    assert_eq!(first.len(), 1);
    assert_eq!(client.task_support("unlisted"), None, "a walk stopped on its first page");
    let c = client.clone();
    let all = w.run(async move { c.stream_tools(RequestOptions::default()).collect::<Vec<_>>().await });
    assert_eq!(all.len(), 4, "two pages");
    assert_eq!((client.task_support("slow"), client.task_support("unlisted")), (Some(Required), Some(Forbidden)));
}

/// A walk of several pages keeps no names to forget by: when a task tool
/// learned before outlasts it, the walk is not whole and the unnamed stay unknown.
#[test]
fn a_paged_walk_that_leaves_an_older_task_tool_is_not_whole() {
    let listings = Cell::new(0);
    let paged = listing_task_server(true);
    let (mut w, client) = connected(
        move |s: &Seen| {
            if s.method() == "tools/list" && s.params().get("cursor").is_none() {
                listings.set(listings.get() + 1);
                if listings.get() == 1 {
                    let old = json!({"name": "old", "inputSchema": {}, "execution": {"taskSupport": "required"}});
                    return Some(Answer::Result(json!({"tools": [old], "nextCursor": "more"})));
                }
            }
            paged(s)
        },
        all_task_capabilities(),
        ClientOptions::default().era(EraChoice::Legacy),
    );
    let c = client.clone();
    w.run(async move { c.list_tools(None, &RequestOptions::default()).await }).unwrap();
    use futures::StreamExt;
    let c = client.clone();
    let all = w.run(async move { c.stream_tools(RequestOptions::default()).collect::<Vec<_>>().await });
    assert_eq!(all.len(), 4);
    assert_eq!(client.task_support("unlisted"), None);
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    use crate::protocol::task_support::TaskSupport::Forbidden;
    assert_eq!((client.task_support("old"), client.task_support("unlisted")), (Some(Forbidden), Some(Forbidden)));
}

/// A stream's first item, and the stream to go on with.
fn first_of(
    w: &mut World,
    mut tools: futures::stream::LocalBoxStream<'static, Result<crate::protocol::types::Tool, Error>>,
) -> futures::stream::LocalBoxStream<'static, Result<crate::protocol::types::Tool, Error>> {
    use futures::StreamExt;
    let (tools, first) = w.run(async move {
        let first = tools.next().await;
        (tools, first)
    });
    assert!(matches!(first, Some(Ok(_))));
    tools
}

/// A listing begun while a stream walks its pages leaves the stream's later
/// pages to teach what they list, as pages asked for by cursor do; the walk
/// is then not whole.
#[test]
fn a_stream_whose_walk_a_newer_listing_began_during_still_learns_its_pages() {
    use crate::protocol::task_support::TaskSupport::Required;
    use futures::StreamExt;
    let (mut w, client) = connected(listing_task_server(true), all_task_capabilities(), ClientOptions::default().era(EraChoice::Legacy));
    let tools = first_of(&mut w, client.stream_tools(RequestOptions::default()));
    let c = client.clone();
    w.run(async move { c.list_tools(None, &RequestOptions::default()).await }).unwrap();
    let rest = w.run(tools.collect::<Vec<_>>());
    assert_eq!(rest.len(), 3);
    assert_eq!((client.task_support("slow"), client.task_support("unlisted")), (Some(Required), None));
}

/// A walk during which the server said its tools changed may have missed a
/// tool: it is not whole, and a tool it did not name stays unknown.
#[test]
fn a_walk_that_a_change_of_the_tools_came_during_is_not_whole() {
    use crate::protocol::task_support::TaskSupport::{Forbidden, Required};
    use futures::StreamExt;
    let (mut w, client) = connected(listing_task_server(true), all_task_capabilities(), ClientOptions::default().era(EraChoice::Legacy));
    let tools = first_of(&mut w, client.stream_tools(RequestOptions::default()));
    w.server.push(crate::client::testing::notification("notifications/tools/list_changed"));
    w.settle();
    assert_eq!(w.run(tools.collect::<Vec<_>>()).len(), 3);
    assert_eq!((client.task_support("slow"), client.task_support("unlisted")), (Some(Required), None));
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    assert_eq!(client.task_support("unlisted"), Some(Forbidden));
}
