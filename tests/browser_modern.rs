//! Headless Chromium: the 2026-07-28 revision and era detection. The modern
//! peers are built on `@modelcontextprotocol/server` 2.x (tests/peers/
//! modern-server.mjs): one speaks only 2026-07-28, one also the legacy
//! revisions. Every message sent to a modern server is validated against the
//! 2026-07-28 JSON Schema.
// A test may unwrap and index: a failure here is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

#[path = "support/spec.rs"]
mod spec;

use mcp_wasm::McpClient;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

// scripts/peers.sh publishes where the peers listen; the defaults are its ports of old.
const MODERN: &str = match option_env!("MCP_MODERN_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38013/mcp",
};
const DUAL: &str = match option_env!("MCP_DUAL_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38016/mcp",
};
const EVERYTHING: &str = match option_env!("MCP_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38011/mcp",
};
const EVERYTHING_SSE: &str = match option_env!("MCP_SSE_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38012/sse",
};
const FAULT_PROXY: &str = match option_env!("MCP_FAULT_PROXY") {
    Some(url) => url,
    None => "http://127.0.0.1:38050",
};

/// server-everything behind a preflight allow-list without Mcp-Method and Mcp-Name.
fn narrow_cors() -> String {
    format!("{FAULT_PROXY}/narrow-cors/mcp")
}

#[wasm_bindgen(inline_js = r#"
const check = (ok, message) => { if (!ok) throw new Error(message); };
const textOf = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
const within = (ms, p, what) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error(`timed out: ${what}`)), ms))]);

export function recorder() {
  const bodies = [];
  const headers = [];
  const f = async (url, init) => {
    if (typeof init.body === "string") { bodies.push(init.body); headers.push(Object.fromEntries(new Headers(init.headers))); }
    return fetch(url, init);
  };
  return { fetch: f, bodies, headers };
}
export function bodies(rec) { return rec.bodies.slice(); }

export function hostOptions(rec) {
  const seen = { elicitation: 0, sampling: 0, roots: 0 };
  return { seen, options: { fetch: rec.fetch, timeout: 10000, handlers: {
    elicitation(params) { seen.elicitation++; check(params.mode === "form" && params.requestedSchema, "a form elicitation"); return { action: "accept", content: {} }; },
    sampling(params) { seen.sampling++; return { role: "assistant", content: { type: "text", text: `sampled ${params.maxTokens}` }, model: "m" }; },
    roots() { seen.roots++; return [{ uri: "file:///home/ada/project", name: "project" }]; },
  } } };
}

export async function cacheFlow(connect, url) {
  const rec = recorder();
  const client = await connect(url, { fetch: rec.fetch, cache: true, timeout: 10000 });
  const lists = () => rec.bodies.filter((b) => b.includes('"tools/list"')).length;
  const first = await client.listTools();
  check(first.ttlMs === 60000 && first.cacheScope === "public", JSON.stringify({ ttl: first.ttlMs, scope: first.cacheScope }));
  const again = await client.listTools();
  check(lists() === 1 && again.tools.length === first.tools.length, `served from the cache: ${lists()} requests`);
  // resources/read says ttlMs 0: never cached.
  await client.readResource({ uri: "demo://static/readme" });
  await client.readResource({ uri: "demo://static/readme" });
  check(rec.bodies.filter((b) => b.includes('"resources/read"')).length === 2, "ttlMs 0 is not cached");
  // A list change makes the cached list stale.
  const changed = new Promise((r) => client.addEventListener("notifications/tools/list_changed", () => r(), { once: true }));
  await client.callTool({ name: "add-tool", arguments: { name: `cached-${Date.now()}` } });
  await within(5000, changed, "tools/list_changed");
  const fresh = await client.listTools();
  check(lists() === 2 && fresh.tools.length === first.tools.length + 1, `refetched after the change: ${lists()}`);
  await client.close();
}

export async function detection(connect, urls) {
  const found = [];
  for (const [url, options] of urls) {
    const client = await connect(url, options);
    found.push(`${client.era}/${client.transport}`);
    check(client.era === "legacy" || client.sessionId === undefined, "no session in the modern era");
    await client.close();
  }
  return found.join(" ");
}

export async function modernFlow(client, host, rec) {
  check(client.era === "modern" && client.protocolVersion === "2026-07-28" && client.sessionId === undefined, `${client.era} ${client.protocolVersion}`);
  check(client.serverInfo.name === "mcp-wasm-modern-peer", client.serverInfo.name);
  const tools = await client.listAllTools();
  check(tools.some((t) => t.name === "echo-region"), tools.map((t) => t.name).join());
  check(textOf(await client.callTool({ name: "echo", arguments: { message: "hi" } })) === "Echo: hi", "echo");
  const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
  check(sum.structuredContent.sum === 5 && !("resultType" in sum), JSON.stringify(sum));

  // MRTR: the same handlers as the legacy era answer the server's input requests.
  check(textOf(await client.callTool({ name: "ask-user" })) === "Hello, Ada", "elicitation via MRTR, with the schema default");
  check(textOf(await client.callTool({ name: "ask-model" })) === "sampled 16", "sampling via MRTR");
  check(textOf(await client.callTool({ name: "list-roots" })) === "file:///home/ada/project", "roots via MRTR");
  check(host.seen.elicitation === 1 && host.seen.sampling === 1 && host.seen.roots === 1, JSON.stringify(host.seen));

  // Standard headers: Mcp-Method, Mcp-Name, and Mcp-Param-* from x-mcp-header (base64 when not plain ASCII).
  const region = await client.callTool({ name: "echo-region", arguments: { region: "São Paulo" } });
  check(textOf(region) === "region=São Paulo header==?base64?U8OjbyBQYXVsbw==?=", textOf(region));
  const call = rec.headers[rec.bodies.findIndex((b) => b.includes('"echo"'))];
  check(call["mcp-method"] === "tools/call" && call["mcp-name"] === "echo" && call["mcp-protocol-version"] === "2026-07-28", JSON.stringify(call));

  // Logging is per request (_meta logLevel); progress as before.
  await client.setLoggingLevel("info");
  const logs = [];
  client.addEventListener("notifications/message", (e) => logs.push(e.params.data));
  const steps = [];
  await client.callTool({ name: "slow", arguments: { steps: 3 } }, { onprogress: (p) => steps.push(p.progress) });
  check(steps.join() === "1,2,3" && logs.join(";") === "step 1/3;step 2/3;step 3/3", `${steps} / ${logs}`);

  // Resources, prompts, completion.
  check((await client.readResource({ uri: "demo://items/7" })).contents[0].text === "item 7", "template read");
  check(JSON.stringify(await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).includes("Ada"), "prompt");
  const names = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } });
  check(names.completion.values.join() === "Ada,Alan", names.completion.values.join());

  // subscriptions/listen carries subscriptions and list changes, behind the same API as the legacy era.
  const updated = new Promise((r) => client.addEventListener("notifications/resources/updated", (e) => r(e.params.uri), { once: true }));
  await client.subscribeResource({ uri: "demo://static/readme" });
  await client.callTool({ name: "touch", arguments: { uri: "demo://static/readme" } });
  check(await within(5000, updated, "resources/updated") === "demo://static/readme", "resource update");
  const changed = new Promise((r) => client.addEventListener("notifications/tools/list_changed", () => r(true), { once: true }));
  await client.callTool({ name: "add-tool", arguments: { name: `added-${Date.now()}` } });
  check(await within(5000, changed, "tools/list_changed"), "list change");

  // Cancellation closes the request's stream: nothing is sent for it.
  const controller = new AbortController();
  setTimeout(() => controller.abort("stop"), 250);
  try { await client.callTool({ name: "slow", arguments: { steps: 20 } }, { signal: controller.signal }); check(false, "not aborted"); }
  catch (e) { check(e === "stop", `rejected with ${e}`); }
  check(!rec.bodies.some((b) => b.includes("notifications/cancelled")), "no notifications/cancelled over modern HTTP");

  // Legacy-only calls fail before anything is sent.
  const before = rec.bodies.length;
  for (const call of [() => client.ping(), () => client.sendRootsListChanged()]) {
    try { await call(); check(false, "a removed method succeeded"); } catch (e) { check(e.kind === "unsupported", e.kind); }
  }
  check(rec.bodies.length === before, "nothing sent for removed methods");
}
"#)]
extern "C" {
    fn recorder() -> JsValue;
    fn bodies(recorder: &JsValue) -> Vec<String>;
    #[wasm_bindgen(js_name = hostOptions)]
    fn host_options(recorder: &JsValue) -> JsValue;
    fn detection(connect: &JsValue, urls: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = cacheFlow)]
    fn cache_flow(connect: &JsValue, url: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_name = modernFlow)]
    fn modern_flow(client: &JsValue, host: &JsValue, recorder: &JsValue) -> js_sys::Promise;
}

fn field(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

async fn ok(flow: js_sys::Promise) -> JsValue {
    match JsFuture::from(flow).await {
        Ok(value) => value,
        Err(error) => panic!("{}", field(&error, "message").as_string().unwrap_or_else(|| format!("{error:?}"))),
    }
}

fn connect_fn() -> JsValue {
    Closure::<dyn FnMut(JsValue, JsValue) -> js_sys::Promise>::new(|url: JsValue, options: JsValue| {
        wasm_bindgen_futures::future_to_promise(async move { McpClient::connect(url, options).await.map(JsValue::from) })
    })
    .into_js_value()
}

#[wasm_bindgen_test]
async fn the_era_and_transport_are_detected() {
    let plain = js_sys::JSON::parse(r#"{"timeout":8000}"#).unwrap();
    let urls = js_sys::Array::new();
    for url in [MODERN, DUAL, EVERYTHING, EVERYTHING_SSE, &narrow_cors()] {
        urls.push(&js_sys::Array::of2(&url.into(), &plain));
    }
    // A pinned era skips the probe: the dual server then speaks legacy.
    urls.push(&js_sys::Array::of2(&DUAL.into(), &js_sys::JSON::parse(r#"{"era":"legacy","timeout":8000}"#).unwrap()));
    let found = ok(detection(&connect_fn(), &urls)).await.as_string().unwrap_or_default();
    assert_eq!(
        found,
        "modern/streamable-http modern/streamable-http legacy/streamable-http legacy/sse legacy/streamable-http legacy/streamable-http"
    );
    let pinned = js_sys::JSON::parse(r#"{"era":"modern","timeout":8000}"#).unwrap();
    let error = McpClient::connect(EVERYTHING.into(), pinned).await.expect_err("a legacy server cannot speak modern");
    assert!(field(&error, "name").as_string().is_some_and(|n| n.starts_with("Mcp")), "{error:?}");
}

#[wasm_bindgen_test]
async fn the_surface_against_a_modern_server() {
    for url in [MODERN, DUAL] {
        let rec = recorder();
        let host = host_options(&rec);
        let client = JsValue::from(McpClient::connect(url.into(), field(&host, "options")).await.expect("connect"));
        ok(modern_flow(&client, &host, &rec)).await;
        let close = js_sys::Function::from(field(&client, "close"));
        let _ = JsFuture::from(close.call0(&client).unwrap().unchecked_into::<js_sys::Promise>()).await;
        assert!(spec::assert_valid_modern_messages(&bodies(&rec)) > 15);
    }
}

#[wasm_bindgen_test]
async fn the_cache_follows_ttl_scope_and_list_changes() {
    ok(cache_flow(&connect_fn(), MODERN)).await;
}
