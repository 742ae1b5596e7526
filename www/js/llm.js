// The optional LLM endpoint: its settings, and one request in the wire shape
// of the API chosen (OpenAI-compatible Chat Completions, Anthropic Messages or
// Gemini generateContent). The package's bridges turn tools and tool calls
// into each shape; this file only says how a request is sent and how a
// transcript's plain turns look. The key stays in sessionStorage unless the
// user opts in to keeping it in localStorage.
const KEY = "mcp-wasm-inspector.llm";

/** The APIs the chat speaks, by `runToolLoop` provider name. */
export const PROVIDERS = {
  "openai-chat": { label: "OpenAI-compatible (Chat Completions)", base: "https://api.openai.com/v1" },
  anthropic: { label: "Anthropic (Messages)", base: "https://api.anthropic.com/v1" },
  gemini: { label: "Gemini (generateContent)", base: "https://generativelanguage.googleapis.com/v1beta" },
};
const DEFAULTS = { provider: "openai-chat", baseUrl: "", model: "", apiKey: "", remember: false };
// Anthropic requires max_tokens; the chat asks for this much.
const ANTHROPIC_MAX_TOKENS = 4096;

export function loadSettings() {
  for (const store of [sessionStorage, localStorage]) {
    try {
      const saved = JSON.parse(store.getItem(KEY) ?? "null");
      if (saved && typeof saved === "object") {
        // Kept in localStorage is what "remember" means, whichever store this session read first.
        const settings = { ...DEFAULTS, remember: localStorage.getItem(KEY) !== null, ...saved };
        if (!PROVIDERS[settings.provider]) settings.provider = DEFAULTS.provider;
        return settings;
      }
    } catch {
      // A corrupt entry is ignored.
    }
  }
  return { ...DEFAULTS };
}

export function saveSettings(settings) {
  const value = JSON.stringify({ provider: settings.provider, baseUrl: settings.baseUrl, model: settings.model, apiKey: settings.apiKey });
  sessionStorage.setItem(KEY, value);
  if (settings.remember) localStorage.setItem(KEY, value);
  else localStorage.removeItem(KEY);
}

/** A model is enough: an empty base URL means the provider's own. */
export const configured = (settings) => Boolean(settings.model && PROVIDERS[settings.provider]);

const baseOf = (settings) => (settings.baseUrl || PROVIDERS[settings.provider].base).replace(/\/+$/, "");

// Where each API is asked, with which headers, and the body around the transcript.
const WIRE = {
  "openai-chat": (settings, { messages, tools, system }) => ({
    url: `${baseOf(settings)}/chat/completions`,
    headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
    body: { model: settings.model, messages: system ? [{ role: "system", content: system }, ...messages] : messages,
      ...(tools?.length ? { tools } : {}) },
  }),
  anthropic: (settings, { messages, tools, system }) => ({
    url: `${baseOf(settings)}/messages`,
    // The last header lets a page call the API directly, with the user's own key.
    headers: { "x-api-key": settings.apiKey, "anthropic-version": "2023-06-01", "anthropic-dangerous-direct-browser-access": "true" },
    body: { model: settings.model, max_tokens: ANTHROPIC_MAX_TOKENS, messages, ...(system ? { system } : {}), ...(tools?.length ? { tools } : {}) },
  }),
  gemini: (settings, { messages, tools, system }) => ({
    url: `${baseOf(settings)}/models/${encodeURIComponent(settings.model)}:generateContent`,
    headers: settings.apiKey ? { "x-goog-api-key": settings.apiKey } : {},
    body: { contents: messages, ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}), ...(tools?.length ? { tools } : {}) },
  }),
};

/**
 * Sends one request to the configured API: `messages` (and `tools`, as the
 * bridge made them) in that API's shape. Resolves with the reply as the API
 * returned it, which is what `runToolLoop` wants from `ask`.
 */
export async function askModel(settings, { messages, tools, system, signal }) {
  const { url, headers, body } = WIRE[settings.provider](settings, { messages, tools, system });
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body), signal });
  const text = await response.text();
  if (!response.ok) throw new Error(`the LLM endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`the LLM endpoint answered with something that is not JSON: ${text.slice(0, 120)}`);
  }
}

/** A plain turn of the transcript, in the provider's shape. */
export function turn(provider, role, text) {
  if (provider === "gemini") return { role: role === "assistant" ? "model" : "user", parts: [{ text }] };
  return { role, content: text };
}

/** A final reply: its text, and the turn that goes into the transcript. */
export function finalReply(provider, reply) {
  if (provider === "anthropic") {
    const content = Array.isArray(reply?.content) ? reply.content : [];
    return { text: content.filter((b) => b?.type === "text").map((b) => String(b.text)).join("\n"), turn: { role: "assistant", content } };
  }
  if (provider === "gemini") {
    const content = reply?.candidates?.[0]?.content ?? { role: "model", parts: [] };
    return { text: (content.parts ?? []).filter((p) => typeof p?.text === "string").map((p) => p.text).join(""), turn: content };
  }
  const message = reply?.choices?.[0]?.message ?? { role: "assistant", content: "" };
  return { text: String(message.content ?? ""), turn: message };
}

/** A draft reply to an MCP sampling request (text parts only): its text and the model's name. */
export async function draftSampling(settings, params, signal) {
  const text = (content) => [content].flat().map((c) => (c?.type === "text" ? c.text : `[${c?.type ?? "content"}]`)).join("\n");
  const messages = (Array.isArray(params?.messages) ? params.messages : [])
    .map((m) => turn(settings.provider, m.role === "assistant" ? "assistant" : "user", text(m.content)));
  const reply = await askModel(settings, { messages, system: params?.systemPrompt ? String(params.systemPrompt) : undefined, signal });
  return { text: finalReply(settings.provider, reply).text, model: String(reply?.model ?? reply?.modelVersion ?? settings.model) };
}
