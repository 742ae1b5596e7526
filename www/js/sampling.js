// Sampling with a human in the loop: the server's request in a dialog, which
// the user can edit, approve or reject, with a reply they write or have a
// configured model draft and then edit.
import { h, uid, pretty, describeError, asText } from "./dom.js";
import { renderMessages } from "./render.js";
import { modal } from "./dialog.js";
import { loadSettings, configured, draftSampling } from "./llm.js";

export function samplingHandler() {
  return (params, ctx) => modal(`Sampling request from ${ctx.server}`, "sampling-dialog", ({ done, fail, dialog }) => {
    const requestId = uid("req");
    const replyId = uid("reply");
    const modelId = uid("model");
    // Shown cut if it is long; the draft uses the request itself unless the user edited it.
    const shown = pretty(params);
    const request = h("textarea", { id: requestId, rows: 8, class: "json", spellcheck: "false", data: { testid: "sampling-request" } }, shown);
    const reply = h("textarea", { id: replyId, rows: 4, data: { testid: "sampling-reply" } }, "");
    const model = h("input", { id: modelId, type: "text", value: "human-in-the-loop", data: { testid: "sampling-model" } });
    const message = h("p", { class: "field-error", role: "alert", hidden: true });
    const settings = loadSettings();
    const edited = () => {
      if (request.value === shown) return params;
      try {
        return JSON.parse(request.value);
      } catch (error) {
        throw new Error(`the edited request is not JSON: ${error.message}`);
      }
    };
    const draft = h("button", { type: "button", disabled: !configured(settings), title: configured(settings) ? "" : "Configure an LLM endpoint in the Chat tab", onclick: async () => {
      draft.disabled = true;
      message.hidden = true;
      try {
        const answer = await draftSampling(settings, edited(), ctx.signal);
        reply.value = answer.text;
        model.value = answer.model;
      } catch (error) {
        message.textContent = describeError(error);
        message.hidden = false;
      } finally {
        draft.disabled = false;
      }
    } }, "Draft with model");
    const reject = () => fail(Object.assign(new Error("The user rejected the sampling request"), { code: -1 }));
    dialog.addEventListener("escape", reject);
    return h("form", { method: "dialog", onsubmit: (event) => {
      event.preventDefault();
      if (!reply.value.trim()) {
        message.textContent = "Write a reply, or reject the request.";
        message.hidden = false;
        return;
      }
      done({ role: "assistant", model: model.value || "human-in-the-loop", content: { type: "text", text: reply.value }, stopReason: "endTurn" });
    } },
    h("p", { class: "hint" }, `The server wants a model completion${params?.maxTokens ? ` (at most ${asText(params.maxTokens, 50)} tokens)` : ""}. Nothing is sent until you approve.`),
    renderMessages(params?.messages),
    h("details", {}, h("summary", {}, "Edit the request"), h("label", { for: requestId }, "Request (JSON)"), request),
    h("div", { class: "field" }, h("label", { for: replyId }, "Reply"), reply),
    h("div", { class: "field" }, h("label", { for: modelId }, "Model name in the reply"), model),
    message,
    h("div", { class: "row" }, draft,
      h("button", { type: "submit", data: { testid: "sampling-approve" } }, "Approve"),
      h("button", { type: "button", data: { testid: "sampling-reject" }, onclick: reject }, "Reject")));
  }, ctx.signal);
}
