// Chat mode: with a model configured (an OpenAI-compatible, Anthropic or
// Gemini endpoint), the model sees every tool of every connected server
// (runToolLoop over the host, whose bridge speaks the chosen API), calls them
// once the user allows it, and sees the results; each call shows inline with
// its result, or as refused.
import { runToolLoop } from "mcp-wasm";
import { h, uid, describeError, pretty } from "./dom.js";
import { renderToolResult } from "./render.js";
import { askToolApproval } from "./tool-approval.js";
import { PROVIDERS, loadSettings, saveSettings, configured, askModel, turn, finalReply } from "./llm.js";

export function chatView(app) {
  const settings = loadSettings();
  const ids = { provider: uid("provider"), base: uid("base"), model: uid("model"), key: uid("key"), remember: uid("remember"), prompt: uid("prompt") };
  const transcript = h("ol", { class: "chat", data: { testid: "chat" }, aria: { live: "polite" } });
  const prompt = h("textarea", { id: ids.prompt, rows: 2, data: { testid: "chat-input" }, placeholder: "Ask something that needs the servers' tools" });
  const send = h("button", { type: "submit", data: { testid: "chat-send" } }, "Send");
  const stop = h("button", { type: "button", disabled: true, onclick: () => running?.abort(new DOMException("Stopped by the user", "AbortError")) }, "Stop");
  const note = h("p", { class: "muted", role: "status", data: { testid: "chat-status" } });
  let history = [];
  let running = null;
  // The tools the user allowed for the rest of this chat, each with the server it was allowed on.
  const allowed = new Set();
  // The transcript is in the chosen API's shape, so a new provider starts a new chat.
  function clearChat() {
    history = [];
    allowed.clear();
    transcript.replaceChildren();
    note.textContent = "";
  }
  const clear = h("button", { type: "button", data: { testid: "chat-clear" }, onclick: clearChat }, "Clear chat");

  const say = (role, ...content) => transcript.append(h("li", { class: `turn ${role}`, data: { testid: `chat-${role}` } }, h("span", { class: "role" }, role), ...content));
  const toolEntry = (name, args, ...children) => h("li", { class: "turn tool", data: { testid: "chat-tool-call", name } },
    h("span", { class: "role" }, "tool"), h("code", {}, `${name}(${pretty(args ?? {}, 2000)})`), ...children);

  // Asked before each call the model makes; a refusal shows in the transcript, and the loop tells the model.
  async function approve(call, { server, signal }) {
    const key = JSON.stringify([server, call.name]);
    if (allowed.has(key)) return true;
    // The server's URL beside its name: a name is whatever server connected first under it.
    const url = app.host.servers().find((state) => state.name === server)?.url;
    const choice = await askToolApproval({ server, url, call }, signal);
    if (choice === "chat") allowed.add(key);
    if (choice !== "deny") return true;
    const entry = toolEntry(call.name, call.arguments, h("p", { class: "refused" }, "Refused by you: not sent to the server."));
    entry.dataset.refused = "true";
    transcript.append(entry);
    return false;
  }

  // The host, with each tool call shown as it happens.
  const visibleHost = {
    listAllTools: () => app.host.listAllTools(),
    toolServer: (name) => app.host.toolServer(name),
    callTool: async (params, options) => {
      const entry = toolEntry(params.name, params.arguments);
      transcript.append(entry);
      try {
        // The server the call goes to, asked first: a resource link in its result is read there,
        // not wherever else the same URI is listed.
        const server = await app.host.toolServer(params.name);
        const result = await app.host.callTool(params, options);
        entry.append(renderToolResult(result, { onOpenResource: (uri) => app.openResource?.(uri, server) }));
        return result;
      } catch (error) {
        if (options?.signal?.aborted) throw error;
        // The model gets the failure as a tool error and can recover (a name it made up, say).
        entry.append(h("p", { class: "field-error" }, describeError(error)));
        return { content: [{ type: "text", text: describeError(error) }], isError: true };
      }
    },
  };

  async function submit(event) {
    event.preventDefault();
    const text = prompt.value.trim();
    if (!text) return;
    if (!configured(settings)) {
      note.textContent = "Configure a model first.";
      return;
    }
    prompt.value = "";
    say("user", h("p", { class: "prewrap" }, text));
    // The run keeps the settings it started with: Save meanwhile applies to the next message.
    const using = { ...settings };
    const provider = using.provider;
    history.push(turn(provider, "user", text));
    running = new AbortController();
    send.disabled = true;
    clear.disabled = true;
    stop.disabled = false;
    note.textContent = "Thinking…";
    try {
      const done = await runToolLoop({
        client: visibleHost, provider, messages: history, maxSteps: 8, signal: running.signal, approve,
        ask: ({ tools, messages, signal }) => askModel(using, { messages, tools, signal }),
      });
      const answer = finalReply(provider, done.reply);
      history = [...done.messages, answer.turn];
      say("assistant", h("p", { class: "prewrap" }, answer.text));
      note.textContent = `${done.steps} step${done.steps === 1 ? "" : "s"}${done.notes.length ? `; ${done.notes.join("; ")}` : ""}`;
    } catch (error) {
      note.textContent = describeError(error);
    } finally {
      running = null;
      send.disabled = false;
      clear.disabled = false;
      stop.disabled = true;
    }
  }

  const field = (id, label, control) => h("div", { class: "field" }, h("label", { for: id }, label), control);
  const settingsForm = h("form", { class: "panel", data: { testid: "llm-settings" }, onsubmit: (event) => {
    event.preventDefault();
    const read = (id) => settingsForm.querySelector(`#${id}`);
    const previous = settings.provider;
    Object.assign(settings, { provider: read(ids.provider).value, baseUrl: read(ids.base).value.trim(), model: read(ids.model).value.trim(),
      apiKey: read(ids.key).value, remember: read(ids.remember).checked });
    saveSettings(settings);
    // Another API starts a new chat: a run still going in the old one's shape is stopped first.
    if (settings.provider !== previous && history.length) {
      running?.abort("the API changed");
      clearChat();
    }
    note.textContent = configured(settings)
      ? `Using ${settings.model} at ${settings.baseUrl || PROVIDERS[settings.provider].base} (${PROVIDERS[settings.provider].label}).`
      : "A model is needed.";
  } },
  h("h2", {}, "LLM endpoint"),
  h("p", { class: "hint" }, "For chat and for drafting sampling replies. Changing the API starts a new chat."),
  field(ids.provider, "API", h("select", { id: ids.provider, data: { testid: "llm-provider" }, onchange: (event) => {
    settingsForm.querySelector(`#${ids.base}`).placeholder = PROVIDERS[event.target.value].base;
  } }, Object.entries(PROVIDERS).map(([value, { label }]) => h("option", { value, selected: value === settings.provider }, label)))),
  field(ids.base, "Base URL (empty: the API's own)", h("input", { id: ids.base, type: "url", value: settings.baseUrl, placeholder: PROVIDERS[settings.provider].base, data: { testid: "llm-base" } })),
  field(ids.model, "Model", h("input", { id: ids.model, type: "text", value: settings.model, data: { testid: "llm-model" } })),
  field(ids.key, "API key", h("input", { id: ids.key, type: "password", value: settings.apiKey, autocomplete: "off", data: { testid: "llm-key" } })),
  h("div", { class: "field check" }, h("input", { id: ids.remember, type: "checkbox", checked: settings.remember }),
    h("label", { for: ids.remember }, "Keep the key after this tab closes (localStorage; otherwise sessionStorage only)")),
  h("button", { type: "submit", data: { testid: "llm-save" } }, "Save"));

  const panel = h("div", { class: "split" }, settingsForm,
    h("section", { class: "panel detail" }, h("h2", {}, "Chat"), transcript,
      h("form", { onsubmit: submit }, field(ids.prompt, "Message", prompt), h("div", { class: "row" }, send, stop, clear, note))));
  return { id: "chat", label: "Chat", panel };
}
