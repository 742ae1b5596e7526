// callToolAsTask at the edges no real server stages on purpose, against a scripted server
// (tests/support/scripted-tasks.mjs): progress all through the task under the call's token, a
// server that runs the call at once, a tasks/result past its timeout, a result that breaks the
// tool's outputSchema, a call that fails while the task runs. The tasks themselves run against
// server-everything in tasks.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { startScriptedTasks } from "../support/scripted-tasks.mjs";

const LIMIT = { timeout: 30_000 };
const task = (status) => ({ taskId: "T1", status, createdAt: "2026-12-07T00:00:00Z", lastUpdatedAt: "2026-12-07T00:00:00Z", ttl: 60_000, pollInterval: 100 });
const done = (text) => ({ content: [{ type: "text", text }] });

async function withServer(script, run) {
  const server = await startScriptedTasks(script);
  const client = await McpClient.connect(server.url, { era: "legacy", timeout: 10_000 });
  try {
    await run(client, server);
  } finally {
    await client.close();
    server.close();
  }
}

test("a task's progress reaches onprogress all through the task, under the call's token", LIMIT, async () => {
  let token;
  let polls = 0;
  const answer = (message, notify) => {
    if (message.method === "tools/call") {
      token = message.params._meta?.progressToken;
      return { task: task("working") };
    }
    if (message.method === "tasks/get") {
      polls += 1;
      notify("notifications/progress", { progressToken: token, progress: polls, total: 2 });
      return task(polls === 2 ? "completed" : "working");
    }
    return done("finished");
  };
  await withServer({ answer }, async (client, server) => {
    const heard = [];
    const result = await client.callToolAsTask({ name: "slow" }, { onprogress: (p) => heard.push(p.progress) });
    assert.equal(result.content[0].text, "finished");
    assert.deepEqual(heard, [1, 2], "progress sent while the task runs, long after its tools/call ended");
    assert.equal(typeof token, "string");
    for (const poll of [...server.sent("tasks/get"), ...server.sent("tasks/result")]) {
      assert.equal(poll.params._meta, undefined, "a poll asks for no progress of its own");
    }
  });
});

test("an onprogress that is no function is refused before anything is sent", LIMIT, async () => {
  await withServer({ answer: () => done("never") }, async (client, server) => {
    await assert.rejects(client.callToolAsTask({ name: "quick" }, { onprogress: 5 }), (e) => e.kind === "invalid-argument" && /onprogress/.test(e.message));
    assert.equal(server.sent("tools/call").length, 0);
  });
});

test("a server that runs a task-augmented call at once answers with its result", LIMIT, async () => {
  await withServer({ answer: () => done("at once") }, async (client, server) => {
    const result = await client.callToolAsTask({ name: "quick" });
    assert.equal(result.content[0].text, "at once");
    assert.equal(server.received.filter((m) => m.method?.startsWith("tasks/")).length, 0);
  });
});

test("a task's result is checked against the tool's outputSchema", LIMIT, async () => {
  const tools = [{ name: "weather", inputSchema: { type: "object" }, execution: { taskSupport: "required" }, outputSchema: { type: "object", properties: { temperature: { type: "number" } } } }];
  const answer = (message) => (message.method === "tools/call" ? { task: task("completed") } : { ...done("hot"), structuredContent: { temperature: "hot" } });
  await withServer({ answer, tools }, async (client) => {
    await client.listTools();
    await assert.rejects(client.callToolAsTask({ name: "weather" }), (e) => e.kind === "invalid-result" && /temperature/.test(e.message));
  });
});

test("an input_required task whose tasks/result outlasts the timeout is polled again", LIMIT, async () => {
  let results = 0;
  const answer = async (message) => {
    if (message.method === "tools/call") return { task: task("input_required") };
    if (message.method === "tasks/get") return task("completed");
    results += 1;
    if (results === 1) await new Promise((resolve) => setTimeout(resolve, 1_500));
    return done("answered");
  };
  await withServer({ answer }, async (client, server) => {
    const result = await client.callToolAsTask({ name: "ask" }, { timeout: 500 });
    assert.equal(result.content[0].text, "answered");
    assert.equal(server.sent("tasks/cancel").length, 0);
    assert.ok(server.sent("tasks/get").length >= 1);
  });
});

test("a task call that fails while its task runs cancels the task", LIMIT, async () => {
  const answer = (message) => {
    if (message.method === "tools/call") return { task: task("working") };
    if (message.method === "tasks/get") return new Promise(() => {});
    return task("cancelled");
  };
  await withServer({ answer }, async (client, server) => {
    const controller = new AbortController();
    const call = client.callToolAsTask({ name: "slow" }, { signal: controller.signal });
    setTimeout(() => controller.abort("enough"), 300);
    await assert.rejects(call, (reason) => reason === "enough");
    for (let i = 0; i < 40 && server.sent("tasks/cancel").length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.deepEqual(server.sent("tasks/cancel").map((m) => m.params), [{ taskId: "T1" }], "aborted during a poll");
  });
  await withServer({ answer }, async (client, server) => {
    await assert.rejects(client.callToolAsTask({ name: "slow" }, { timeout: 400 }), (e) => e.kind === "timeout");
    for (let i = 0; i < 40 && server.sent("tasks/cancel").length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(server.sent("tasks/cancel").length, 1, "a poll past its timeout");
  });
});
