// ToolBridge against server-everything: its real tools offered in each LLM
// API's shape, a scripted model reply in that API's shape parsed back into MCP
// calls, the real tool called, and its result turned into the API's message.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { McpClient, ToolBridge } from "mcp-wasm";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 20_000 };

// What each API's reply looks like when the model calls one tool.
const replies = {
  "openai-chat": (name, args) => ({ choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: JSON.stringify(args) } }] } }] }),
  "openai-responses": (name, args) => ({ object: "response", output: [{ type: "function_call", id: "fc_1", call_id: "call_1", name, arguments: JSON.stringify(args), status: "completed" }] }),
  anthropic: (name, args) => ({ type: "message", role: "assistant", stop_reason: "tool_use", content: [{ type: "tool_use", id: "toolu_1", name, input: args }] }),
  gemini: (name, args) => ({ candidates: [{ content: { role: "model", parts: [{ functionCall: { name, args } }] }, finishReason: "STOP" }] }),
};
const offeredNames = {
  "openai-chat": (d) => d.map((t) => t.function.name),
  "openai-responses": (d) => d.map((t) => t.name),
  anthropic: (d) => d.map((t) => t.name),
  gemini: (d) => d[0].functionDeclarations.map((f) => f.name),
};
const resultText = {
  "openai-chat": (m) => m.content,
  "openai-responses": (m) => m.output.filter((p) => p.type === "input_text").map((p) => p.text).join("\n"),
  anthropic: (m) => m.content[0].content.filter((b) => b.type === "text").map((b) => b.text).join("\n"),
  gemini: (m) => m.parts[0].functionResponse.response.output,
};

describe("ToolBridge with server-everything", () => {
  let client;
  let tools;
  before(async () => {
    client = await McpClient.connect(URL_, { timeout: 10_000 });
    tools = await client.listAllTools();
  });
  after(() => client?.close());

  for (const provider of Object.keys(replies)) {
    test(`${provider}: offer, parse the call, call the tool, answer in the API's shape`, LIMIT, async () => {
      const bridge = new ToolBridge(provider, tools);
      const names = offeredNames[provider](bridge.definitions);
      assert.deepEqual(names, tools.map((t) => t.name), "server-everything's names are valid everywhere, so kept");
      const [call] = bridge.parseToolCalls(replies[provider]("get-sum", { a: 2, b: 3 }));
      assert.equal(call.name, "get-sum");
      assert.deepEqual(call.arguments, { a: 2, b: 3 });
      const result = await client.callTool({ name: call.name, arguments: call.arguments });
      const message = bridge.toolResultMessage(call, result);
      assert.match(resultText[provider](message), /\b5\b/);
    });
  }

  test("an image result: kept for Anthropic and Responses, reported for text-only APIs", LIMIT, async () => {
    const result = await client.callTool({ name: "get-tiny-image", arguments: {} });
    const anthropic = new ToolBridge("anthropic", tools);
    const [a] = anthropic.parseToolCalls(replies.anthropic("get-tiny-image", {}));
    const block = anthropic.toolResultMessage(a, result).content[0];
    assert.ok(block.content.some((c) => c.type === "image" && c.source.type === "base64" && c.source.media_type === "image/png"));
    assert.equal(anthropic.notes.length, 0);
    const chat = new ToolBridge("openai-chat", tools);
    const [c] = chat.parseToolCalls(replies["openai-chat"]("get-tiny-image", {}));
    assert.match(chat.toolResultMessage(c, result).content, /\[image image\/png\]/);
    assert.ok(chat.notes.some((n) => /get-tiny-image: .*block of type image/.test(n)), chat.notes.join("; "));
  });

  test("names an API refuses are rewritten, mapped back, and reported", LIMIT, () => {
    const renamed = tools.map((t) => ({ ...t, name: `demo.${t.name}` }));
    const bridge = new ToolBridge("openai-chat", renamed);
    assert.ok(offeredNames["openai-chat"](bridge.definitions).every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n)));
    assert.ok(bridge.notes.some((n) => n.startsWith("demo.get-sum: offered as demo_get-sum")));
    const [call] = bridge.parseToolCalls(replies["openai-chat"]("demo_get-sum", { a: 1, b: 1 }));
    assert.equal(call.name, "demo.get-sum");
  });

  test("bad replies and bad arguments are typed errors", LIMIT, () => {
    const bridge = new ToolBridge("openai-chat", tools);
    const broken = { choices: [{ message: { tool_calls: [{ id: "c", type: "function", function: { name: "get-sum", arguments: "{\"a\":" } }] } }] };
    assert.throws(() => bridge.parseToolCalls(broken), (e) => e.name === "McpClientError" && e.kind === "invalid-argument" && /not valid JSON/.test(e.message));
    assert.throws(() => bridge.parseToolCalls(replies["openai-chat"]("rm-rf", {})), (e) => e.kind === "invalid-argument" && /not offered/.test(e.message));
    assert.throws(() => new ToolBridge("palm", tools), (e) => e.kind === "invalid-argument" && /unknown provider/.test(e.message));
  });
});
