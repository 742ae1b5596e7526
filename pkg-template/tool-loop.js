// The tool-use loop of a chat host, in plain JS over McpClient and ToolBridge:
// offer the tools, run the calls the model makes, feed the results back, and
// repeat until the model answers without calling a tool. Types: tool-loop.d.ts.
import { McpClientError, ToolBridge } from "./mcp_wasm.js";

// How each API's transcript grows: the model's turn as it must be replayed,
// then the tool results (Anthropic and Gemini want all of them in one turn).
const TRANSCRIPT = {
  "openai-chat": {
    modelTurn: (reply) => [reply?.choices?.[0]?.message ?? reply],
    results: (messages) => messages,
  },
  "openai-responses": {
    modelTurn: (reply) => (Array.isArray(reply) ? reply : reply?.output ?? []),
    results: (messages) => messages,
  },
  anthropic: {
    modelTurn: (reply) => [{ role: "assistant", content: Array.isArray(reply) ? reply : reply?.content ?? [] }],
    results: (messages) => [{ role: "user", content: messages.flatMap((m) => m.content) }],
  },
  gemini: {
    modelTurn: (reply) => [reply?.candidates?.[0]?.content ?? reply],
    results: (messages) => [{ role: "user", parts: messages.flatMap((m) => m.parts) }],
  },
};

function stopped(signal) {
  if (signal?.aborted) throw signal.reason;
}

export async function runToolLoop({ client, provider, ask, messages = [], tools, maxSteps = 10, signal }) {
  const transcript = TRANSCRIPT[provider];
  if (!transcript) throw new McpClientError("invalid-argument", `unknown provider ${JSON.stringify(provider)}`);
  const bridge = new ToolBridge(provider, tools ?? (await client.listAllTools({ signal })));
  const history = [...messages];
  for (let step = 1; step <= maxSteps; step++) {
    stopped(signal);
    const reply = await ask({ tools: bridge.definitions, messages: history, signal });
    stopped(signal);
    const calls = bridge.parseToolCalls(reply);
    if (calls.length === 0) return { reply, messages: history, steps: step, notes: bridge.notes };
    history.push(...transcript.modelTurn(reply));
    const results = await Promise.all(calls.map(async (call) => {
      const result = await client.callTool({ name: call.name, arguments: call.arguments }, { signal });
      return bridge.toolResultMessage(call, result);
    }));
    history.push(...transcript.results(results));
  }
  throw new McpClientError("max-steps", `the model was still calling tools after ${maxSteps} steps`);
}
