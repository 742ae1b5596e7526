// The tool-use loop of a chat host, in plain JS over McpClient and ToolBridge:
// offer the tools, run the calls the model makes (those `approve` allows), feed
// the results back, and repeat until the model answers without calling a tool.
// Loaded by tool-loop.js the first time the loop runs. Types: tool-loop.d.ts.
// ToolBridge comes from tool-loop.js rather than an import of bridges.js: the browser entry has
// bridges.js bundled into it (scripts/build.sh), and a second copy would be a second class.
import { McpClientError } from "./mcp_wasm.js";

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

// What the model is told for a call the user refused, so it can go on without it.
const REFUSED_RESULT = {
  content: [{ type: "text", text: "The user refused this tool call, so it was not run." }],
  isError: true,
};

function stopped(signal) {
  if (signal?.aborted) throw signal.reason;
}

// Settles with `promise`, or rejects with the signal's reason as soon as it
// aborts: a person may never answer, and Stop must not wait for them.
function unlessAborted(promise, signal) {
  stopped(signal);
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    Promise.resolve(promise).then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

// Asks `approve` about one call. Anything but a boolean is a bug in the hook,
// and the call is not run on a guess.
async function decide(approve, call, context) {
  const answer = await unlessAborted(approve(call, context), context.signal);
  stopped(context.signal);
  if (typeof answer !== "boolean") {
    throw new McpClientError("invalid-argument", `approve must return a boolean, not ${answer === null ? "null" : typeof answer}`);
  }
  return answer;
}

// Asks `approve` about each call of one step: the refused ones, as the loop
// reports them, and the server each approved one was said to go to. It is asked
// one call at a time, in the reply's order (a person answers one question at a
// time), and before any call starts, so no call runs while another is in doubt.
async function verdicts(calls, { client, approve, step, signal }) {
  const refused = [];
  const approvedFor = new Map();
  for (const call of calls) {
    const server = await unlessAborted(client.toolServer?.(call.name), signal);
    const where = server === undefined ? {} : { server };
    if (!(await decide(approve, call, { step, signal, ...where }))) refused.push({ call, step, ...where });
    // A host is told where approve was told the call would go: null, when no server offered it then.
    else if (client.toolServer) approvedFor.set(call, server ?? null);
  }
  return { refused, approvedFor };
}

export async function runToolLoop(ToolBridge, { client, provider, ask, messages = [], tools, maxSteps = 10, signal, approve }) {
  const transcript = TRANSCRIPT[provider];
  if (!transcript) throw new McpClientError("invalid-argument", `unknown provider ${JSON.stringify(provider)}`);
  if (approve !== undefined && typeof approve !== "function") throw new McpClientError("invalid-argument", "approve must be a function");
  if (!(Number.isInteger(maxSteps) && maxSteps >= 1)) throw new McpClientError("invalid-argument", "maxSteps must be a whole number, 1 or more");
  const bridge = new ToolBridge(provider, tools ?? (await client.listAllTools({ signal })));
  const history = [...messages];
  const refused = [];
  for (let step = 1; step <= maxSteps; step++) {
    stopped(signal);
    const reply = await ask({ tools: bridge.definitions, messages: history, signal });
    stopped(signal);
    const calls = bridge.parseToolCalls(reply);
    if (calls.length === 0) return { reply, messages: history, steps: step, notes: bridge.notes, refused };
    history.push(...transcript.modelTurn(reply));
    const { refused: refusedNow, approvedFor } = approve ? await verdicts(calls, { client, approve, step, signal }) : { refused: [], approvedFor: new Map() };
    refused.push(...refusedNow);
    // A call that fails fails the step, and the step's other calls stop with it rather than run on
    // to their timeouts with nobody waiting for them.
    const stepCalls = new AbortController();
    const stepSignal = signal ? AbortSignal.any([signal, stepCalls.signal]) : stepCalls.signal;
    const results = await Promise.all(calls.map(async (call) => {
      if (refusedNow.some((r) => r.call === call)) return bridge.toolResultMessage(call, REFUSED_RESULT);
      try {
        // An approved call goes to the server approve was told of, or fails: a host's names can move
        // to another server while a person thinks.
        const pinned = approvedFor.has(call) ? { server: approvedFor.get(call) } : {};
        const result = await client.callTool({ name: call.name, arguments: call.arguments, ...pinned }, { signal: stepSignal });
        return bridge.toolResultMessage(call, result);
      } catch (error) {
        stepCalls.abort(error);
        throw error;
      }
    }));
    history.push(...transcript.results(results));
  }
  throw new McpClientError("max-steps", `the model was still calling tools after ${maxSteps} steps`);
}
