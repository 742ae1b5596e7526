//! Headless Chromium: server-to-client requests and notifications from a
//! scripted server, for the edge cases a real server does not produce on
//! demand (errors thrown by handlers, server-side cancellation, refused
//! answers, a lagging iterator, a tool result that breaks its outputSchema).
// A test may unwrap and index: a failure here is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

use mcp_wasm::McpClient;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const check = (ok, message) => { if (!ok) throw new Error(message); };
const encoder = new TextEncoder();
const sseEvent = (message) => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
const json = (body) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
const TOOL = { name: "t", inputSchema: { type: "object" }, outputSchema: { type: "object",
  properties: { temperature: { type: "number" } }, required: ["temperature"] } };

// A server whose tools/call answers with an SSE stream the test writes to, and
// which records the messages the client POSTs back.
export function scriptedServer() {
  const posted = [];
  const waiters = [];
  let stream;
  const server = {
    posted,
    send(message) { stream.enqueue(sseEvent(message)); },
    end() { stream.close(); },
    async response(id) {
      for (let i = 0; i < 200; i++) {
        const found = posted.find((m) => m.id === id && !("method" in m));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no response to ${id}`);
    },
    fetch: async (url, init) => {
      if (init.method !== "POST") return new Response(null, { status: 405 });
      const message = JSON.parse(init.body);
      posted.push(message);
      // A legacy server: the era probe is not found.
      if (message.method === "server/discover") return new Response(null, { status: 404 });
      if (message.method === "initialize") {
        return json({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-11-25",
          capabilities: { tools: {} }, serverInfo: { name: "scripted", version: "1" } } });
      }
      if (message.method === "tools/list") return json({ jsonrpc: "2.0", id: message.id, result: { tools: [TOOL] } });
      if (message.method === "tools/call") {
        server.callId = message.id;
        return new Response(new ReadableStream({ start(c) { stream = c; } }), { headers: { "content-type": "text/event-stream" } });
      }
      return new Response(null, { status: 202 });
    },
  };
  return server;
}

async function connectWith(McpClient, server, handlers, extra) {
  return McpClient.connect("http://127.0.0.1:9/mcp", Object.assign({ fetch: server.fetch, timeout: 3000, handlers }, extra || {}));
}

export async function handlerErrors(client, server) {
  const call = client.callTool({ name: "t" });
  await new Promise((r) => setTimeout(r, 20));
  server.send({ jsonrpc: "2.0", id: "e1", method: "elicitation/create", params: { message: "?", requestedSchema: { type: "object", properties: {} } } });
  const coded = await server.response("e1");
  check(coded.error.code === -32042 && coded.error.message === "needs a browser" && coded.error.data.url === "https://x", JSON.stringify(coded));
  server.send({ jsonrpc: "2.0", id: "s1", method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } });
  const plain = await server.response("s1");
  check(plain.error.code === -32603 && plain.error.message === "model down", JSON.stringify(plain));
  server.send({ jsonrpc: "2.0", id: "r1", method: "roots/list" });
  const missing = await server.response("r1");
  check(missing.error.code === -32601, "no roots handler: method not found");
  server.send({ jsonrpc: "2.0", id: "p1", method: "ping" });
  check((await server.response("p1")).result !== undefined, "ping is always answered");
  server.send({ jsonrpc: "2.0", id: server.callId, result: { content: [], structuredContent: { temperature: 21 } } });
  await call;
}

export async function serverCancellation(client, server, seen) {
  const call = client.callTool({ name: "t" });
  await new Promise((r) => setTimeout(r, 20));
  server.send({ jsonrpc: "2.0", id: "slow", method: "elicitation/create", params: { message: "?", requestedSchema: { type: "object", properties: {} } } });
  await new Promise((r) => setTimeout(r, 50));
  check(seen.signal && !seen.signal.aborted, "the handler is waiting");
  server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "slow", reason: "user left" } });
  await new Promise((r) => setTimeout(r, 50));
  check(seen.signal.aborted && seen.signal.reason === "user left", `aborted with ${seen.signal.reason}`);
  seen.release({ action: "accept", content: {} });
  await new Promise((r) => setTimeout(r, 100));
  check(!server.posted.some((m) => m.id === "slow"), "nothing is sent for a cancelled request");
  server.send({ jsonrpc: "2.0", id: server.callId, result: { content: [], structuredContent: { temperature: 1 } } });
  await call;
}

export async function refusedAnswers(client, server) {
  const errors = [];
  client.addEventListener("error", (e) => errors.push(e.error));
  const call = client.callTool({ name: "t" });
  await new Promise((r) => setTimeout(r, 20));
  server.send({ jsonrpc: "2.0", id: "bad", method: "elicitation/create",
    params: { message: "age?", requestedSchema: { type: "object", properties: { age: { type: "integer" } }, required: ["age"] } } });
  const refused = await server.response("bad");
  check(refused.error.code === -32602, JSON.stringify(refused));
  check(errors.length === 1 && errors[0].kind === "invalid-result", "the bad answer is reported locally");
  // URL-mode completion arrives as a typed event.
  const completed = new Promise((resolve) => client.addEventListener("notifications/elicitation/complete", (e) => resolve(e.params.elicitationId)));
  server.send({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "el-1" } });
  check((await completed) === "el-1", "elicitation/complete event");
  server.send({ jsonrpc: "2.0", id: server.callId, result: { content: [], structuredContent: { temperature: "warm" } } });
  try { await call; check(false, "invalid structuredContent resolved"); }
  catch (e) { check(e.kind === "invalid-result" && e.message.includes("/temperature"), `${e.kind}: ${e.message}`); }
}

export async function laggingIterator(client, server) {
  const slow = client.notifications({ bufferSize: 2 });
  const fast = client.notifications();
  const call = client.callTool({ name: "t" });
  await new Promise((r) => setTimeout(r, 20));
  for (let i = 0; i < 5; i++) server.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: i } });
  server.send({ jsonrpc: "2.0", id: server.callId, result: { content: [], structuredContent: { temperature: 2 } } });
  await call;
  check((await slow.next()).value.params.data === 0, "first buffered");
  check((await slow.next()).value.params.data === 1, "second buffered");
  try { await slow.next(); check(false, "the lagging iterator went on"); } catch (e) { check(e.kind === "lagged", `kind ${e.kind}`); }
  for (let i = 0; i < 5; i++) check((await fast.next()).value.params.data === i, "the fast iterator saw everything");
  await client.close();
  check((await fast.next()).done, "close ends iterators");
}

export async function unvalidated(client, server) {
  const call = client.callTool({ name: "t" });
  await new Promise((r) => setTimeout(r, 20));
  server.send({ jsonrpc: "2.0", id: server.callId, result: { content: [], structuredContent: { temperature: "warm" } } });
  check((await call).structuredContent.temperature === "warm", "validateToolOutput: false passes it through");
}

export function handlersFor(kind, seen) {
  if (kind === "errors") return {
    elicitation() { const e = new Error("needs a browser"); e.code = -32042; e.data = { url: "https://x" }; throw e; },
    async sampling() { throw Object.assign(new Error("model down"), { code: 1.5 }); },
  };
  if (kind === "cancel") return {
    elicitation(params, ctx) { seen.signal = ctx.signal; return new Promise((resolve) => (seen.release = resolve)); },
  };
  return { elicitation: () => ({ action: "accept", content: { age: "old" } }) };
}
export function options(server, handlers, extra) { return Object.assign({ fetch: server.fetch, timeout: 3000, handlers }, extra || {}); }
"#)]
extern "C" {
    #[wasm_bindgen(js_name = scriptedServer)]
    fn scripted_server() -> JsValue;
    #[wasm_bindgen(js_name = handlersFor)]
    fn handlers_for(kind: &str, seen: &JsValue) -> JsValue;
    fn options(server: &JsValue, handlers: &JsValue, extra: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = handlerErrors)]
    fn handler_errors(client: &JsValue, server: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = serverCancellation)]
    fn server_cancellation(client: &JsValue, server: &JsValue, seen: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = refusedAnswers)]
    fn refused_answers(client: &JsValue, server: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = laggingIterator)]
    fn lagging_iterator(client: &JsValue, server: &JsValue) -> js_sys::Promise;
    fn unvalidated(client: &JsValue, server: &JsValue) -> js_sys::Promise;
}

async fn client(server: &JsValue, handlers: &JsValue, extra: &str) -> JsValue {
    let extra = js_sys::JSON::parse(extra).unwrap();
    let client = McpClient::connect(JsValue::from_str("http://127.0.0.1:9/mcp"), options(server, handlers, &extra)).await.expect("connect");
    // listTools teaches the client the tool's outputSchema.
    JsFuture::from(client.list_tools(JsValue::UNDEFINED, JsValue::UNDEFINED)).await.expect("listTools");
    JsValue::from(client)
}

async fn expect_ok(flow: js_sys::Promise) {
    if let Err(error) = JsFuture::from(flow).await {
        let message = js_sys::Reflect::get(&error, &"message".into()).ok().and_then(|m| m.as_string());
        panic!("{}", message.unwrap_or_else(|| format!("{error:?}")));
    }
}

#[wasm_bindgen_test]
async fn handler_errors_map_to_json_rpc_errors() {
    let server = scripted_server();
    let client = client(&server, &handlers_for("errors", &JsValue::UNDEFINED), "{}").await;
    expect_ok(handler_errors(&client, &server)).await;
}

#[wasm_bindgen_test]
async fn server_cancellation_aborts_the_handlers_signal() {
    let server = scripted_server();
    let seen = js_sys::Object::new().into();
    let client = client(&server, &handlers_for("cancel", &seen), "{}").await;
    expect_ok(server_cancellation(&client, &server, &seen)).await;
}

#[wasm_bindgen_test]
async fn refused_answers_events_and_invalid_structured_content() {
    let server = scripted_server();
    let client = client(&server, &handlers_for("refuse", &JsValue::UNDEFINED), "{}").await;
    expect_ok(refused_answers(&client, &server)).await;
}

#[wasm_bindgen_test]
async fn a_lagging_iterator_ends_and_others_continue() {
    let server = scripted_server();
    let client = client(&server, &JsValue::UNDEFINED, "{}").await;
    expect_ok(lagging_iterator(&client, &server)).await;
}

#[wasm_bindgen_test]
async fn output_validation_can_be_turned_off() {
    let server = scripted_server();
    let client = client(&server, &JsValue::UNDEFINED, r#"{"validateToolOutput":false}"#).await;
    expect_ok(unvalidated(&client, &server)).await;
}
