// runToolLoop end to end: a scripted "LLM" in each API's exact reply shape
// asks for tools, reads the real results from server-everything out of the
// transcript it is sent, and answers. Also the step cap, abort, and the
// approve hook: refused calls must never reach the server.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { McpClient, McpHost, runToolLoop } from "mcp-wasm";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
// A second server-everything, for a host over two servers.
const SECOND_URL = process.env.MCP_SSE_TEST_URL ?? "http://127.0.0.1:38012/sse";
const LIMIT = { timeout: 20_000 };

// Per API: a reply making tool calls ({ id, name, args }), a final text reply,
// and the tool results' text as the transcript carries them.
const api = {
  "openai-chat": {
    calls: (list) => ({ choices: [{ message: { role: "assistant", content: null,
      tool_calls: list.map(({ id, name, args }) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } })) } }] }),
    answer: (text) => ({ choices: [{ message: { role: "assistant", content: text } }] }),
    toolText: (messages) => messages.filter((m) => m.role === "tool").map((m) => m.content).join("\n"),
  },
  "openai-responses": {
    calls: (list) => ({ output: list.map(({ id, name, args }) => ({ type: "function_call", call_id: id, name, arguments: JSON.stringify(args) })) }),
    answer: (text) => ({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] }),
    toolText: (messages) => messages.filter((m) => m.type === "function_call_output").flatMap((m) => m.output).map((p) => p.text).join("\n"),
  },
  anthropic: {
    calls: (list) => ({ role: "assistant", content: list.map(({ id, name, args }) => ({ type: "tool_use", id, name, input: args })) }),
    answer: (text) => ({ role: "assistant", content: [{ type: "text", text }] }),
    toolText: (messages) => messages.filter((m) => m.role === "user" && Array.isArray(m.content))
      .flatMap((m) => m.content).filter((b) => b.type === "tool_result").flatMap((b) => b.content).map((c) => c.text).join("\n"),
  },
  gemini: {
    calls: (list) => ({ candidates: [{ content: { role: "model", parts: list.map(({ name, args }) => ({ functionCall: { name, args } })) } }] }),
    answer: (text) => ({ candidates: [{ content: { role: "model", parts: [{ text }] } }] }),
    toolText: (messages) => messages.filter((m) => m.role === "user" && m.parts)
      .flatMap((m) => m.parts).map((p) => p.functionResponse?.response?.output ?? p.functionResponse?.response?.error ?? "").join("\n"),
  },
};

const getSum = (id) => ({ id, name: "get-sum", args: { a: 2, b: 3 } });

describe("runToolLoop over server-everything", () => {
  let client;
  before(async () => { client = await McpClient.connect(URL_, { timeout: 10_000 }); });
  after(() => client?.close());

  for (const [provider, shape] of Object.entries(api)) {
    test(`${provider}: call, result fed back, final answer`, LIMIT, async () => {
      const seen = [];
      const ask = async ({ tools, messages }) => {
        seen.push(messages.length);
        assert.ok(JSON.stringify(tools).includes("get-sum"));
        const result = shape.toolText(messages);
        return result ? shape.answer(`The tool said: ${result}`) : shape.calls([getSum("call_1")]);
      };
      const start = [{ role: "user", content: "What is 2 + 3?" }];
      const done = await runToolLoop({ client, provider, ask, messages: start });
      assert.equal(done.steps, 2);
      assert.match(JSON.stringify(done.reply), /The tool said: .*\b5\b/);
      assert.equal(start.length, 1, "the caller's messages are not modified");
      assert.ok(seen[1] > seen[0], "the second request carries the call and its result");
    });
  }

  test("a model that never stops calling tools hits the step cap", LIMIT, async () => {
    const ask = async () => api.anthropic.calls([getSum(`toolu_${Math.random()}`)]);
    await assert.rejects(runToolLoop({ client, provider: "anthropic", ask, maxSteps: 3 }),
      (e) => e.name === "McpClientError" && e.kind === "max-steps");
    for (const maxSteps of [0, 2.5, Infinity, NaN, "3"]) {
      await assert.rejects(runToolLoop({ client, provider: "anthropic", ask, maxSteps }),
        (e) => e.kind === "invalid-argument" && /maxSteps/.test(e.message), `maxSteps ${String(maxSteps)} is no bound`);
    }
  });

  test("an abort stops the loop with the signal's reason", LIMIT, async () => {
    const controller = new AbortController();
    const ask = async () => { controller.abort(new Error("user pressed stop")); return api["openai-chat"].calls([getSum("call_1")]); };
    await assert.rejects(runToolLoop({ client, provider: "openai-chat", ask, signal: controller.signal }), /user pressed stop/);
  });
});

// gzip-file-as-resource leaves a trace that can be read back: a resource of the
// caller's session named after its `name` argument. So whether a call reached
// the server is a fact of the server, not of the loop's own bookkeeping.
const gzipCall = (id, name, tool = "gzip-file-as-resource") => ({ id, name: tool, args: { name, data: "data:text/plain,hello" } });
const unique = (label) => `${label}-${process.pid}-${Math.random().toString(36).slice(2)}.gz`;
const created = async (client, name) => (await client.listAllResources()).some((r) => r.uri === `demo://resource/session/${name}`);

// A model that makes one step of `steps` per reply, then answers with the tool
// results it was sent; `requests` keeps the transcript of every request.
function scripted(shape, steps) {
  const requests = [];
  const ask = async ({ messages }) => {
    requests.push(messages);
    const next = steps[requests.length - 1];
    return next ? shape.calls(next) : shape.answer(`The tools said: ${shape.toolText(messages)}`);
  };
  return { ask, requests };
}

describe("runToolLoop with approve", () => {
  let client;
  before(async () => { client = await McpClient.connect(URL_, { timeout: 10_000 }); });
  after(() => client?.close());

  for (const [provider, shape] of Object.entries(api)) {
    test(`${provider}: a refused call never reaches the server, and the model is told`, LIMIT, async () => {
      const allowed = unique("allowed");
      const refused = unique("refused");
      const model = scripted(shape, [[gzipCall("call_1", allowed), gzipCall("call_2", refused)]]);
      const asked = [];
      const done = await runToolLoop({ client, provider, ask: model.ask, approve: async (call) => {
        asked.push(call.arguments.name);
        await new Promise((resolve) => setTimeout(resolve, 10)); // a person takes a moment
        return call.arguments.name === allowed;
      } });
      assert.deepEqual(asked, [allowed, refused], "asked one call at a time, in the reply's order");
      assert.equal(await created(client, allowed), true, "the allowed call ran");
      assert.equal(await created(client, refused), false, "the refused call never reached the server");
      assert.match(shape.toolText(model.requests[1]), /user refused this tool call/);
      assert.deepEqual(done.refused.map(({ call, step }) => [call.name, call.arguments.name, step]), [["gzip-file-as-resource", refused, 1]]);
      assert.equal(done.steps, 2);
    });
  }

  test("ctx carries the step and the loop's signal; a refusal is an error result", LIMIT, async () => {
    const controller = new AbortController();
    const model = scripted(api.anthropic, [[getSum("toolu_1")], [getSum("toolu_2")]]);
    const seen = [];
    const done = await runToolLoop({ client, provider: "anthropic", ask: model.ask, signal: controller.signal, approve: (call, ctx) => {
      seen.push({ call, ctx });
      return ctx.step === 1;
    } });
    assert.deepEqual(seen.map(({ ctx }) => ctx.step), [1, 2]);
    assert.ok(seen.every(({ ctx }) => ctx.signal === controller.signal && !("server" in ctx)), "a plain client has no server to name");
    assert.deepEqual(seen[0].call, { id: "toolu_1", name: "get-sum", offeredName: "get-sum", arguments: { a: 2, b: 3 } });
    const results = model.requests[2].filter((m) => m.role === "user" && Array.isArray(m.content)).flatMap((m) => m.content);
    assert.match(results[0].content[0].text, /\b5\b/);
    assert.notEqual(results[0].is_error, true);
    assert.equal(results[1].tool_use_id, "toolu_2");
    assert.equal(results[1].is_error, true);
    assert.match(results[1].content[0].text, /user refused/);
    assert.deepEqual(done.refused, [{ call: seen[1].call, step: 2 }]);
  });

  test("an approve that throws or rejects rejects the loop, and the call does not run", LIMIT, async () => {
    const throwing = () => { throw new Error("no policy for this tool"); };
    const rejecting = async () => { throw new Error("no policy for this tool"); };
    for (const approve of [throwing, rejecting]) {
      const name = unique("unanswered");
      const model = scripted(api["openai-chat"], [[gzipCall("call_1", name)]]);
      await assert.rejects(runToolLoop({ client, provider: "openai-chat", ask: model.ask, approve }), /no policy for this tool/);
      assert.equal(await created(client, name), false);
      assert.equal(model.requests.length, 1, "the model is not asked again");
    }
  });

  test("an answer that is not a boolean rejects the loop rather than guess", LIMIT, async () => {
    const name = unique("truthy");
    const model = scripted(api["openai-chat"], [[gzipCall("call_1", name)]]);
    await assert.rejects(runToolLoop({ client, provider: "openai-chat", ask: model.ask, approve: async () => "yes" }),
      (e) => e.name === "McpClientError" && e.kind === "invalid-argument" && /boolean/.test(e.message));
    assert.equal(await created(client, name), false);
  });

  test("an abort while an answer is pending rejects the loop at once", LIMIT, async () => {
    const controller = new AbortController();
    const name = unique("pending");
    const model = scripted(api.anthropic, [[gzipCall("toolu_1", name)]]);
    const approve = () => {
      setTimeout(() => controller.abort(new Error("user pressed stop")), 20);
      return new Promise(() => {}); // nobody ever answers
    };
    await assert.rejects(runToolLoop({ client, provider: "anthropic", ask: model.ask, signal: controller.signal, approve }), /user pressed stop/);
    assert.equal(await created(client, name), false);
  });
});

describe("runToolLoop with approve over an McpHost of two servers", () => {
  let host;
  before(async () => { host = await McpHost.connect({ left: { url: URL_ }, right: { url: SECOND_URL } }, { clientOptions: { timeout: 10_000 } }); });
  after(() => host?.close());

  test("ctx.server names the server each call would go to", LIMIT, async () => {
    assert.deepEqual(host.servers().map((s) => [s.name, s.status]), [["left", "connected"], ["right", "connected"]]);
    const gzipOn = (server) => host.tools.find((t) => t.server === server && t.serverName === "gzip-file-as-resource").name;
    const names = { left: unique("left"), right: unique("right") };
    const model = scripted(api["openai-chat"], [[gzipCall("call_1", names.left, gzipOn("left")), gzipCall("call_2", names.right, gzipOn("right"))]]);
    const servers = {};
    const done = await runToolLoop({ client: host, provider: "openai-chat", ask: model.ask, approve: (call, ctx) => {
      servers[call.name] = ctx.server;
      return ctx.server === "left";
    } });
    assert.deepEqual(servers, { [gzipOn("left")]: "left", [gzipOn("right")]: "right" });
    assert.equal(await created(host.client("left"), names.left), true);
    assert.equal(await created(host.client("right"), names.right), false, "the refused call never reached its server");
    assert.equal(await created(host.client("left"), names.right), false, "nor the other one");
    assert.deepEqual(done.refused.map((r) => [r.call.name, r.server, r.step]), [[gzipOn("right"), "right", 1]]);
    assert.equal(await host.toolServer(gzipOn("right")), "right");
    assert.equal(await host.toolServer("nobody__nothing"), undefined);
  });
});

// Two 2026-07-28 peers (@modelcontextprotocol/server 2.x), whose add-tool registers a tool that
// answers `I am <name>`: a name can move from one server to the other while approve is asked.
describe("runToolLoop with approve, when the name moves to another server meanwhile", () => {
  const FIRST = process.env.MCP_MODERN_TEST_URL ?? "http://127.0.0.1:38013/mcp";
  const SECOND = process.env.MCP_DUAL_TEST_URL ?? "http://127.0.0.1:38014/mcp";

  test("the approved call is refused rather than sent to the server approve was not told of", LIMIT, async () => {
    const host = await McpHost.connect({ first: { url: FIRST }, second: { url: SECOND } },
      { naming: { prefix: "on-collision" }, clientOptions: { timeout: 10_000 } });
    try {
      const tool = `moved-${process.pid}-${Date.now().toString(36)}`;
      const add = async (server) => {
        const heard = new Promise((resolve) => host.addEventListener("change", (e) => e.reason === "list_changed" && e.server === server && resolve()));
        await host.client(server).callTool({ name: "add-tool", arguments: { name: tool } });
        await heard;
      };
      await add("first");
      assert.equal(await host.toolServer(tool), "first");
      const model = scripted(api["openai-chat"], [[{ id: "call_1", name: tool, args: {} }]]);
      const told = [];
      const loop = runToolLoop({ client: host, provider: "openai-chat", ask: model.ask, approve: async (call, ctx) => {
        told.push(ctx.server);
        // While the person thinks, the second server lists the tool too and the first one goes:
        // the bare name is the second server's now.
        await add("second");
        await host.removeServer("first");
        return true;
      } });
      await assert.rejects(loop, (e) => e.kind === "invalid-argument" && /now server second's/.test(e.message));
      assert.deepEqual(told, ["first"]);
      assert.equal(await host.toolServer(tool), "second", "the name did move");
      assert.equal(model.requests.length, 1, "no result went back to the model");
      // Pinned to where it leads, the call goes through.
      const result = await host.callTool({ name: tool, server: "second" });
      assert.equal(result.content[0].text, `I am ${tool}`);
    } finally {
      await host.close();
    }
  });

  test("a call approved while no server offered it is refused once one does", LIMIT, async () => {
    const host = await McpHost.connect({ first: { url: FIRST } }, { clientOptions: { timeout: 10_000 } });
    try {
      const tool = `late-${process.pid}-${Date.now().toString(36)}`;
      const model = scripted(api["openai-chat"], [[{ id: "call_1", name: `first__${tool}`, args: {} }]]);
      const told = [];
      // Offered from a list of the caller's (a tool the server no longer had would do the same).
      const tools = [{ name: `first__${tool}`, inputSchema: { type: "object" } }];
      const loop = runToolLoop({ client: host, provider: "openai-chat", ask: model.ask, tools, approve: async (call, ctx) => {
        told.push(ctx.server);
        const heard = new Promise((resolve) => host.addEventListener("change", (e) => e.reason === "list_changed" && resolve()));
        await host.client("first").callTool({ name: "add-tool", arguments: { name: tool } });
        await heard;
        return true;
      } });
      await assert.rejects(loop, (e) => e.kind === "invalid-argument" && /not no server's/.test(e.message));
      assert.deepEqual(told, [undefined]);
      assert.equal(await host.toolServer(`first__${tool}`), "first", "the name leads somewhere now");
    } finally {
      await host.close();
    }
  });
});
