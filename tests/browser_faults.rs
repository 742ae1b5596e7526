//! Headless Chromium: what the client does with bad input, from a scripted
//! `fetch` (edge cases a real server will not produce on demand) and from JS.
//! Every case must end in a typed error, never a panic or a hang.
// A test may unwrap and index: a failure here is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

use js_sys::Promise;
use mcp_wasm::McpClient;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const INIT = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "scripted", version: "1" } };
const json = (body, init) => new Response(typeof body === "string" ? body : JSON.stringify(body),
  Object.assign({ status: 200, headers: { "content-type": "application/json" } }, init));
const sse = (text) => new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });

// A fetch that answers initialize properly and everything after it with `reply`.
export function scripted(reply) {
  return async (url, init) => {
    const message = JSON.parse(init.body ?? "null");
    if (init.method !== "POST") return new Response(null, { status: 405 });
    // A legacy server: the era probe is not found.
    if (message.method === "server/discover") return new Response(null, { status: 404 });
    if (message.method === "initialize") return json({ jsonrpc: "2.0", id: message.id, result: INIT });
    if (!("id" in message)) return new Response(null, { status: 202 });
    return reply(message);
  };
}
const replies = {
  status500: () => new Response("boom", { status: 500, statusText: "Internal Server Error" }),
  html: () => new Response("<html></html>", { status: 200, headers: { "content-type": "text/html" } }),
  malformedJson: () => json("{\"jsonrpc\":\"2.0\",\"id\":"),
  wrongId: (m) => json({ jsonrpc: "2.0", id: m.id + 1000, result: {} }),
  notJsonRpc: () => json({ hello: "world" }),
  garbageSse: () => sse(": hi\n\ndata: not json\n\ndata: {\"also\": \"bad\"\n\n"),
  // A priming event makes the stream resumable: the client waits `retry`, asks
  // GET to resume, and fails when the server (here: 405) cannot.
  sseThenEnd: () => sse("id: 1\nretry: 10\ndata: \n\n"),
  // Without an event id there is nothing to resume from.
  sseNoIdThenEnd: () => sse(": hello\n\n"),
  neverEnds: () => new Response(new ReadableStream({ start() {} }), { status: 200, headers: { "content-type": "text/event-stream" } }),
  badToolsShape: (m) => json({ jsonrpc: "2.0", id: m.id, result: { tools: "nope" } }),
  badContent: (m) => json({ jsonrpc: "2.0", id: m.id, result: { content: [{ no: "type" }] } }),
  splitUtf8: (m) => {
    const bytes = new TextEncoder().encode(`data: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "héllo 🦀" }] } })}\n\n`);
    const body = new ReadableStream({ start(c) { for (const b of bytes) c.enqueue(new Uint8Array([b])); c.close(); } });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  },
  rpcError: (m) => json({ jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "bad params", data: { field: "a" } } }),
  throws: () => { throw new TypeError("Failed to fetch"); },
  notAResponse: () => 42,
};
export function reply(name) { return replies[name]; }
export function initReply(result) {
  return async (url, init) => json({ jsonrpc: "2.0", id: JSON.parse(init.body).id, result });
}
// An HTTP+SSE stream whose endpoint event points at another origin.
export function foreignEndpoint() {
  return async (url, init) => {
    if (init.method === "GET") return new Response("event: endpoint\ndata: https://elsewhere.example/message?sessionId=1\n\n",
      { headers: { "content-type": "text/event-stream" } });
    throw new TypeError("nothing may be POSTed");
  };
}
export function kindOf(e) { return e && e.name === "McpClientError" ? e.kind : (e && e.name) || String(e); }
export function field(v, k) { return v == null ? undefined : v[k]; }
export function countingFetch(inner) {
  const wrapped = async (url, init) => { if (init.method === "POST") wrapped.calls.push(JSON.parse(init.body).method); return inner(url, init); };
  wrapped.calls = [];
  return wrapped;
}
export function callCount(fetch) { return fetch.calls.length; }
export function opts(fetch, extra) { return Object.assign({ fetch, timeout: 1000 }, extra || {}); }
export function firstText(result) { return result.content[0].text; }
// A server whose tools/call stream primes itself (an id, retry: 100) and ends without the result, and
// whose GET answers each resumption with one notification under a fresh id, then ends: a stream that
// could be resumed for ever. `resumptions` counts those GETs (the GET stream of its own is refused).
export function endlessResumption() {
  const fetch = async (url, init) => {
    if (init.method === "GET") {
      const last = new Headers(init.headers).get("last-event-id");
      if (last === null) return new Response(null, { status: 405 });
      fetch.resumptions += 1;
      return sse(`id: g${fetch.resumptions}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"still here"}}\n\n`);
    }
    const message = JSON.parse(init.body ?? "null");
    if (message.method === "server/discover") return new Response(null, { status: 404 });
    if (message.method === "initialize") return json({ jsonrpc: "2.0", id: message.id, result: INIT });
    if (!("id" in message)) return new Response(null, { status: 202 });
    if (message.method === "tools/call") return sse("id: 1\nretry: 100\ndata: \n\n");
    return json({ jsonrpc: "2.0", id: message.id, result: {} });
  };
  fetch.resumptions = 0;
  return fetch;
}
export function resumptions(fetch) { return fetch.resumptions; }
export function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }
"#)]
extern "C" {
    fn scripted(reply: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = reply)]
    fn scripted_reply(name: &str) -> JsValue;
    #[wasm_bindgen(js_name = initReply)]
    fn init_reply(result: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = foreignEndpoint)]
    fn foreign_endpoint() -> JsValue;
    #[wasm_bindgen(js_name = kindOf)]
    fn kind_of(error: &JsValue) -> String;
    fn field(value: &JsValue, key: &str) -> JsValue;
    fn opts(fetch: &JsValue, extra: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = countingFetch)]
    fn counting_fetch(inner: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = callCount)]
    fn call_count(fetch: &JsValue) -> u32;
    #[wasm_bindgen(js_name = firstText)]
    fn first_text(result: &JsValue) -> String;
    #[wasm_bindgen(js_name = endlessResumption)]
    fn endless_resumption() -> JsValue;
    fn resumptions(fetch: &JsValue) -> u32;
    fn sleep(ms: u32) -> Promise;
}

const URL: &str = "http://127.0.0.1:9/mcp";

fn reply(name: &str) -> JsValue {
    scripted_reply(name)
}

async fn client_with(reply_name: &str) -> McpClient {
    McpClient::connect(JsValue::from_str(URL), opts(&scripted(&reply(reply_name)), &JsValue::UNDEFINED))
        .await
        .expect("scripted initialize succeeds")
}

async fn list_tools_error(reply_name: &str) -> JsValue {
    let client = client_with(reply_name).await;
    let outcome = JsFuture::from(client.list_tools(JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    outcome.expect_err(reply_name)
}

#[wasm_bindgen_test]
async fn bad_responses_are_typed_errors() {
    for (name, kind) in [
        ("status500", "http"),
        ("html", "protocol"),
        ("malformedJson", "protocol"),
        ("wrongId", "protocol"),
        ("notJsonRpc", "protocol"),
        ("garbageSse", "protocol"),
        ("sseThenEnd", "protocol"),
        ("sseNoIdThenEnd", "protocol"),
        ("neverEnds", "timeout"),
        ("badToolsShape", "protocol"),
        ("throws", "network"),
        ("notAResponse", "protocol"),
    ] {
        let error = list_tools_error(name).await;
        assert_eq!(kind_of(&error), kind, "{name}: {:?}", field(&error, "message"));
    }
    let error = list_tools_error("status500").await;
    assert_eq!(field(&error, "status").as_f64(), Some(500.0));
}

/// A request that timed out is resumed no further, however readily its stream comes back: before,
/// every resumption that brought an event counted as progress, and it went on for ever.
#[wasm_bindgen_test]
async fn a_request_given_up_is_not_resumed_any_more() {
    let fetch = endless_resumption();
    let options = js_sys::JSON::parse(r#"{"timeout":400}"#).unwrap();
    let client = McpClient::connect(JsValue::from_str(URL), opts(&fetch, &options)).await.expect("connects");
    let params = js_sys::JSON::parse(r#"{"name":"x"}"#).unwrap();
    let error = JsFuture::from(client.call_tool(params, JsValue::UNDEFINED)).await.expect_err("no result comes");
    assert_eq!(kind_of(&error), "timeout");
    let at_timeout = resumptions(&fetch);
    assert!(at_timeout >= 1, "the stream was resumed while the request waited");
    JsFuture::from(sleep(1_500)).await.unwrap();
    let after = resumptions(&fetch) - at_timeout;
    assert!(after <= 1, "{after} resumptions after the request was given up");
}

#[wasm_bindgen_test]
async fn a_server_error_is_an_mcp_error_with_code_and_data() {
    let error = list_tools_error("rpcError").await;
    assert_eq!(kind_of(&error), "McpError");
    assert_eq!(field(&error, "code").as_f64(), Some(-32602.0));
    assert_eq!(field(&field(&error, "data"), "field").as_string().as_deref(), Some("a"));
    assert!(error.is_instance_of::<js_sys::Error>());
}

#[wasm_bindgen_test]
async fn a_tool_result_of_the_wrong_shape_is_refused() {
    let client = client_with("badContent").await;
    let params = js_sys::JSON::parse(r#"{"name":"x"}"#).unwrap();
    let error = JsFuture::from(client.call_tool(params, JsValue::UNDEFINED)).await.expect_err("bad content");
    assert_eq!(kind_of(&error), "protocol");
}

#[wasm_bindgen_test]
async fn utf8_split_byte_by_byte_decodes() {
    let client = client_with("splitUtf8").await;
    let params = js_sys::JSON::parse(r#"{"name":"x"}"#).unwrap();
    let result = JsFuture::from(client.call_tool(params, JsValue::UNDEFINED)).await.expect("decodes");
    assert_eq!(first_text(&result), "héllo 🦀");
}

#[wasm_bindgen_test]
async fn initialize_answers_we_cannot_accept() {
    for (result, kind) in [
        (r#"{"protocolVersion":"2099-01-01","capabilities":{},"serverInfo":{"name":"s","version":"1"}}"#, "unsupported-version"),
        (r#"{"capabilities":{},"serverInfo":{"name":"s","version":"1"}}"#, "protocol"),
        (r#"[]"#, "protocol"),
    ] {
        let fetch = init_reply(&js_sys::JSON::parse(result).unwrap());
        let error = McpClient::connect(JsValue::from_str(URL), opts(&fetch, &JsValue::UNDEFINED)).await.expect_err(result);
        assert_eq!(kind_of(&error), kind, "{result}");
    }
}

#[wasm_bindgen_test]
async fn wrong_values_from_js_are_invalid_arguments() {
    let fetch = scripted(&reply("rpcError"));
    let bad_connects = [
        (JsValue::from_str("not a url"), opts(&fetch, &JsValue::UNDEFINED)),
        (JsValue::from(42), opts(&fetch, &JsValue::UNDEFINED)),
        (JsValue::from_str(URL), JsValue::from_str("options?")),
        (JsValue::from_str(URL), opts(&JsValue::from(1), &JsValue::UNDEFINED)),
        (JsValue::from_str(URL), opts(&fetch, &js_sys::JSON::parse(r#"{"timeout":-5}"#).unwrap())),
        (JsValue::from_str(URL), opts(&fetch, &js_sys::JSON::parse(r#"{"protocolVersion":"1.0"}"#).unwrap())),
        (JsValue::from_str(URL), opts(&fetch, &js_sys::JSON::parse(r#"{"clientInfo":{"name":1}}"#).unwrap())),
        (JsValue::from_str(URL), opts(&fetch, &js_sys::JSON::parse(r#"{"signal":{}}"#).unwrap())),
        (JsValue::from_str(URL), opts(&fetch, &js_sys::JSON::parse(r#"{"headers":7}"#).unwrap())),
    ];
    for (url, options) in bad_connects {
        let error = McpClient::connect(url, options).await.expect_err("refused");
        assert_eq!(kind_of(&error), "invalid-argument", "{:?}", field(&error, "message"));
    }
    let client = client_with("rpcError").await;
    for params in ["null", "{}", r#"{"name":5}"#, r#"{"name":"x","arguments":[1]}"#] {
        let params = js_sys::JSON::parse(params).unwrap();
        let error = JsFuture::from(client.call_tool(params, JsValue::UNDEFINED)).await.expect_err("refused");
        assert_eq!(kind_of(&error), "invalid-argument");
    }
    let error = JsFuture::from(client.list_tools(JsValue::from_str("cursor"), JsValue::UNDEFINED)).await.expect_err("refused");
    assert_eq!(kind_of(&error), "invalid-argument");
    let error = JsFuture::from(client.ping(js_sys::JSON::parse(r#"{"timeout":"soon"}"#).unwrap())).await.expect_err("refused");
    assert_eq!(kind_of(&error), "invalid-argument");
    let _: Promise = client.close();
}

#[wasm_bindgen_test]
async fn undeclared_capabilities_fail_before_sending_unless_relaxed() {
    let fetch = counting_fetch(&scripted(&reply("rpcError")));
    let client = McpClient::connect(JsValue::from_str(URL), opts(&fetch, &JsValue::UNDEFINED)).await.expect("connect");
    let sent = call_count(&fetch);
    let params = js_sys::JSON::parse(r#"{"name":"p"}"#).unwrap();
    let error = JsFuture::from(client.get_prompt(params.clone(), JsValue::UNDEFINED)).await.expect_err("unsupported");
    assert_eq!(kind_of(&error), "unsupported");
    assert_eq!(call_count(&fetch), sent, "nothing was sent");
    let relaxed = js_sys::JSON::parse(r#"{"strictCapabilities":false}"#).unwrap();
    let client = McpClient::connect(JsValue::from_str(URL), opts(&fetch, &relaxed)).await.expect("connect");
    let error = JsFuture::from(client.get_prompt(params, JsValue::UNDEFINED)).await.expect_err("the server refuses");
    assert_eq!(kind_of(&error), "McpError", "the request went out and the server answered");
}

#[wasm_bindgen_test]
async fn an_endpoint_on_another_origin_is_refused() {
    let extra = js_sys::JSON::parse(r#"{"transport":"sse","sseReader":"fetch"}"#).unwrap();
    let error =
        McpClient::connect(JsValue::from_str("http://127.0.0.1:9/sse"), opts(&foreign_endpoint(), &extra)).await.expect_err("refused");
    assert_eq!(kind_of(&error), "protocol");
    let message = field(&error, "message").as_string().unwrap_or_default();
    assert!(message.contains("another origin"), "{message}");
}
