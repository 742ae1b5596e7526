// McpClient's task methods (2025-11-25, experimental), plain JS in the package (tasks.js,
// tasks-run.js), against server-everything's `simulate-research-query`, a tool that runs as a
// task in stages of a second: polling to completion, a question asked through tasks/result,
// cancellation, the low-level methods, and what the methods refuse before sending anything.
// Needs the peers (`scripts/peers.sh start`), or MCP_TEST_URL pointing at server-everything.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, McpClientError } from "mcp-wasm";
import { assertValidClientMessage, recordingFetch } from "../support/schema.mjs";
import { startPeer } from "../support/peer-process.mjs";

const MCP_URL = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 60_000 };
const RESEARCH = "simulate-research-query";

function clientError(kind) {
  return (err) => {
    assert.ok(err instanceof McpClientError, `expected McpClientError, got ${err?.name}: ${err?.message}`);
    assert.equal(err.kind, kind, `kind of "${err.message}"`);
    return true;
  };
}

const textOf = (result) => result.content.filter((block) => block.type === "text").map((block) => block.text).join("\n");

/** Waits until `seen` holds an entry (a task's first status came), or `call` fails, or 10 s pass. */
async function firstStatus(call, seen) {
  const started = Date.now();
  while (seen.length === 0) {
    assert.ok(Date.now() - started < 10_000, "no task status within 10 s");
    const failed = await Promise.race([call.then(() => null, (error) => error ?? "failed"), new Promise((resolve) => setTimeout(() => resolve(null), 20))]);
    if (failed !== null) throw failed;
  }
  return seen[0];
}

/** A client with an elicitation handler that picks the first interpretation offered. */
async function connect(extra = {}) {
  const rec = recordingFetch();
  const asked = [];
  const client = await McpClient.connect(MCP_URL, {
    fetch: rec.fetch,
    timeout: 20_000,
    handlers: {
      elicitation(params) {
        asked.push(params);
        const offered = params.requestedSchema?.properties?.interpretation?.oneOf ?? [];
        return { action: "accept", content: { interpretation: offered[0]?.const ?? "technical" } };
      },
    },
    ...extra,
  });
  return { client, rec, asked };
}

test("a tool call runs as a task, polled to its report; every message sent is valid", LIMIT, async () => {
  const { client, rec } = await connect();
  try {
    assert.ok(client.serverCapabilities.tasks?.requests?.tools?.call, "server-everything runs tool calls as tasks");
    const statuses = [];
    const result = await client.callToolAsTask(
      { name: RESEARCH, arguments: { topic: "rust", ambiguous: false } },
      { ontaskstatus: (task) => statuses.push(task.status), pollInterval: 300, ttl: 60_000 },
    );
    assert.match(textOf(result), /Research Report/);
    assert.equal(statuses[0], "working");
    assert.equal(statuses.at(-1), "completed");
    assert.ok(statuses.length >= 3, statuses.join());
    const sent = rec.messages();
    const call = sent.find((m) => m.method === "tools/call");
    assert.deepEqual(call.params.task, { ttl: 60_000 });
    assert.ok(sent.filter((m) => m.method === "tasks/get").length >= 2, "polled with tasks/get");
    assert.ok(sent.some((m) => m.method === "tasks/result"), "fetched tasks/result");
    // The era probe (server/discover) speaks 2026-07-28, the session after it 2025-11-25.
    for (const message of sent) assertValidClientMessage(message, message.method === "server/discover" ? "2026-07-28" : undefined);
  } finally {
    await client.close();
  }
});

test("a task that asks for input is answered by the elicitation handler, through tasks/result", LIMIT, async () => {
  const { client, asked } = await connect();
  try {
    const result = await client.callToolAsTask({ name: RESEARCH, arguments: { topic: "python", ambiguous: true } }, { pollInterval: 300 });
    assert.equal(asked.length, 1, "one question");
    assert.match(asked[0].message, /python/);
    assert.match(textOf(result), /Clarification/);
  } finally {
    await client.close();
  }
});

test("aborting sends tasks/cancel and rejects with the reason; the low-level methods see the task", LIMIT, async () => {
  const { client, rec } = await connect();
  try {
    const controller = new AbortController();
    let taskId;
    const pending = client.callToolAsTask(
      { name: RESEARCH, arguments: { topic: "go" } },
      { signal: controller.signal, pollInterval: 200, ontaskstatus: (task) => (taskId = task.taskId) },
    );
    setTimeout(() => controller.abort("stop"), 500);
    await assert.rejects(pending, (reason) => reason === "stop");
    // The call rejects at once; tasks/cancel goes out beside it, not before it.
    const cancelled = () => rec.messages().some((m) => m.method === "tasks/cancel" && m.params.taskId === taskId);
    for (let i = 0; i < 40 && !cancelled(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.ok(cancelled(), "tasks/cancel names the task");
    // The server may take a moment to mark the task cancelled once the request reaches it.
    let task = await client.getTask({ taskId });
    for (let i = 0; i < 40 && task.status !== "cancelled"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      task = await client.getTask({ taskId });
    }
    assert.equal(task.taskId, taskId);
    assert.equal(task.status, "cancelled");
    const listed = await client.listTasks();
    assert.ok(listed.tasks.some((t) => t.taskId === taskId && t.status === "cancelled"), JSON.stringify(listed).slice(0, 300));
  } finally {
    await client.close();
  }
});

test("aborting while tasks/result waits for the user's answer cancels the task", LIMIT, async () => {
  const controller = new AbortController();
  let asked;
  const question = new Promise((resolve) => (asked = resolve));
  // The person never answers: the question stays open until the call is aborted.
  const { client, rec } = await connect({ handlers: { elicitation: (_params, ctx) => (asked(), new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)))) } });
  try {
    let taskId;
    const pending = client.callToolAsTask(
      { name: RESEARCH, arguments: { topic: "python", ambiguous: true } },
      { signal: controller.signal, pollInterval: 200, ontaskstatus: (task) => (taskId = task.taskId) },
    );
    await question;
    assert.ok(rec.messages().some((m) => m.method === "tasks/result"), "the question came through tasks/result");
    controller.abort("stop");
    await assert.rejects(pending, (reason) => reason === "stop");
    const cancelled = () => rec.messages().some((m) => m.method === "tasks/cancel" && m.params.taskId === taskId);
    for (let i = 0; i < 40 && !cancelled(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.ok(cancelled(), "tasks/cancel names the task");
  } finally {
    await client.close();
  }
});

test("close() ends a task call waiting between polls as closing begins, not once the server answers the DELETE", LIMIT, async () => {
  // server-everything behind the fault proxy's hold-delete, which holds the session's DELETE 2 s.
  const { proxy, client } = await throughProxy("hold-delete");
  try {
    const seen = [];
    const order = [];
    const call = client.callToolAsTask({ name: RESEARCH, arguments: { topic: "zig" } }, { pollInterval: 30_000, ontaskstatus: (task) => seen.push(task) });
    await firstStatus(call, seen);
    const failed = call.then(() => undefined, (error) => (order.push("the call failed"), error));
    await client.close();
    order.push("close() resolved");
    assert.ok(clientError("closed")(await failed));
    assert.deepEqual(order, ["the call failed", "close() resolved"], "the wait ended before the server answered the DELETE");
    const stats = await (await fetch(`${proxy.origin}/__stats`)).json();
    assert.equal(stats["hold-delete"], 1, "the proxy held the DELETE");
  } finally {
    proxy.child.kill();
  }
});

test("getTaskResult waits for a task started elsewhere; cancelTask stops another", LIMIT, async () => {
  const { client } = await connect();
  try {
    // Two tasks: the first is waited for with tasks/result, the second cancelled at once.
    const ids = [];
    const first = client.callToolAsTask({ name: RESEARCH, arguments: { topic: "wasm" } }, { pollInterval: 30_000, ontaskstatus: (t) => ids.push(t.taskId) });
    const waited = await client.getTaskResult({ taskId: await firstStatus(first, ids) });
    assert.match(textOf(waited), /Research Report/);
    const second = [];
    const other = client.callToolAsTask({ name: RESEARCH, arguments: { topic: "zig" } }, { pollInterval: 30_000, ontaskstatus: (t) => second.push(t.taskId) });
    const cancelled = await client.cancelTask({ taskId: await firstStatus(other, second) });
    assert.equal(cancelled.status, "cancelled");
    // Both calls still sleep for their 30 s poll: closing wakes them, and they fail at once.
    const started = Date.now();
    await client.close();
    await assert.rejects(first, clientError("closed"));
    await assert.rejects(other, clientError("closed"));
    assert.ok(Date.now() - started < 2_000, `closing took ${Date.now() - started} ms to reach the sleeping calls`);
  } finally {
    await client.close();
  }
});

test("a throwing ontaskstatus is reported as an error event and the call goes on", LIMIT, async () => {
  const { client } = await connect();
  try {
    const reported = [];
    client.addEventListener("error", (event) => reported.push(event.error));
    const thrown = new Error("listener bug");
    const result = await client.callToolAsTask({ name: RESEARCH, arguments: { topic: "c" } }, { pollInterval: 300, ontaskstatus: () => { throw thrown; } });
    assert.match(textOf(result), /Research Report/);
    assert.ok(reported.length >= 2 && reported.every((error) => error === thrown), `${reported.length} error events`);
  } finally {
    await client.close();
  }
});

test("what the task methods refuse, they refuse before sending", LIMIT, async () => {
  const { client, rec } = await connect();
  try {
    const before = rec.messages().length;
    await assert.rejects(client.callToolAsTask(), clientError("invalid-argument"));
    await assert.rejects(client.callToolAsTask({ arguments: {} }), clientError("invalid-argument"));
    await assert.rejects(client.callToolAsTask({ name: RESEARCH, arguments: [] }), clientError("invalid-argument"));
    await assert.rejects(client.callToolAsTask({ name: RESEARCH }, { ttl: -1 }), clientError("invalid-argument"));
    await assert.rejects(client.callToolAsTask({ name: RESEARCH }, { pollInterval: 0 }), clientError("invalid-argument"));
    await assert.rejects(client.callToolAsTask({ name: RESEARCH }, { ontaskstatus: "no" }), clientError("invalid-argument"));
    await assert.rejects(client.callToolAsTask({ name: RESEARCH }, "no"), clientError("invalid-argument"));
    await assert.rejects(client.getTask({}), clientError("invalid-argument"));
    await assert.rejects(client.getTaskResult("t"), clientError("invalid-argument"));
    await assert.rejects(client.listTasks({ cursor: 5 }), clientError("invalid-argument"));
    assert.equal(rec.messages().length, before, "nothing was sent");
  } finally {
    await client.close();
  }
});

test("a client that checks capabilities refuses tasks a server does not run; strictCapabilities: false sends them", LIMIT, async () => {
  // The same server, its tasks capability cut out of the initialize answer (JSON or one SSE event).
  const withoutTasks = (json) => {
    const message = JSON.parse(json);
    if (message?.result?.capabilities) delete message.result.capabilities.tasks;
    return JSON.stringify(message);
  };
  const hide = async (input, init) => {
    const response = await fetch(input, init);
    if (!String(init?.body ?? "").includes('"method":"initialize"')) return response;
    const body = (await response.text()).replace(/^data: (\{.*\})$/gm, (_, json) => `data: ${withoutTasks(json)}`);
    const rewritten = body.startsWith("{") ? withoutTasks(body) : body;
    return new Response(rewritten, { status: response.status, headers: response.headers });
  };
  const strict = await McpClient.connect(MCP_URL, { fetch: hide });
  try {
    await assert.rejects(strict.callToolAsTask({ name: RESEARCH, arguments: { topic: "x" } }), clientError("unsupported"));
    await assert.rejects(strict.listTasks(), clientError("unsupported"));
    await assert.rejects(strict.getTask({ taskId: "none" }), clientError("unsupported"));
  } finally {
    await strict.close();
  }
  const lenient = await McpClient.connect(MCP_URL, { fetch: hide, strictCapabilities: false });
  try {
    const listed = await lenient.listTasks();
    assert.ok(Array.isArray(listed.tasks));
  } finally {
    await lenient.close();
  }
});

// execution.taskSupport (2025-11-25): server-everything lists simulate-research-query as
// `required` and its other tools without tasks, and refuses a call that ignores that (a plain
// call of the first is an error result, a task-augmented call of `echo` a JSON-RPC error).
test("once the tools are listed, callTool runs a tool that needs a task as one, and callToolAsTask calls one without tasks plainly", LIMIT, async () => {
  const { client, rec } = await connect();
  try {
    await client.listAllTools();
    const statuses = [];
    const result = await client.callTool({ name: RESEARCH, arguments: { topic: "wasm" } }, { ontaskstatus: (task) => statuses.push(task.status) });
    assert.ok(!result.isError, JSON.stringify(result).slice(0, 300));
    assert.match(textOf(result), /Research Report/);
    assert.equal(statuses.at(-1), "completed");
    const research = rec.messages().find((m) => m.method === "tools/call" && m.params.name === RESEARCH);
    assert.deepEqual(research.params.task, {});

    const echoed = await client.callToolAsTask({ name: "echo", arguments: { message: "plainly" } }, { ontaskstatus: () => assert.fail("no task") });
    assert.match(textOf(echoed), /plainly/);
    const echo = rec.messages().find((m) => m.method === "tools/call" && m.params.name === "echo");
    assert.equal(echo.params.task, undefined);
  } finally {
    await client.close();
  }
});

test("a listing walked with iterateTools tells callTool too; before any listing, a call goes out as asked", LIMIT, async () => {
  const { client, rec } = await connect();
  try {
    const before = await client.callTool({ name: RESEARCH, arguments: { topic: "unlisted" } });
    assert.equal(before.isError, true, "the server refuses a plain call of a tool that needs a task");
    assert.equal(rec.messages().find((m) => m.method === "tools/call").params.task, undefined);
    const names = [];
    for await (const tool of client.iterateTools()) names.push(tool.name);
    assert.ok(names.includes(RESEARCH), names.join());
    const result = await client.callTool({ name: RESEARCH, arguments: { topic: "iterated" } });
    assert.match(textOf(result), /Research Report/);
  } finally {
    await client.close();
  }
});


/** A client of server-everything through the fault proxy's `fault` (started for it), recording what it sends. */
async function throughProxy(fault, extra = {}) {
  const proxy = await startPeer("tests/peers/fault-proxy.mjs", { env: { UPSTREAM: new URL(MCP_URL).origin } });
  const rec = recordingFetch();
  const client = await McpClient.connect(`${proxy.origin}/${fault}${new URL(MCP_URL).pathname}`, { fetch: rec.fetch, era: "legacy", ...extra });
  return { proxy, rec, client, close: async () => { await client.close(); proxy.child.kill(); } };
}

test("iterateTools to the last of several pages lists the tools whole: callToolAsTask then calls a tool without tasks plainly", LIMIT, async () => {
  // server-everything behind the fault proxy's page-tools, which hands its tools out four to a page.
  const through = await throughProxy("page-tools");
  const { rec, client } = through;
  try {
    const names = [];
    for await (const tool of client.iterateTools()) {
      names.push(tool.name);
      if (names.length === 1) {
        // Stopped here, the walk would not be whole: a task call goes out as asked.
        const early = await client.callToolAsTask({ name: "echo", arguments: { message: "early" } }).catch((error) => error);
        assert.equal(early?.code, -32602, "server-everything refuses a task call of echo");
        assert.deepEqual(rec.messages().filter((m) => m.method === "tools/call").at(-1).params.task, {});
      }
    }
    const pages = rec.messages().filter((m) => m.method === "tools/list");
    assert.ok(pages.length >= 3 && names.includes(RESEARCH) && names.includes("echo"), `${pages.length} pages: ${names.join()}`);
    const echoed = await client.callToolAsTask({ name: "echo", arguments: { message: "plainly" } }, { ontaskstatus: () => assert.fail("no task") });
    assert.match(textOf(echoed), /plainly/);
    assert.equal(rec.messages().filter((m) => m.method === "tools/call").at(-1).params.task, undefined);
  } finally {
    await through.close();
  }
});

test("a listChanged watcher's listing tells callTool: once it has listed the tools, a tool that needs a task runs as one", LIMIT, async () => {
  // server-everything behind the fault proxy's announce, which says on the client's GET stream that the tools changed.
  let refreshed;
  const changed = new Promise((resolve) => { refreshed = resolve; });
  const through = await throughProxy("announce", { listChanged: { tools: { onChanged: (error, tools) => refreshed({ error, tools }) } } });
  const { proxy, rec, client } = through;
  try {
    const started = Date.now();
    for (;;) {
      const { streams } = await (await fetch(`${proxy.origin}/__announce`, { method: "POST" })).json();
      if (streams > 0) break;
      assert.ok(Date.now() - started < 10_000, "the client's GET stream opened");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { error, tools } = await changed;
    assert.equal(error, null);
    assert.ok(tools.some((tool) => tool.name === RESEARCH));
    const result = await client.callTool({ name: RESEARCH, arguments: { topic: "watched" } });
    assert.match(textOf(result), /Research Report/);
    const research = rec.messages().find((m) => m.method === "tools/call" && m.params.name === RESEARCH);
    assert.deepEqual(research.params.task, {});
  } finally {
    await through.close();
  }
});

test("a listing past 256 KiB, kept as text outside wasm, still tells which tools need a task", LIMIT, async () => {
  // server-everything behind the fault proxy's pad-tools, which adds 300 tools of a kilobyte each.
  const through = await throughProxy("pad-tools");
  const { rec, client } = through;
  try {
    const tools = await client.listAllTools();
    assert.ok(tools.length > 300 && JSON.stringify(tools).length > 256 * 1024, `${tools.length} tools`);
    assert.equal(tools.find((tool) => tool.name === RESEARCH)?.execution?.taskSupport, "required");
    const result = await client.callTool({ name: RESEARCH, arguments: { topic: "padded" } });
    assert.match(textOf(result), /Research Report/);
    assert.deepEqual(rec.messages().find((m) => m.method === "tools/call" && m.params.name === RESEARCH).params.task, {});
  } finally {
    await through.close();
  }
});
