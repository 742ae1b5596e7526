//! The Rust API alone, in headless Chromium, against a real server-everything:
//! `mcp_wasm::web::connect`, lists, a tool call with progress and one
//! cancelled, a resource subscription with its update as an event stream,
//! and sampling answered by a Rust closure. No `JsValue` appears here: this
//! is what a Leptos, Dioxus or Yew app writes.
// A test may unwrap and index: a failure here is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

use futures::future::{self, Either};
use futures::StreamExt;
use mcp_wasm::client::{CancelToken, Client, ClientOptions, Era, EventFilter, Handlers, RequestOptions, TaskOptions};
use mcp_wasm::protocol::types::{CallToolParams, Content, CreateMessageResult};
use mcp_wasm::session::{Channel, Runtime};
use mcp_wasm::transport::headers::HeaderSource;
use mcp_wasm::transport::oauth::{Grant, OAuthConfig};
use mcp_wasm::transport::web_runtime::WebRuntime;
use mcp_wasm::web::{self, WebOptions};
use mcp_wasm::Error;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SERVER: &str = match option_env!("MCP_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38011/mcp",
};

const MODERN: &str = match option_env!("MCP_MODERN_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38013/mcp",
};

/// A client whose sampling handler is a Rust closure standing in for a model.
async fn connect() -> Client {
    let handlers = Handlers::default().sampling(|params, _ctx| async move {
        let prompt = params.messages.first().and_then(|m| m.content.get("text")).and_then(|t| t.as_str()).unwrap_or_default().to_owned();
        Ok(CreateMessageResult::text("rust-model", format!("rust sampled: {prompt}")))
    });
    let options = WebOptions::default().client(ClientOptions::default().timeout(20_000).handlers(handlers));
    web::connect(SERVER, options).await.unwrap()
}

fn defaults() -> RequestOptions {
    RequestOptions::default()
}

#[wasm_bindgen_test]
async fn connects_lists_and_calls_a_tool() {
    let client = connect().await;
    assert_eq!((client.era(), client.channel()), (Era::Legacy, Channel::StreamableHttp));
    assert!(client.session_id().is_some());
    assert!(client.server().capabilities.get("tools").is_some());
    let tools = client.list_all_tools(&defaults()).await.unwrap();
    assert!(
        tools.iter().any(|t| t.name == "echo" && t.input_schema.is_object()),
        "{:?}",
        tools.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
    let echo = client.call_tool(CallToolParams::new("echo").argument("message", "from rust"), &defaults()).await.unwrap();
    assert_eq!(echo.text(), "Echo: from rust");
    let sum = client.call_tool(CallToolParams::new("get-sum").argument("a", 2).argument("b", 40), &defaults()).await.unwrap();
    assert!(sum.text().contains("42"), "{}", sum.text());
    client.close().await;
    assert!(matches!(client.list_tools(None, &defaults()).await, Err(Error::Closed)));
}

#[wasm_bindgen_test]
async fn a_call_reports_progress_and_can_be_cancelled() {
    let client = connect().await;
    let updates = Rc::new(RefCell::new(Vec::new()));
    let log = updates.clone();
    let options = defaults().on_progress(move |p| log.borrow_mut().push(p["progress"].as_f64().unwrap_or(-1.0)), false);
    let long = || CallToolParams::new("trigger-long-running-operation").argument("duration", 1).argument("steps", 4);
    let done = client.call_tool(long(), &options).await.unwrap();
    assert_eq!(*updates.borrow(), [1.0, 2.0, 3.0, 4.0]);
    assert!(done.text().contains("completed"), "{}", done.text());

    let token = CancelToken::new();
    let canceller = token.clone();
    wasm_bindgen_futures::spawn_local(async move {
        WebRuntime.sleep(300).await;
        canceller.cancel("the user pressed stop");
    });
    let slow = CallToolParams::new("trigger-long-running-operation").argument("duration", 30).argument("steps", 3);
    let outcome = client.call_tool(slow, &defaults().cancel_with(&token)).await;
    assert!(matches!(&outcome, Err(Error::Cancelled { reason }) if reason == "the user pressed stop"), "{outcome:?}");
    // The connection is unharmed.
    client.ping(&defaults()).await.unwrap();
    client.close().await;
}

#[wasm_bindgen_test]
async fn a_subscription_delivers_updates_as_a_stream() {
    let client = connect().await;
    let resources = client.list_all_resources(&defaults()).await.unwrap();
    let uri = resources.first().map(|r| r.uri.clone()).unwrap();
    let mut updates = client.events(EventFilter::Notifications(Some("notifications/resources/updated".into())), 16);
    client.subscribe_resource(&uri, &defaults()).await.unwrap();
    client.call_tool(CallToolParams::new("toggle-subscriber-updates"), &defaults()).await.unwrap();
    let next = match future::select(updates.next(), WebRuntime.sleep(10_000)).await {
        Either::Left((event, _)) => event.unwrap().unwrap(),
        Either::Right(_) => panic!("no notifications/resources/updated within 10 s"),
    };
    let params = next.notification().and_then(|n| n.params.clone()).unwrap();
    assert!(params["uri"].is_string(), "{params}");
    client.call_tool(CallToolParams::new("toggle-subscriber-updates"), &defaults()).await.unwrap();
    client.unsubscribe_resource(&uri, &defaults()).await.unwrap();
    let read = client.read_resource(&uri, &defaults()).await.unwrap();
    assert_eq!(read.contents.first().map(|c| c.uri.as_str()), Some(uri.as_str()));
    client.close().await;
}

#[wasm_bindgen_test]
async fn sampling_is_answered_by_a_rust_closure() {
    let client = connect().await;
    // server-everything adds its sampling tool once it has seen the client's
    // capabilities; the list_changed races the first listing, so look again.
    let mut present = false;
    for _ in 0..40 {
        let tools = client.list_all_tools(&defaults()).await.unwrap();
        present = tools.iter().any(|t| t.name == "trigger-sampling-request");
        if present {
            break;
        }
        WebRuntime.sleep(50).await;
    }
    assert!(present, "server-everything offers trigger-sampling-request to a client with sampling");
    let params = CallToolParams::new("trigger-sampling-request").argument("prompt", "hello from the server").argument("maxTokens", 20);
    let result = client.call_tool(params, &defaults()).await.unwrap();
    // server-everything wraps the prompt in its own words; the answer is ours.
    assert!(result.text().contains("rust sampled: ") && result.text().contains("hello from the server"), "{}", result.text());
    assert!(result.text().contains("rust-model"), "{}", result.text());
    client.close().await;
}

/// A Rust model's answer of several blocks (2025-11-25) reaches a server on
/// `@modelcontextprotocol/server` 2.x as the array it is: its `ask-model`
/// tool (2026-07-28, an input round) joins the text blocks it was sent.
#[wasm_bindgen_test]
async fn a_sampling_answer_of_several_blocks_reaches_the_server() {
    let handlers = Handlers::default()
        .sampling(|_, _| async { Ok(CreateMessageResult::new("rust-model", vec![Content::text("Hello"), Content::text(" from Rust")])) });
    let client = web::connect(MODERN, WebOptions::default().client(ClientOptions::default().handlers(handlers))).await.unwrap();
    assert_eq!(client.era(), Era::Modern);
    let result = client.call_tool(CallToolParams::new("ask-model"), &defaults()).await.unwrap();
    assert_eq!(result.text(), "Hello from Rust");
    client.close().await;
}

/// The lists as streams give what the whole lists give, in order.
#[wasm_bindgen_test]
async fn the_lists_stream_what_the_whole_lists_hold() {
    let client = connect().await;
    let whole: Vec<String> = client.list_all_tools(&defaults()).await.unwrap().into_iter().map(|t| t.name).collect();
    let streamed: Vec<String> = client.stream_tools(defaults()).map(|tool| tool.unwrap().name).collect().await;
    assert!(whole.len() > 5 && streamed == whole, "{streamed:?} / {whole:?}");
    let first = client.stream_resources(defaults()).next().await.unwrap().unwrap();
    assert_eq!(first.uri, client.list_all_resources(&defaults()).await.unwrap()[0].uri);
    client.close().await;
}

/// A tool that server-everything runs as a task (2025-11-25), called from
/// Rust: polled to its report, each status told, the result typed.
#[wasm_bindgen_test]
async fn a_tool_runs_as_a_task_to_its_typed_result() {
    let client = connect().await;
    let statuses = Rc::new(RefCell::new(Vec::new()));
    let seen = statuses.clone();
    let options = TaskOptions {
        poll_interval_ms: Some(300),
        on_status: Some(Rc::new(move |task: &serde_json::Value| {
            seen.borrow_mut().push(task["status"].as_str().unwrap_or_default().to_owned());
        })),
        ..TaskOptions::default()
    };
    let params = CallToolParams::new("simulate-research-query").argument("topic", "rust").argument("ambiguous", false);
    let result = client.call_tool_as_task(params, &options).await.unwrap();
    assert!(result.text().contains("Research Report"), "{}", result.text());
    let statuses = statuses.borrow().clone();
    assert_eq!(
        (statuses.first().map(String::as_str), statuses.last().map(String::as_str)),
        (Some("working"), Some("completed")),
        "{statuses:?}"
    );
    client.close().await;
}

/// Once the tools are listed, `call_tool` runs server-everything's
/// `simulate-research-query`, listed with `taskSupport: "required"`, as a task
/// (a plain call of it is refused), and `call_tool_as_task` calls `echo`,
/// listed without tasks, plainly (a task-augmented call of it is refused).
#[wasm_bindgen_test]
async fn tools_are_called_as_their_listing_says() {
    use mcp_wasm::protocol::task_support::TaskSupport;
    let client = connect().await;
    client.list_all_tools(&defaults()).await.unwrap();
    assert_eq!(client.task_support("simulate-research-query"), Some(TaskSupport::Required));
    assert_eq!(client.task_support("echo"), Some(TaskSupport::Forbidden));
    let params = CallToolParams::new("simulate-research-query").argument("topic", "listing").argument("ambiguous", false);
    let result = client.call_tool(params, &defaults()).await.unwrap();
    assert!(result.text().contains("Research Report"), "{}", result.text());
    let echoed =
        client.call_tool_as_task(CallToolParams::new("echo").argument("message", "plainly"), &TaskOptions::default()).await.unwrap();
    assert!(echoed.text().contains("plainly"), "{}", echoed.text());
    client.close().await;
}

/// `WebOptions::header` adds to headers given in any form of `HeadersInit`
/// (here a `Headers` object, the one place this file builds a JS value: it
/// is what `HeaderSource::Fixed` takes); it used to drop all but an array's.
/// The merged headers then go out with a real call.
#[wasm_bindgen_test]
async fn header_adds_to_headers_given_in_any_form() {
    let given = web_sys::Headers::new().unwrap();
    given.append("x-first", "1").unwrap();
    let options = WebOptions { headers: HeaderSource::Fixed(given.into()), ..WebOptions::default() }.header("x-second", "2");
    let HeaderSource::Fixed(merged) = &options.headers else { panic!("{:?}", options.headers) };
    let merged = web_sys::Headers::new_with_str_sequence_sequence(merged).unwrap();
    assert_eq!((merged.get("x-first").unwrap(), merged.get("x-second").unwrap()), (Some("1".into()), Some("2".into())));
    let client = web::connect(SERVER, options).await.unwrap();
    let sum = CallToolParams::new("get-sum").argument("a", 2).argument("b", 3);
    assert!(client.call_tool(sum, &defaults()).await.unwrap().text().contains('5'));
    client.close().await;
}

/// A machine client signs in from Rust alone: `OAuthConfig::new` and the
/// pre-registered client of the OAuth peer (tests/peers/oauth-server.mjs),
/// whose MCP server refuses a request without its token.
#[wasm_bindgen_test]
async fn a_machine_client_signs_in_with_client_credentials() {
    let origin = option_env!("MCP_OAUTH_TEST_URL").unwrap_or("http://127.0.0.1:38060");
    let auth = OAuthConfig {
        client_id: Some("test-machine".into()),
        client_secret: Some("test-secret".into()),
        token_endpoint_auth_method: Some("client_secret_basic".into()),
        ..OAuthConfig::new(Grant::ClientCredentials)
    };
    let client = web::connect(&format!("{origin}/mcp"), WebOptions { auth: Some(auth), ..WebOptions::default() }).await.unwrap();
    assert!(!client.list_all_tools(&defaults()).await.unwrap().is_empty());
    client.close().await;
}

/// What `WebOptions` and its `OAuthConfig` print with `{:?}` can go to a
/// log: their secrets and the headers show as `<redacted>`, the rest as given.
#[wasm_bindgen_test]
fn options_print_without_their_secrets() {
    use mcp_wasm::transport::oauth::{Assertion, CorsProxy, EnterpriseIdentity, Storage};
    let secrets = ["s3cret", "-----BEGIN PRIVATE KEY-----", "id.token.jwt", "assertion.jwt", "code=abc123", "refresh-token", "tok-123"];
    let storage = Storage::memory();
    if let Storage::Memory(kept) = &storage {
        kept.borrow_mut().insert("mcp-wasm:oauth:x".into(), secrets[5].into());
    }
    let config = OAuthConfig {
        client_id: Some("public-id".into()),
        client_secret: Some(secrets[0].into()),
        private_key_pem: Some(secrets[1].into()),
        identity: Some(EnterpriseIdentity {
            id_token: secrets[2].into(),
            token_endpoint: "https://idp.example/token".into(),
            client_id: None,
        }),
        assertion: Some(Assertion::Fixed(secrets[3].into())),
        callback_url: Some(format!("https://app.example/cb?{}", secrets[4])),
        storage: Rc::new(storage),
        cors_proxy: Some(CorsProxy::Prefix("https://proxy.example/?u=".into())),
        ..OAuthConfig::new(Grant::CrossAppAccess)
    };
    let fetch = mcp_wasm::transport::fetch::Fetch::new(Some(js_sys::Function::new_no_args("return fetch")));
    let options = WebOptions { auth: Some(config), fetch, ..WebOptions::default() }.header("authorization", "Bearer tok-123");
    let printed = format!("{options:?}");
    assert!(!printed.contains("JsValue"), "a JS value printed by the binding in {printed}");
    for secret in secrets {
        assert!(!printed.contains(secret), "{secret} in {printed}");
    }
    for shown in
        ["public-id", "<redacted>", "https://idp.example/token", "https://proxy.example/?u=", "CrossAppAccess", "keys: 1", "custom: true"]
    {
        assert!(printed.contains(shown), "{shown} missing from {printed}");
    }
}
