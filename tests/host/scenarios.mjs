// McpHost scenarios over three real servers, shared by the Node tier
// (tests/node/host.test.mjs) and headless Chromium (tests/host/run-chromium.mjs):
//   http   server-everything, Streamable HTTP                  MCP_TEST_URL
//   sse    server-everything, HTTP+SSE                         MCP_SSE_TEST_URL
//   modern @modelcontextprotocol/server 2.x, 2026-07-28 only   MCP_MODERN_TEST_URL
// plus a server that is not there, to show a failure stays isolated.
// Each scenario takes the package's exports and returns the checks it made.

// scripts/peers.sh names the servers: in Node through the environment, in a page
// through its query (the runner passes them on).
const named = globalThis.process?.env ?? Object.fromEntries(new URLSearchParams(globalThis.location?.search));
export const PEERS = {
  http: named.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp",
  sse: named.MCP_SSE_TEST_URL ?? "http://127.0.0.1:38012/sse",
  modern: named.MCP_MODERN_TEST_URL ?? "http://127.0.0.1:38013/mcp",
  broken: "http://127.0.0.1:9/mcp",
};

// Every name the portable rules allow: what OpenAI, Anthropic and Gemini all accept.
const PORTABLE = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

function checker() {
  const done = [];
  const check = (ok, what, detail = "") => {
    if (!ok) throw new Error(`${what}${detail ? `: ${detail}` : ""}`);
    done.push(what);
  };
  return { check, done };
}

const textOf = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("");

function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

// Shared handlers that record which server asked.
function recordingHandlers() {
  const asked = [];
  return {
    asked,
    handlers: {
      sampling: (params, ctx) => {
        asked.push(`sampling:${ctx.server}`);
        return { role: "assistant", model: "scripted", content: { type: "text", text: `sampled for ${ctx.server}` } };
      },
      elicitation: (params, ctx) => {
        asked.push(`elicitation:${ctx.server}`);
        return { action: "accept", content: { name: "Ada" } };
      },
      roots: (ctx) => {
        asked.push(`roots:${ctx.server}`);
        return [{ uri: "file:///home/ada/project", name: ctx.server }];
      },
    },
  };
}

/**
 * Run first, in a page (or process) that has not loaded the rest of the core yet: a first
 * tool call does not need it, and a `UriTemplate`, whose methods are synchronous, loads it
 * synchronously (a synchronous XMLHttpRequest in a browser, the file in Node), and works
 * (scripts/split).
 */
export async function restLoadedSynchronously({ McpClient, UriTemplate, __restReady }) {
  const { check, done } = checker();
  check(__restReady() === false, "the rest of the core is not loaded before anything needs it");
  const client = await McpClient.connect(PEERS.http);
  try {
    const result = await client.callTool({ name: "echo", arguments: { message: "first" } });
    check(textOf(result).includes("first"), "a first tool call answers");
    // Checked as the call settles, before the page is idle: a browser fetches the rest then.
    check(__restReady() === false, "without the rest of the core");
    const template = new UriTemplate("file:///{+path}{?q}");
    check(__restReady() === true, "a UriTemplate loaded it synchronously");
    check(template.expand({ path: "a/b", q: "x" }) === "file:///a/b?q=x", "and expands");
    check(template.match("file:///a/b?q=x")?.path === "a/b", "and matches");
    template.free();
  } finally {
    await client.close();
  }
  return done;
}

/** Three servers and a dead one: states, merged registry, naming, routing, shared handlers. */
export async function registryAndRouting({ McpHost, McpClientError }) {
  const { check, done } = checker();
  const { asked, handlers } = recordingHandlers();
  const statuses = [];
  const host = new McpHost({ handlers });
  host.addEventListener("status", (e) => statuses.push(`${e.server}:${e.status}`));
  try {
    // Concurrent connection; the dead server fails alone.
    const states = await Promise.all(Object.entries(PEERS).map(([name, url]) => host.addServer(name, url, { timeout: 8000 })));
    const by = Object.fromEntries(states.map((s) => [s.name, s]));
    check(by.http.status === "connected" && by.http.era === "legacy" && by.http.transport === "streamable-http" && typeof by.http.sessionId === "string",
      "server-everything over Streamable HTTP connected", JSON.stringify(by.http));
    check(by.sse.status === "connected" && by.sse.transport === "sse", "server-everything over HTTP+SSE connected", JSON.stringify(by.sse));
    check(by.modern.status === "connected" && by.modern.era === "modern" && by.modern.protocolVersion === "2026-07-28" && by.modern.sessionId === undefined,
      "the modern server connected without a session", JSON.stringify(by.modern));
    check(by.broken.status === "failed" && by.broken.error instanceof McpClientError && by.broken.error.kind === "network",
      "the unreachable server failed with a network error, the others unaffected", `${by.broken.status} ${by.broken.error?.kind}`);
    check(statuses.includes("broken:failed") && statuses.includes("modern:connected"), "status events", statuses.join());

    // The merged registry: every server's tools, under distinct portable names.
    const tools = await host.listAllTools();
    const names = tools.map((t) => t.name);
    check(new Set(names).size === names.length && names.every((n) => PORTABLE.test(n)), "tool names are distinct and portable", names.join());
    const echo = tools.filter((t) => t.serverName === "echo").map((t) => `${t.server}=${t.name}`).sort();
    check(echo.join() === "http=http__echo,modern=modern__echo,sse=sse__echo", "the three echo tools are told apart by server", echo.join());
    check(tools.some((t) => t.name === "modern__add" && t.server === "modern" && t.inputSchema?.type === "object"), "tools keep their definitions");
    check(!tools.some((t) => t.server === "broken"), "the failed server contributes nothing");
    const prompts = (await host.listAllPrompts()).map((p) => p.name);
    check(prompts.includes("http__simple-prompt") && prompts.includes("sse__simple-prompt") && prompts.includes("modern__greet"), "prompts merged", prompts.join());
    const templates = (await host.listAllResourceTemplates()).map((t) => `${t.server} ${t.uriTemplate}`);
    check(templates.includes("modern demo://items/{id}") && templates.some((t) => t.startsWith("sse ")), "resource templates merged", templates.join());

    // Routing: each qualified name reaches its own server.
    check(textOf(await host.callTool("http__get-sum", { a: 2, b: 3 })) === "The sum of 2 and 3 is 5.", "http__get-sum routed");
    check(textOf(await host.callTool({ name: "sse__echo", arguments: { message: "via sse" } })) === "Echo: via sse", "sse__echo routed");
    const sum = await host.callTool("modern__add", { a: 20, b: 22 });
    check(sum.structuredContent?.sum === 42, "modern__add routed", JSON.stringify(sum));
    const unknown = await rejection(host.callTool("nowhere__echo", {}));
    check(unknown instanceof McpClientError && unknown.kind === "invalid-argument", "an unknown name is an invalid-argument error", String(unknown));
    const greeting = await host.getPrompt({ name: "modern__greet", arguments: { name: "Ada" } });
    check(JSON.stringify(greeting.messages).includes("Ada"), "prompt routed", JSON.stringify(greeting));

    const completed = await host.complete({ ref: { type: "ref/prompt", name: "modern__greet" }, argument: { name: "name", value: "A" } });
    check(completed.completion.values.join() === "Ada,Alan", "prompt argument completion routed", completed.completion.values.join());
    const ids = await host.complete({ ref: { type: "ref/resource", uri: "demo://items/{id}" }, argument: { name: "id", value: "1" } });
    check(ids.completion.values.includes("10"), "template argument completion routed to the template's server", ids.completion.values.join());

    // Resources: by the server that listed the URI, or whose template matches it.
    check((await host.readResource({ uri: "demo://static/readme" })).contents[0].text === "This is the demo readme.", "listed resource routed to its server");
    check((await host.readResource({ uri: "demo://items/7" })).contents[0].text === "item 7", "templated resource routed by template");
    const shared = host.resources.find((r) => r.server === "http")?.uri;
    const ambiguous = await rejection(host.readResource({ uri: shared }));
    check(ambiguous?.kind === "invalid-argument" && /pass \{ server \}/.test(ambiguous.message), "a URI two servers list is ambiguous", String(ambiguous));
    check((await host.readResource({ uri: shared, server: "sse" })).contents.length > 0, "…and settled by naming the server");

    // Shared handlers learn which server asked, in both eras.
    check(textOf(await host.callTool("http__trigger-sampling-request", { prompt: "hi", maxTokens: 5 })).includes("sampled for http"), "sampling from http");
    check(textOf(await host.callTool("sse__trigger-sampling-request", { prompt: "hi", maxTokens: 5 })).includes("sampled for sse"), "sampling from sse");
    check(textOf(await host.callTool("modern__ask-model")) === "sampled for modern", "sampling from the modern server (multi-round-trip)");
    check(textOf(await host.callTool("modern__list-roots")) === "file:///home/ada/project", "roots from the modern server");
    // server-everything also asks for roots on its own after initialize, at a
    // time of its choosing: only the calls made here are checked, in order.
    const ours = asked.filter((a) => a.startsWith("sampling:") || a === "roots:modern");
    check(ours.join() === "sampling:http,sampling:sse,sampling:modern,roots:modern", "each handler call names its server", asked.join());
    check(asked.every((a) => /^(sampling|roots):(http|sse|modern)$/.test(a)), "every handler call names a connected server", asked.join());

    // Removing a server takes its entries out.
    const changes = [];
    host.addEventListener("change", (e) => changes.push(`${e.server}:${e.reason}`));
    check(await host.removeServer("broken") && !host.servers().some((s) => s.name === "broken"), "a server is removed");
    check(await host.removeServer("sse") && !host.tools.some((t) => t.server === "sse"), "a removed server's tools leave the registry");
    check(changes.includes("sse:removed"), "removal is a change event", changes.join());
  } finally {
    await host.close();
  }
  check(host.servers().length === 0, "close removes every server");
  return done;
}

/** Names under collisions with the on-collision prefix, and the Gemini rules. */
export async function namingUnderCollisions({ McpHost, qualifiedNames }) {
  const { check, done } = checker();
  const host = await McpHost.connect({ http: { url: PEERS.http }, modern: { url: PEERS.modern } }, { naming: { prefix: "on-collision" } });
  try {
    const names = (await host.listAllTools()).map((t) => t.name);
    check(names.includes("http__echo") && names.includes("modern__echo"), "a shared name is prefixed", names.join());
    check(names.includes("get-sum") && names.includes("add") && names.includes("slow"), "unique names stay bare", names.join());
    check(new Set(names).size === names.length, "all distinct");
  } finally {
    await host.close();
  }
  const pairs = [["my server", "a.b"], ["my_server", "a.b"], ["x", "y".repeat(80)], ["x", "y".repeat(81)]];
  const gemini = qualifiedNames(pairs, { rules: "gemini", separator: "." });
  check(new Set(gemini).size === 4 && gemini.every((n) => n.length <= 64 && /^[A-Za-z_][A-Za-z0-9_.:-]*$/.test(n)), "Gemini names fit and stay apart", gemini.join());
  check(JSON.stringify(qualifiedNames([...pairs].reverse(), { rules: "gemini", separator: "." })) === JSON.stringify([...gemini].reverse()), "names do not depend on order");
  return done;
}

/**
 * On-collision names: a server that lists what another server's shared tool is called (here the
 * modern server adds `<victim>__get-sum`) cannot take that name, not even once the tool stops being
 * shared and so loses its prefix.
 */
export async function aNameThatReadsAsAnothers({ McpHost }) {
  const { check, done } = checker();
  const victim = `v${Date.now().toString(36)}`;
  const squatted = `${victim}__get-sum`;
  const servers = { [victim]: { url: PEERS.http }, twin: { url: PEERS.sse }, modern: { url: PEERS.modern } };
  const host = await McpHost.connect(servers, { naming: { prefix: "on-collision" } });
  try {
    const nameOf = (server, tool) => host.tools.find((t) => t.server === server && t.serverName === tool)?.name;
    await host.listAllTools();
    check(nameOf(victim, "get-sum") === squatted, "a shared tool is prefixed", nameOf(victim, "get-sum"));
    const changed = new Promise((resolve) => host.addEventListener("change", (e) => e.reason === "list_changed" && e.server === "modern" && resolve()));
    await host.callTool("add-tool", { name: squatted });
    await within(8000, changed, "change event after the look-alike is added");
    check(nameOf("modern", squatted) === `modern__${squatted}`, "the look-alike carries its own server's prefix", nameOf("modern", squatted));
    check(nameOf(victim, "get-sum") === squatted, "and the shared tool keeps its name", nameOf(victim, "get-sum"));
    await host.removeServer("twin");
    check(nameOf(victim, "get-sum") === "get-sum", "a tool no longer shared is bare", nameOf(victim, "get-sum"));
    check((await host.toolServer(squatted)) === undefined, "its old name leads nowhere, not to the look-alike's server");
    const refused = await rejection(host.callTool(squatted, { a: 1, b: 2 }));
    check(refused?.kind === "invalid-argument", "so a call by the old name is refused", String(refused));
    check(textOf(await host.callTool(`modern__${squatted}`)) === `I am ${squatted}`, "the look-alike answers by its own name");
  } finally {
    await host.close();
  }
  return done;
}

/** list_changed on the modern server (over subscriptions/listen) refreshes the registry with a change event. */
export async function refreshOnListChanged({ McpHost }) {
  const { check, done } = checker();
  const host = await McpHost.connect({ http: { url: PEERS.http }, modern: { url: PEERS.modern } });
  try {
    const before = (await host.listAllTools()).length;
    const added = `added-${Date.now().toString(36)}`;
    const changed = new Promise((resolve) => host.addEventListener("change", (e) => e.reason === "list_changed" && resolve(e)));
    await host.callTool("modern__add-tool", { name: added });
    const event = await within(8000, changed, "change event after tools/list_changed");
    check(event.server === "modern" && event.lists.includes("tools"), "the change event names the server and the list", JSON.stringify({ s: event.server, l: event.lists }));
    check(host.tools.length === before + 1 && host.tools.some((t) => t.name === `modern__${added}`), "the new tool is in the registry");
    check(textOf(await host.callTool(`modern__${added}`)) === `I am ${added}`, "and is routed");
  } finally {
    await host.close();
  }
  return done;
}

/**
 * A server that announces a change every 20 ms for 4 s: the host re-lists it while the storm goes
 * on (before, each notification put the re-listing off again, and ready() and every call that
 * waits for it hung for as long as the storm lasted), and ready() and listAllTools() settle.
 */
export async function stormOfListChanged({ McpHost }) {
  const { check, done } = checker();
  const host = await McpHost.connect({ modern: { url: PEERS.modern } });
  try {
    const relisted = new Promise((resolve) => host.addEventListener("change", (e) => e.reason === "list_changed" && resolve(e)));
    const started = Date.now();
    await host.callTool("modern__list-changed-storm", { intervalMs: 20, durationMs: 4000 });
    const event = await within(2000, relisted, "a re-listing while the server keeps announcing changes");
    check(event.server === "modern" && event.lists.includes("tools"), "the host re-lists the server's tools during the storm");
    await within(2500, host.ready(), "ready() during the storm");
    check(true, "ready() settles during the storm");
    const tools = await within(2500, host.listAllTools(), "listAllTools() during the storm");
    check(tools.some((t) => t.name === "modern__add-tool") && Date.now() - started < 4000, "listAllTools() answers during the storm",
      `${Date.now() - started} ms`);
    // The storm ends before the next scenario's clients listen to the same server.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 4300 - Date.now())));
  } finally {
    await host.close();
  }
  return done;
}

/**
 * The same storm with the wall clock set back an hour once the burst began: the host still
 * re-lists within the burst's bound (before, the burst's start lay an hour ahead, and the storm put
 * the re-listing off until it ended).
 */
export async function stormWithTheClockSetBack({ McpHost }) {
  const { check, done } = checker();
  const host = await McpHost.connect({ modern: { url: PEERS.modern } });
  const realNow = Date.now;
  try {
    const relisted = new Promise((resolve) => host.addEventListener("change", (e) => e.reason === "list_changed" && resolve(e)));
    const started = realNow();
    await host.callTool("modern__list-changed-storm", { intervalMs: 20, durationMs: 4000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    Date.now = () => realNow() - 3_600_000;
    const event = await within(2000, relisted, "a re-listing during the storm after the clock went back an hour");
    check(event.server === "modern" && realNow() - started < 4000, "the host re-lists during the storm though the clock went back",
      `${realNow() - started} ms`);
    Date.now = realNow;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 4300 - realNow())));
  } finally {
    Date.now = realNow;
    await host.close();
  }
  return done;
}

/** A server that ends the session: the client starts a new one and the host re-lists. */
export async function refreshOnReconnect({ McpHost }) {
  const { check, done } = checker();
  const host = await McpHost.connect({ http: { url: PEERS.http } });
  try {
    const old = host.servers()[0].sessionId;
    const relisted = new Promise((resolve) => host.addEventListener("change", (e) => e.reason === "sessionrenewed" && resolve(e)));
    // End the session behind the client's back, as a server restart would.
    const ended = await fetch(PEERS.http, { method: "DELETE", headers: { "mcp-session-id": old, "mcp-protocol-version": host.servers()[0].protocolVersion } });
    check(ended.ok, "the server ended the session", String(ended.status));
    // The next request meets the 404 and renews the session.
    check(textOf(await host.callTool("http__echo", { message: "still here" })) === "Echo: still here", "calls go on after the server forgot the session");
    const event = await within(8000, relisted, "change event after the session was renewed");
    check(event.server === "http" && host.servers()[0].sessionId !== old, "the registry was re-listed on the new session");
    check(host.tools.some((t) => t.name === "http__get-sum"), "the registry is whole again");
  } finally {
    await host.close();
  }
  return done;
}

/**
 * suspend() and resume(): the legacy session is taken over by id and the modern
 * one reuses its discovery, so neither sends initialize nor server/discover.
 */
export async function suspendAndResume({ McpHost }) {
  const { check, done } = checker();
  const first = await McpHost.connect({ http: { url: PEERS.http }, modern: { url: PEERS.modern } });
  const sessionId = first.servers()[0].sessionId;
  const snapshot = JSON.parse(JSON.stringify(await first.suspend()));
  const saved = Object.fromEntries(snapshot.servers.map((s) => [s.name, s.snapshot]));
  check(saved.http.sessionId === sessionId && saved.http.era === "legacy" && saved.modern.era === "modern" && !("sessionId" in saved.modern),
    "the snapshot holds the era, version and session", JSON.stringify(saved.http).slice(0, 200));
  check(JSON.stringify(snapshot).length < 4000, "the snapshot is small", `${JSON.stringify(snapshot).length} bytes`);
  const sent = [];
  const recording = (input, init) => {
    if (typeof init?.body === "string") sent.push(JSON.parse(init.body).method);
    return fetch(input, init);
  };
  const second = await McpHost.resume(snapshot, { servers: { http: { fetch: recording }, modern: { fetch: recording } } });
  try {
    check(second.servers().every((s) => s.status === "connected") && second.servers()[0].sessionId === sessionId, "resumed with the same session");
    check(textOf(await second.callTool("http__get-sum", { a: 1, b: 2 })) === "The sum of 1 and 2 is 3.", "the resumed legacy session answers");
    check((await second.callTool("modern__add", { a: 1, b: 2 })).structuredContent.sum === 3, "the resumed modern connection answers");
    check(!sent.includes("initialize") && !sent.includes("server/discover"), "no initialize, no server/discover", sent.join());
    check(!sent.includes("prompts/list") && !sent.includes("resources/list"), "only the lists a call needs are fetched", sent.join());
  } finally {
    await second.close();
  }
  return done;
}

/**
 * A host's client runs a tool call as a task (the package's tasks-run.js, loaded on this first
 * use): polled to its report with each status told, then a second one aborted, which sends
 * tasks/cancel and rejects with the signal's reason.
 */
export async function tasksThroughAClient({ McpHost }) {
  const { check, done } = checker();
  const host = await McpHost.connect({ http: { url: PEERS.http } });
  try {
    const client = host.client("http");
    const statuses = [];
    const report = await within(20_000, client.callToolAsTask({ name: "simulate-research-query", arguments: { topic: "rust" } },
      { pollInterval: 300, ontaskstatus: (task) => statuses.push(task.status) }), "callToolAsTask");
    check(textOf(report).includes("Research Report"), "the task's report came back", textOf(report).slice(0, 120));
    check(statuses[0] === "working" && statuses.at(-1) === "completed", "each status was told", statuses.join());
    const controller = new AbortController();
    let taskId;
    const pending = client.callToolAsTask({ name: "simulate-research-query", arguments: { topic: "go" } },
      { signal: controller.signal, pollInterval: 200, ontaskstatus: (task) => (taskId = task.taskId) });
    setTimeout(() => controller.abort("stop"), 500);
    check(await within(5_000, rejection(pending), "the aborted task") === "stop", "an aborted task rejects with the signal's reason");
    check((await client.getTask({ taskId })).status === "cancelled", "the server cancelled it");
  } finally {
    await host.close();
  }
  return done;
}

export const SCENARIOS = {
  restLoadedSynchronously, registryAndRouting, namingUnderCollisions, aNameThatReadsAsAnothers, refreshOnListChanged, stormOfListChanged, stormWithTheClockSetBack, refreshOnReconnect, suspendAndResume, tasksThroughAClient,
};
