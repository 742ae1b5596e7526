// A chat page whose model calls the tools of one MCP server. The model is any
// OpenAI-compatible Chat Completions endpoint; runToolLoop offers it the
// server's tools, asks the user before each call, runs the allowed ones and
// feeds the results back until the model answers in words.
import { McpClient, runToolLoop, type BridgeToolCall, type Tool, type ToolLoopRequest } from "mcp-wasm";

// The parts of a Chat Completions message this page shows.
interface ChatMessage {
  role: string;
  content?: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
interface ChatCompletion {
  choices?: { message: ChatMessage }[];
  error?: { message?: string };
}

function element<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`the page has no ${selector}`);
  return found;
}
const connectForm = element<HTMLFormElement>("#connect");
const modelForm = element<HTMLFormElement>("#model");
const askForm = element<HTMLFormElement>("#ask");
const status = element<HTMLOutputElement>("#status");
const toolList = element<HTMLUListElement>("#tools");
const transcript = element<HTMLOListElement>("#transcript");
const approval = element<HTMLDialogElement>("#approval");
const prompt = element<HTMLInputElement>("#ask input");
const sendButton = element<HTMLButtonElement>("#ask button:not(#stop)");
const stopButton = element<HTMLButtonElement>("#stop");

const field = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? "").trim();
const errorText = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));
const textOf = (content: ChatMessage["content"]) =>
  typeof content === "string" ? content : (content ?? []).map((part) => part.text ?? `[${part.type}]`).join("");

let client: McpClient | undefined;
let history: ChatMessage[] = []; // the conversation so far, as the model sees it
let shown = 0; // how many messages of the current transcript are on the page
const toolNames = new Map<string, string>(); // tool call id -> tool name, to label results

function setStatus(state: "connecting" | "connected" | "error", text: string) {
  status.dataset.state = state;
  status.textContent = text;
}

function say(kind: "user" | "assistant" | "call" | "result" | "error", text: string) {
  const item = document.createElement("li");
  item.className = kind;
  item.textContent = text;
  transcript.append(item);
  item.scrollIntoView({ block: "end" });
}

// One Chat Completions message on the page (textContent only: a server's and a
// model's text is never markup here).
function show(message: ChatMessage) {
  if (message.role === "user") say("user", textOf(message.content));
  else if (message.role === "tool") say("result", `${toolNames.get(message.tool_call_id ?? "") ?? "tool"} → ${textOf(message.content)}`);
  else if (message.role === "assistant") {
    if (message.content) say("assistant", textOf(message.content));
    for (const call of message.tool_calls ?? []) {
      toolNames.set(call.id, call.function.name);
      say("call", `${call.function.name}(${call.function.arguments})`);
    }
  }
}

function showTools(tools: Tool[]) {
  toolList.replaceChildren(
    ...tools.map((tool) => {
      const item = document.createElement("li");
      item.textContent = tool.name;
      item.title = tool.description ?? "";
      return item;
    }),
  );
}

connectForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const url = field(connectForm, "mcpUrl");
  const previous = client;
  client = undefined;
  prompt.disabled = sendButton.disabled = true;
  await previous?.close().catch(() => {});
  setStatus("connecting", `connecting to ${url}…`);
  try {
    const next = await McpClient.connect(url, { clientInfo: { name: "mcp-wasm-vite-chat", version: "0.1.0" } });
    showTools(await next.listAllTools());
    client = next;
    history = [];
    transcript.replaceChildren();
    setStatus("connected", `${next.serverInfo.name} (${next.transport}, ${next.protocolVersion})`);
    prompt.disabled = sendButton.disabled = false;
  } catch (e) {
    setStatus("error", errorText(e));
  }
});

// Sends one request to the model. The transcript it carries holds the tool
// results of the previous step, so they are shown before the model is asked.
async function askModel({ tools, messages, signal }: ToolLoopRequest): Promise<ChatCompletion> {
  for (const message of (messages as ChatMessage[]).slice(shown)) show(message);
  const baseUrl = field(modelForm, "baseUrl").replace(/\/+$/, "");
  const apiKey = field(modelForm, "apiKey");
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify({ model: field(modelForm, "model"), messages, ...(tools.length ? { tools } : {}) }),
    signal: signal ?? null,
  });
  const text = await response.text();
  let reply: ChatCompletion;
  try {
    reply = JSON.parse(text) as ChatCompletion;
  } catch {
    throw new Error(`the model endpoint answered ${response.status} with ${text.slice(0, 200)}`);
  }
  if (!response.ok) throw new Error(`the model endpoint answered ${response.status}: ${reply.error?.message ?? text.slice(0, 200)}`);
  const message = reply.choices?.[0]?.message;
  if (message) show(message);
  // The loop replays this message in the next request: it is on the page already.
  shown = messages.length + 1;
  return reply;
}

// Asks the user about one tool call in a modal dialog; Escape counts as Deny.
function askUser(call: BridgeToolCall, signal: AbortSignal | undefined): Promise<boolean> {
  element("#approval-tool").textContent = call.name;
  element("#approval-args").textContent = JSON.stringify(call.arguments, null, 2);
  approval.returnValue = "";
  approval.showModal();
  return new Promise((resolve) => {
    const abort = () => approval.close();
    signal?.addEventListener("abort", abort, { once: true });
    approval.addEventListener(
      "close",
      () => {
        signal?.removeEventListener("abort", abort);
        resolve(approval.returnValue === "allow");
      },
      { once: true },
    );
  });
}

askForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!client) return;
  const question: ChatMessage = { role: "user", content: prompt.value };
  prompt.value = "";
  prompt.disabled = sendButton.disabled = true;
  const messages = [...history, question];
  shown = history.length;
  const controller = new AbortController();
  stopButton.onclick = () => controller.abort(new Error("stopped by the user"));
  stopButton.disabled = false;
  try {
    const { reply, messages: before, refused } = await runToolLoop({
      client,
      provider: "openai-chat",
      messages,
      maxSteps: 8,
      signal: controller.signal,
      ask: askModel,
      approve: (call, { signal }) => askUser(call, signal),
    });
    const answer = (reply as ChatCompletion).choices?.[0]?.message;
    history = [...(before as ChatMessage[]), ...(answer ? [answer] : [])];
    for (const { call } of refused) say("error", `you refused ${call.name}; the model went on without it`);
  } catch (e) {
    // The question stays out of the history, so it can be asked again.
    say("error", errorText(e));
  } finally {
    stopButton.disabled = true;
    prompt.disabled = sendButton.disabled = false;
    prompt.focus();
  }
});
