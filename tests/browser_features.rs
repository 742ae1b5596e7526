//! The whole 2025-11-25 client surface in headless Chromium against a real
//! server-everything: tools with progress and structured content, sampling,
//! elicitation and roots answered by JS handlers, logging, subscriptions,
//! resources, templates, prompts, completion, paging and list changes. Every
//! message the client sends is validated against the spec's JSON Schema.
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

const SERVER: &str = match option_env!("MCP_TEST_URL") {
    Some(url) => url,
    None => "http://127.0.0.1:38011/mcp",
};

#[wasm_bindgen(inline_js = r#"
const check = (ok, message) => { if (!ok) throw new Error(message); };
const textOf = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
const within = (ms, promise, what) => Promise.race([promise,
  new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms))]);

export function recorder() {
  const bodies = [];
  const fetchFn = async (url, init) => { if (typeof init.body === "string") bodies.push(init.body); return fetch(url, init); };
  return { fetch: fetchFn, bodies };
}
export function bodies(rec) { return rec.bodies.slice(); }

// Handlers as a host application would write them, with a log of what they saw.
export function hostOptions(rec) {
  const seen = { sampling: [], elicitation: [], roots: 0 };
  let resourcesChanged;
  const resourcesArrived = new Promise((resolve) => (resourcesChanged = resolve));
  const options = {
    fetch: rec.fetch,
    timeout: 20000,
    handlers: {
      async sampling(params, ctx) {
        check(ctx.signal instanceof AbortSignal, "ctx.signal is an AbortSignal");
        seen.sampling.push(params);
        const prompt = params.messages[0].content.text;
        return { role: "assistant", content: { type: "text", text: `sampled: ${prompt}` }, model: "test-model", stopReason: "endTurn" };
      },
      elicitation(params) {
        seen.elicitation.push(params);
        if (params.mode === "url") return { action: "accept" };
        // A person fills in some fields; the client adds the schema's defaults.
        return { action: "accept", content: { name: "Ada", check: true, email: "ada@example.com", homepage: "https://example.com", birthdate: "1815-12-10" } };
      },
      roots() {
        seen.roots += 1;
        return [{ uri: "file:///home/ada/project", name: "project" }];
      },
    },
    listChanged: {
      resources: { debounceMs: 50, onChanged(error, resources) { if (resources) resourcesChanged(resources); } },
    },
  };
  return { options, seen, resourcesArrived };
}

export async function progressAndTimeouts(client) {
  const updates = [];
  const done = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 1, steps: 4 } },
    { onprogress: (p) => updates.push(p) });
  check(updates.length === 4, `4 progress updates, got ${updates.length}`);
  check(updates.every((u, i) => u.progress === i + 1 && u.total === 4), JSON.stringify(updates));
  check(textOf(done).includes("completed"), textOf(done));
  // Each step takes 500 ms: a 700 ms timeout survives when progress resets it…
  const steps = { name: "trigger-long-running-operation", arguments: { duration: 2, steps: 4 } };
  await client.callTool(steps, { timeout: 700, resetTimeoutOnProgress: true, onprogress() {} });
  // …but not past maxTotalTimeout.
  try {
    await client.callTool(steps, { timeout: 700, resetTimeoutOnProgress: true, maxTotalTimeout: 1200, onprogress() {} });
    check(false, "maxTotalTimeout should have fired");
  } catch (e) { check(e.kind === "timeout", `kind ${e.kind}: ${e.message}`); }
  // A progress callback that throws is reported, not fatal.
  const errors = [];
  client.addEventListener("error", (e) => errors.push(e.error), { once: true });
  await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 1 } },
    { onprogress() { throw new Error("callback bug"); } });
  check(errors.length === 1 && errors[0].message === "callback bug", "the throwing callback was reported");
}

export async function handlersFlow(client, host) {
  // server-everything registers these tools when it sees our capabilities in
  // `initialized`; its list_changed for them races our GET stream, so look.
  let names = [];
  for (let i = 0; i < 40 && !names.includes("get-roots-list"); i++) {
    names = (await client.listAllTools()).map((t) => t.name);
    if (!names.includes("get-roots-list")) await new Promise((r) => setTimeout(r, 50));
  }
  for (const n of ["trigger-sampling-request", "trigger-elicitation-request", "trigger-url-elicitation", "get-roots-list"]) {
    check(names.includes(n), `${n} registered for our capabilities: ${names}`);
  }
  const sampled = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hello world", maxTokens: 20 } });
  check(textOf(sampled).includes("sampled: ") && textOf(sampled).includes("hello world"), textOf(sampled));
  check(host.seen.sampling[0].maxTokens === 20, "the handler saw the server's params");

  const elicited = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
  const text = textOf(elicited);
  check(text.includes("Ada") && text.includes("It was a dark and stormy night.") && text.includes("42"), text);

  const url = await client.callTool({ name: "trigger-url-elicitation", arguments: { url: "https://example.com/consent" } });
  check(textOf(url).includes("User completed the URL elicitation"), textOf(url));
  check(host.seen.elicitation[1].mode === "url" && host.seen.elicitation[1].url === "https://example.com/consent", "URL mode params");
  try {
    await client.callTool({ name: "trigger-url-elicitation", arguments: { url: "https://example.com/x", errorPath: true } });
    check(false, "the error path should reject");
  } catch (e) {
    check(e.name === "McpError" && e.code === -32042 && Array.isArray(e.data?.elicitations), `${e.name} ${e.code}`);
  }

  const roots = await client.callTool({ name: "get-roots-list", arguments: {} });
  check(textOf(roots).includes("file:///home/ada/project"), textOf(roots));
  const before = host.seen.roots;
  await client.sendRootsListChanged();
  for (let i = 0; i < 50 && host.seen.roots === before; i++) await new Promise((r) => setTimeout(r, 50));
  check(host.seen.roots > before, "roots/list_changed made the server ask again");

  // A new session resource makes the server send resources/list_changed; the
  // client re-lists on its own and hands over the fresh list.
  await client.callTool({ name: "gzip-file-as-resource", arguments: { name: "hello.txt", data: "data:text/plain;base64,aGVsbG8=", outputType: "resourceLink" } });
  const resources = await within(5000, host.resourcesArrived, "the auto-refreshed resource list");
  check(resources.some((r) => r.uri.endsWith("hello.txt")), resources.map((r) => r.uri).join());
}

export async function loggingAndEvents(client) {
  await client.setLoggingLevel("debug");
  const iterator = client.notifications({ method: "notifications/message" });
  const heard = [];
  const all = [];
  const broken = () => { throw new Error("listener bug"); };
  const errors = [];
  client.addEventListener("notifications/message", broken);
  client.addEventListener("notifications/message", (e) => heard.push(e.params.level));
  client.addEventListener("notification", (e) => all.push(e.notification.method));
  client.addEventListener("error", (e) => errors.push(e.error));
  await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
  const first = await within(8000, iterator.next(), "a log message");
  check(!first.done && first.value.method === "notifications/message" && typeof first.value.params.level === "string", JSON.stringify(first));
  for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  check(heard.length > 0, "the typed listener heard the log message");
  check(errors.some((e) => e.message === "listener bug"), "a throwing listener became an error event");
  check(all.includes("notifications/message"), "the catch-all listener heard it");
  await iterator.return();
  check((await iterator.next()).done, "return() ends the iterator");
  await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
  client.removeEventListener("notifications/message", broken);
}

export async function resourcesPromptsCompletion(client) {
  const page = await client.listResources();
  const all = await client.listAllResources();
  const iterated = [];
  for await (const r of client.iterateResources()) iterated.push(r.uri);
  check(all.length >= page.resources.length && all.length === iterated.length, `${all.length} vs ${iterated.length}`);
  check(all.map((r) => r.uri).join() === iterated.join(), "the iterator yields the same resources in order");
  const templates = await client.listAllResourceTemplates();
  check(templates.some((t) => t.uriTemplate === "demo://resource/dynamic/text/{resourceId}"), JSON.stringify(templates));
  const text = await client.readResource({ uri: "demo://resource/dynamic/text/1" });
  check(typeof text.contents[0].text === "string", JSON.stringify(text));
  const blob = await client.readResource({ uri: "demo://resource/dynamic/blob/1" });
  check(typeof blob.contents[0].blob === "string", "a blob resource is base64");

  const uri = all[0].uri;
  await client.subscribeResource({ uri });
  const updated = new Promise((resolve) => client.addEventListener("notifications/resources/updated", (e) => resolve(e.params.uri), { once: true }));
  await client.callTool({ name: "toggle-subscriber-updates", arguments: {} });
  const got = await within(8000, updated, "notifications/resources/updated");
  check(typeof got === "string", "the update names a resource");
  await client.callTool({ name: "toggle-subscriber-updates", arguments: {} });
  await client.unsubscribeResource({ uri });

  const prompts = await client.listAllPrompts();
  check(prompts.some((p) => p.name === "args-prompt"), prompts.map((p) => p.name).join());
  const prompt = await client.getPrompt({ name: "args-prompt", arguments: { city: "Paris", state: "TX" } });
  check(JSON.stringify(prompt.messages).includes("Paris"), JSON.stringify(prompt));
  const completed = await client.complete({ ref: { type: "ref/prompt", name: "completable-prompt" }, argument: { name: "department", value: "E" } });
  check(completed.completion.values.includes("Engineering"), JSON.stringify(completed));
  const names = await client.complete({ ref: { type: "ref/prompt", name: "completable-prompt" }, argument: { name: "name", value: "" },
    context: { arguments: { department: "Engineering" } } });
  check(names.completion.values.length > 0, "context.arguments steers the completion");
}

export async function structuredContent(client) {
  const tools = await client.listAllTools();
  check(tools.find((t) => t.name === "get-structured-content")?.outputSchema, "the tool declares an outputSchema");
  const result = await client.callTool({ name: "get-structured-content", arguments: { location: "New York" } });
  check(typeof result.structuredContent === "object" && result.structuredContent !== null, JSON.stringify(result));
  const iterated = [];
  for await (const tool of client.iterateTools()) iterated.push(tool.name);
  check(iterated.join() === tools.map((t) => t.name).join(), "iterateTools walks the same list");
}
"#)]
extern "C" {
    fn recorder() -> JsValue;
    fn bodies(recorder: &JsValue) -> Vec<String>;
    #[wasm_bindgen(js_name = hostOptions)]
    fn host_options(recorder: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = progressAndTimeouts)]
    fn progress_and_timeouts(client: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = handlersFlow)]
    fn handlers_flow(client: &JsValue, host: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = loggingAndEvents)]
    fn logging_and_events(client: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = resourcesPromptsCompletion)]
    fn resources_prompts_completion(client: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = structuredContent)]
    fn structured_content(client: &JsValue) -> js_sys::Promise;
}

fn field(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Connects with the host's handlers, runs `flow`, closes, and validates every message sent.
async fn run(flow: fn(&JsValue, &JsValue) -> js_sys::Promise) {
    let rec = recorder();
    let host = host_options(&rec);
    let client = McpClient::connect(JsValue::from_str(SERVER), field(&host, "options")).await.expect("connect");
    let client = JsValue::from(client);
    let outcome = JsFuture::from(flow(&client, &host)).await;
    let close = js_sys::Reflect::get(&client, &"close".into()).unwrap();
    let _ = JsFuture::from(js_sys::Function::from(close).call0(&client).unwrap().unchecked_into::<js_sys::Promise>()).await;
    if let Err(error) = outcome {
        panic!("{}", field(&error, "message").as_string().unwrap_or_else(|| format!("{error:?}")));
    }
    let sent = bodies(&rec);
    assert!(spec::assert_valid_messages(&sent) > 3, "messages were recorded");
}

#[wasm_bindgen_test]
async fn progress_reset_and_total_timeouts() {
    run(|client, _| progress_and_timeouts(client)).await;
}

#[wasm_bindgen_test]
async fn sampling_elicitation_and_roots_handlers() {
    run(handlers_flow).await;
}

#[wasm_bindgen_test]
async fn logging_events_and_the_notification_iterator() {
    run(|client, _| logging_and_events(client)).await;
}

#[wasm_bindgen_test]
async fn resources_subscriptions_prompts_and_completion() {
    run(|client, _| resources_prompts_completion(client)).await;
}

#[wasm_bindgen_test]
async fn structured_content_and_tool_iteration() {
    run(|client, _| structured_content(client)).await;
}
