//! Headless Chromium: choosing and surviving transports. HTTP+SSE through
//! both readers (EventSource and fetch) against server-everything in `sse`
//! mode, automatic selection and its limits, session renewal after the server
//! ends the session, and a user-supplied transport over a MessageChannel.
// A test may unwrap and index: a failure here is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

use mcp_wasm::McpClient;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const STREAMABLE: &str = match option_env!("MCP_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38011/mcp",
};
const SSE: &str = match option_env!("MCP_SSE_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38012/sse",
};

#[wasm_bindgen(inline_js = r#"
const check = (ok, message) => { if (!ok) throw new Error(message); };
const textOf = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

export function json(text) { return JSON.parse(text); }

export async function basicFlow(client, transport) {
  check(client.transport === transport, `transport ${client.transport}, expected ${transport}`);
  const tools = await client.listAllTools();
  check(tools.some((t) => t.name === "get-sum"), "tools listed");
  const sum = await client.callTool({ name: "get-sum", arguments: { a: 20, b: 22 } });
  check(textOf(sum).includes("42"), textOf(sum));
  await client.ping();
  await client.close();
}

// A fetch that remembers which reader and methods were used.
export function watchingFetch() {
  const seen = [];
  const f = async (url, init) => { seen.push(`${init.method} ${new URL(url).pathname}`); return fetch(url, init); };
  f.seen = seen;
  return f;
}
export function seen(f) { return f.seen.join(", "); }

// Sends our POSTs to a session server-everything does not know: it logs and
// never answers, so only the request timeout can end them.
export function lostSessionFetch() {
  return async (url, init) => {
    const u = new URL(url);
    if (init.method === "POST" && u.searchParams.has("sessionId") && JSON.parse(init.body).method === "tools/list") u.searchParams.set("sessionId", "00000000-0000-0000-0000-000000000000");
    return fetch(u.href, init);
  };
}

export function scriptedStatus(status) {
  return async () => new Response(JSON.stringify({ error: "no" }), { status, headers: { "content-type": "application/json", "www-authenticate": "Bearer" } });
}

export async function expire(url, sessionId) {
  await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sessionId } });
}

export async function renewalFlow(client, url) {
  const before = client.sessionId;
  const renewed = [];
  client.addEventListener("sessionrenewed", (e) => renewed.push([e.previousSessionId, e.sessionId]));
  await expire(url, before);
  // Both calls hit the ended session; one renewal serves both, each is replayed once.
  const [a, b] = await Promise.all([
    client.callTool({ name: "echo", arguments: { message: "one" } }),
    client.callTool({ name: "echo", arguments: { message: "two" } }),
  ]);
  check(textOf(a) === "Echo: one" && textOf(b) === "Echo: two", `${textOf(a)} / ${textOf(b)}`);
  check(renewed.length === 1 && renewed[0][0] === before && renewed[0][1] === client.sessionId && client.sessionId !== before, JSON.stringify(renewed));
  await client.close();
}

// A small MCP server living in the page, on the far end of a MessageChannel.
export function pageServer() {
  const channel = new MessageChannel();
  const port = channel.port2;
  port.onmessage = ({ data }) => {
    if (!("id" in data) || !data.method) return;
    const reply = (result) => port.postMessage({ jsonrpc: "2.0", id: data.id, result });
    if (data.method === "initialize") reply({ protocolVersion: data.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "in-page", version: "1" } });
    else if (data.method === "tools/list") reply({ tools: [{ name: "shout", inputSchema: { type: "object" } }] });
    else if (data.method === "tools/call") {
      port.postMessage({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "shouting" } });
      reply({ content: [{ type: "text", text: String(data.params.arguments.text).toUpperCase() }] });
    } else port.postMessage({ jsonrpc: "2.0", id: data.id, error: { code: -32601, message: "no" } });
  };
  port.start();
  const client = channel.port1;
  const transport = {
    closed: false,
    start() { client.onmessage = (e) => this.onmessage?.(e.data); },
    send(message) { client.postMessage(message); },
    close() { this.closed = true; client.close(); },
  };
  return transport;
}

export async function pageFlow(client, transport) {
  check(client.transport === "custom" && client.serverInfo.name === "in-page", `${client.transport} ${client.serverInfo.name}`);
  const logs = [];
  client.addEventListener("notifications/message", (e) => logs.push(e.params.data));
  const result = await client.callTool({ name: "shout", arguments: { text: "hello" } });
  check(textOf(result) === "HELLO", textOf(result));
  check(logs.join() === "shouting", `notifications over the channel: ${logs}`);
  await client.close();
  check(transport.closed, "close() reached the transport");
}
"#)]
extern "C" {
    fn json(text: &str) -> JsValue;
    #[wasm_bindgen(js_name = basicFlow)]
    fn basic_flow(client: &JsValue, transport: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_name = watchingFetch)]
    fn watching_fetch() -> JsValue;
    fn seen(fetch: &JsValue) -> String;
    #[wasm_bindgen(js_name = lostSessionFetch)]
    fn lost_session_fetch() -> JsValue;
    #[wasm_bindgen(js_name = scriptedStatus)]
    fn scripted_status(status: u16) -> JsValue;
    #[wasm_bindgen(js_name = renewalFlow)]
    fn renewal_flow(client: &JsValue, url: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_name = pageServer)]
    fn page_server() -> JsValue;
    #[wasm_bindgen(js_name = pageFlow)]
    fn page_flow(client: &JsValue, transport: &JsValue) -> js_sys::Promise;
}

fn set(object: &JsValue, key: &str, value: &JsValue) -> JsValue {
    let _ = js_sys::Reflect::set(object, &key.into(), value);
    object.clone()
}

fn field(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

async fn ok(flow: js_sys::Promise) {
    if let Err(error) = JsFuture::from(flow).await {
        panic!("{}", field(&error, "message").as_string().unwrap_or_else(|| format!("{error:?}")));
    }
}

async fn connect(url: &str, options: &str) -> Result<JsValue, JsValue> {
    McpClient::connect(JsValue::from_str(url), json(options)).await.map(JsValue::from)
}

#[wasm_bindgen_test]
async fn auto_picks_streamable_http_or_sse() {
    let client = connect(STREAMABLE, r#"{"timeout":10000}"#).await.expect("streamable");
    ok(basic_flow(&client, "streamable-http")).await;
    let client = connect(SSE, r#"{"timeout":10000}"#).await.expect("sse by fallback");
    ok(basic_flow(&client, "sse")).await;
}

#[wasm_bindgen_test]
async fn sse_through_eventsource_and_through_fetch() {
    // In a browser, with no headers and no custom fetch, EventSource reads the stream.
    let client = connect(SSE, r#"{"transport":"sse","timeout":10000}"#).await.expect("eventsource");
    ok(basic_flow(&client, "sse")).await;
    // Forcing the fetch reader: the GET of the stream goes through fetch too.
    let fetch = watching_fetch();
    let options = set(&json(r#"{"transport":"sse","sseReader":"fetch","timeout":10000}"#), "fetch", &fetch);
    let client = McpClient::connect(JsValue::from_str(SSE), options).await.map(JsValue::from).expect("fetch reader");
    ok(basic_flow(&client, "sse")).await;
    assert!(seen(&fetch).starts_with("GET /sse, POST /message"), "{}", seen(&fetch));
    // Headers rule EventSource out, so the fetch reader is chosen by itself.
    let client = connect(SSE, r#"{"transport":"sse","headers":{"x-trace":"1"},"timeout":10000}"#).await.expect("headers");
    ok(basic_flow(&client, "sse")).await;
}

#[wasm_bindgen_test]
async fn forced_choices_and_errors_that_are_not_legacy() {
    let error = connect(SSE, r#"{"transport":"streamable-http","timeout":5000}"#).await.expect_err("no fallback when forced");
    assert_eq!((field(&error, "kind").as_string().as_deref(), field(&error, "status").as_f64()), (Some("http"), Some(404.0)));
    let error = connect(STREAMABLE, r#"{"transport":"sse","timeout":3000}"#).await.expect_err("not an SSE endpoint");
    assert!(
        matches!(field(&error, "kind").as_string().as_deref(), Some("protocol" | "http" | "network")),
        "{:?}",
        field(&error, "message")
    );
    for status in [500, 502, 401, 403] {
        let options = set(&json(r#"{"timeout":3000}"#), "fetch", &scripted_status(status));
        let error = McpClient::connect(JsValue::from_str(STREAMABLE), options).await.expect_err("refused");
        assert_eq!(field(&error, "status").as_f64(), Some(f64::from(status)), "HTTP {status} is reported, not taken for a legacy server");
    }
}

#[wasm_bindgen_test]
async fn an_unanswered_sse_post_ends_in_the_timeout() {
    let options = set(&json(r#"{"transport":"sse","sseReader":"fetch","timeout":5000}"#), "fetch", &lost_session_fetch());
    let client = McpClient::connect(JsValue::from_str(SSE), options).await.expect("connect");
    let error = JsFuture::from(client.list_tools(JsValue::UNDEFINED, json(r#"{"timeout":700}"#))).await.expect_err("never answered");
    assert_eq!(field(&error, "kind").as_string().as_deref(), Some("timeout"));
    let _ = JsFuture::from(client.close()).await;
}

#[wasm_bindgen_test]
async fn an_ended_session_is_renewed_and_calls_replayed() {
    let client = connect(STREAMABLE, r#"{"timeout":10000}"#).await.expect("connect");
    ok(renewal_flow(&client, STREAMABLE)).await;
}

#[wasm_bindgen_test]
async fn a_user_transport_over_a_message_channel() {
    let transport = page_server();
    let client = McpClient::connect(transport.clone(), json(r#"{"timeout":3000}"#)).await.map(JsValue::from).expect("connect");
    ok(page_flow(&client, &transport)).await;
}
