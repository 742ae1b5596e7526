//! Headless Chromium, through wasm-bindgen-test, against a real
//! server-everything whose URL is baked in at build time (`MCP_TEST_URL`).
// A test may unwrap and index: a failure here is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

use js_sys::{Object, Promise, Reflect};
use mcp_wasm::McpClient;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SERVER: &str = match option_env!("MCP_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38011/mcp",
};

#[wasm_bindgen(inline_js = r#"
export function options(extra) { return Object.assign({ timeout: 15000 }, extra || {}); }
export function get(value, path) { return path.split(".").reduce((v, k) => v == null ? v : v[k], value); }
export function toolNames(result) { return result.tools.map((t) => t.name); }
export function firstText(result) { return result.content[0].text; }
export async function statusWithSession(url, sessionId, version) {
  const r = await fetch(url, { method: "POST", headers: {
    "content-type": "application/json", accept: "application/json, text/event-stream",
    "mcp-session-id": sessionId, "mcp-protocol-version": version },
    body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/list" }) });
  await r.text();
  return r.status;
}
export function recordingFetch(log) {
  return async (url, init) => {
    log.push({ method: init.method, body: init.body ?? null,
      sessionId: new Headers(init.headers).get("mcp-session-id"),
      version: new Headers(init.headers).get("mcp-protocol-version") });
    return fetch(url, init);
  };
}
"#)]
extern "C" {
    fn options(extra: &JsValue) -> JsValue;
    fn get(value: &JsValue, path: &str) -> JsValue;
    #[wasm_bindgen(js_name = toolNames)]
    fn tool_names(result: &JsValue) -> Vec<String>;
    #[wasm_bindgen(js_name = firstText)]
    fn first_text(result: &JsValue) -> String;
    #[wasm_bindgen(js_name = statusWithSession)]
    fn status_with_session(url: &str, session_id: &str, version: &str) -> Promise;
    #[wasm_bindgen(js_name = recordingFetch)]
    fn recording_fetch(log: &js_sys::Array) -> JsValue;
}

async fn settle(promise: Promise) -> Result<JsValue, JsValue> {
    JsFuture::from(promise).await
}

fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (key, value) in pairs {
        let _ = Reflect::set(&object, &JsValue::from_str(key), value);
    }
    object.into()
}

fn call_params(name: &str, arguments: &[(&str, JsValue)]) -> JsValue {
    object(&[("name", JsValue::from_str(name)), ("arguments", object(arguments))])
}

#[wasm_bindgen_test]
async fn connects_lists_calls_and_deletes_the_session() {
    let log = js_sys::Array::new();
    let opts = options(&object(&[("fetch", recording_fetch(&log))]));
    let client = McpClient::connect(JsValue::from_str(SERVER), opts).await.expect("connect");
    assert_eq!(get(&client.server_info(), "name").as_string().as_deref(), Some("mcp-servers/everything"));
    assert_eq!(client.protocol_version(), "2025-11-25");
    assert!(client.instructions().is_some());
    assert!(get(&client.server_capabilities(), "tools").is_object());
    let session = client.session_id().expect("server-everything is stateful");

    let tools = settle(client.list_tools(JsValue::UNDEFINED, JsValue::UNDEFINED)).await.expect("listTools");
    let names = tool_names(&tools);
    assert!(names.iter().any(|n| n == "echo") && names.iter().any(|n| n == "get-sum"), "{names:?}");
    let all = settle(client.list_all_tools(JsValue::UNDEFINED)).await.expect("listAllTools");
    assert_eq!(js_sys::Array::from(&all).length() as usize, names.len());

    let echo = call_params("echo", &[("message", JsValue::from_str("hello from wasm"))]);
    let echoed = settle(client.call_tool(echo, JsValue::UNDEFINED)).await.expect("echo");
    assert_eq!(first_text(&echoed), "Echo: hello from wasm");
    let sum = call_params("get-sum", &[("a", JsValue::from(2)), ("b", JsValue::from(3))]);
    let summed = settle(client.call_tool(sum, JsValue::UNDEFINED)).await.expect("get-sum");
    assert!(first_text(&summed).contains('5'), "{}", first_text(&summed));
    settle(client.ping(JsValue::UNDEFINED)).await.expect("ping");

    settle(client.close()).await.expect("close");
    settle(client.close()).await.expect("close is idempotent");
    let status = settle(status_with_session(SERVER, &session, "2025-11-25")).await.expect("probe");
    // server-everything answers an ended session with 400 (the spec says 404).
    assert!(matches!(status.as_f64(), Some(s) if s == 400.0 || s == 404.0), "{status:?}");

    let methods: Vec<String> = log.iter().map(|entry| get(&entry, "method").as_string().unwrap_or_default()).collect();
    assert_eq!(methods.last().map(String::as_str), Some("DELETE"));
    // Every request after the era probe and initialize carries the session id and protocol version.
    for entry in log.iter().skip(2) {
        assert_eq!(get(&entry, "sessionId").as_string().as_deref(), Some(session.as_str()));
        assert_eq!(get(&entry, "version").as_string().as_deref(), Some("2025-11-25"));
    }

    let after = settle(client.ping(JsValue::UNDEFINED)).await.expect_err("closed");
    assert_eq!(get(&after, "kind").as_string().as_deref(), Some("closed"));
}

#[wasm_bindgen_test]
async fn abort_rejects_with_the_signals_reason() {
    let client = McpClient::connect(JsValue::from_str(SERVER), options(&JsValue::UNDEFINED)).await.expect("connect");
    let controller = web_sys::AbortController::new().expect("AbortController");
    let long = call_params("trigger-long-running-operation", &[("duration", JsValue::from(5)), ("steps", JsValue::from(5))]);
    let call = client.call_tool(long, object(&[("signal", controller.signal().into())]));
    let reason = js_sys::Error::new("user pressed stop");
    controller.abort_with_reason(&reason);
    let rejected = settle(call).await.expect_err("aborted");
    assert!(Object::is(&rejected, &reason), "rejects with signal.reason itself");
    // The client stays usable.
    settle(client.ping(JsValue::UNDEFINED)).await.expect("ping after abort");
    settle(client.close()).await.expect("close");
}

#[wasm_bindgen_test]
async fn a_short_timeout_is_a_typed_error() {
    let client = McpClient::connect(JsValue::from_str(SERVER), options(&JsValue::UNDEFINED)).await.expect("connect");
    let long = call_params("trigger-long-running-operation", &[("duration", JsValue::from(3)), ("steps", JsValue::from(3))]);
    let error = settle(client.call_tool(long, object(&[("timeout", JsValue::from(200))]))).await.expect_err("timeout");
    assert_eq!(get(&error, "name").as_string().as_deref(), Some("McpClientError"));
    assert_eq!(get(&error, "kind").as_string().as_deref(), Some("timeout"));
    settle(client.close()).await.expect("close");
}
