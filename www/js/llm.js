// The optional LLM endpoint (OpenAI-compatible Chat Completions): its settings
// and one call. The key stays in sessionStorage unless the user opts in to
// keeping it in localStorage.
const KEY = "mcp-wasm-inspector.llm";

export function loadSettings() {
  for (const store of [sessionStorage, localStorage]) {
    try {
      const saved = JSON.parse(store.getItem(KEY) ?? "null");
      if (saved && typeof saved === "object") return { baseUrl: "", model: "", apiKey: "", remember: store === localStorage, ...saved };
    } catch {
      // A corrupt entry is ignored.
    }
  }
  return { baseUrl: "", model: "", apiKey: "", remember: false };
}

export function saveSettings(settings) {
  const value = JSON.stringify({ baseUrl: settings.baseUrl, model: settings.model, apiKey: settings.apiKey });
  sessionStorage.setItem(KEY, value);
  if (settings.remember) localStorage.setItem(KEY, value);
  else localStorage.removeItem(KEY);
}

export const configured = (settings) => Boolean(settings.baseUrl && settings.model);

/** POSTs `{ model, messages, tools? }` to `<baseUrl>/chat/completions`; resolves with the reply. */
export async function chatCompletion(settings, { messages, tools, signal }) {
  const url = `${settings.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const headers = { "content-type": "application/json" };
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  const body = { model: settings.model, messages };
  if (tools && tools.length) body.tools = tools;
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal });
  const text = await response.text();
  if (!response.ok) throw new Error(`the LLM endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`the LLM endpoint answered with something that is not JSON: ${text.slice(0, 120)}`);
  }
}

/** An MCP sampling request as Chat Completions messages (text parts only). */
export function samplingToChat(params) {
  const text = (content) => [content].flat().map((c) => (c?.type === "text" ? c.text : `[${c?.type ?? "content"}]`)).join("\n");
  const messages = [];
  if (params?.systemPrompt) messages.push({ role: "system", content: String(params.systemPrompt) });
  for (const m of Array.isArray(params?.messages) ? params.messages : []) messages.push({ role: m.role === "assistant" ? "assistant" : "user", content: text(m.content) });
  return messages;
}
