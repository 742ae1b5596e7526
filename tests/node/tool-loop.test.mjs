// runToolLoop end to end: a scripted "LLM" in each API's exact reply shape
// asks for get-sum, reads the real result from server-everything out of the
// transcript it is sent, and answers. Also the step cap and abort.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { McpClient, runToolLoop } from "mcp-wasm";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 20_000 };

// Per API: a reply calling get-sum, a final text reply, and where the tool's text is in the transcript.
const api = {
  "openai-chat": {
    call: (id) => ({ choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "get-sum", arguments: "{\"a\":2,\"b\":3}" } }] } }] }),
    answer: (text) => ({ choices: [{ message: { role: "assistant", content: text } }] }),
    toolText: (messages) => messages.filter((m) => m.role === "tool").map((m) => m.content).join("\n"),
  },
  "openai-responses": {
    call: (id) => ({ output: [{ type: "function_call", call_id: id, name: "get-sum", arguments: "{\"a\":2,\"b\":3}" }] }),
    answer: (text) => ({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] }),
    toolText: (messages) => messages.filter((m) => m.type === "function_call_output").flatMap((m) => m.output).map((p) => p.text).join("\n"),
  },
  anthropic: {
    call: (id) => ({ role: "assistant", content: [{ type: "tool_use", id, name: "get-sum", input: { a: 2, b: 3 } }] }),
    answer: (text) => ({ role: "assistant", content: [{ type: "text", text }] }),
    toolText: (messages) => messages.filter((m) => m.role === "user" && Array.isArray(m.content))
      .flatMap((m) => m.content).filter((b) => b.type === "tool_result").flatMap((b) => b.content).map((c) => c.text).join("\n"),
  },
  gemini: {
    call: () => ({ candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get-sum", args: { a: 2, b: 3 } } }] } }] }),
    answer: (text) => ({ candidates: [{ content: { role: "model", parts: [{ text }] } }] }),
    toolText: (messages) => messages.filter((m) => m.role === "user" && m.parts)
      .flatMap((m) => m.parts).map((p) => p.functionResponse?.response?.output ?? "").join("\n"),
  },
};

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
        return result ? shape.answer(`The tool said: ${result}`) : shape.call("call_1");
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
    const ask = async () => api.anthropic.call(`toolu_${Math.random()}`);
    await assert.rejects(runToolLoop({ client, provider: "anthropic", ask, maxSteps: 3 }),
      (e) => e.name === "McpClientError" && e.kind === "max-steps");
  });

  test("an abort stops the loop with the signal's reason", LIMIT, async () => {
    const controller = new AbortController();
    const ask = async () => { controller.abort(new Error("user pressed stop")); return api["openai-chat"].call("call_1"); };
    await assert.rejects(runToolLoop({ client, provider: "openai-chat", ask, signal: controller.signal }), /user pressed stop/);
  });
});
