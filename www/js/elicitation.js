// Elicitation: a form generated from the requested schema, with a warning on
// fields that look sensitive; URL mode opens the link only when the user says so.
import { h, asText, clip } from "./dom.js";
import { schemaForm } from "./schema-form.js";
import { modal } from "./dialog.js";

const SENSITIVE = /pass(word|phrase|code)?|token|secret|card|cvv|cvc|api[\s_-]?key|credential|ssn|social security|\bpin\b|iban/i;

// By key and title only: descriptions often say what not to enter ("do not give us your PIN").
function sensitiveFields(schema) {
  return Object.entries(schema?.properties ?? {})
    .filter(([key, p]) => SENSITIVE.test(`${key} ${asText(p?.title)}`))
    .map(([key]) => key);
}

function formMode(params, ctx) {
  return modal(`${ctx.server} asks for information`, "elicitation-dialog", ({ done, dialog }) => {
    const form = schemaForm(params.requestedSchema ?? {});
    const sensitive = sensitiveFields(params.requestedSchema);
    for (const key of sensitive) {
      form.element.querySelector(`[data-field="${CSS.escape(key)}"]`)?.closest(".field, fieldset")
        ?.append(h("p", { class: "warning", data: { testid: "sensitive-warning" } }, "This looks sensitive. Only answer if you trust this server: it will see what you type."));
    }
    const message = h("p", { class: "field-error", role: "alert", hidden: true });
    dialog.addEventListener("escape", () => done({ action: "cancel" }));
    return h("form", { novalidate: true, onsubmit: (event) => {
      event.preventDefault();
      const read = form.read();
      if (read.errors.length) {
        message.textContent = `Please fix: ${read.errors.join("; ")}`;
        message.hidden = false;
        return;
      }
      done({ action: "accept", content: read.value });
    } },
    h("p", { class: "prewrap", data: { testid: "elicitation-message" } }, clip(asText(params.message), 20_000)),
    sensitive.length ? h("p", { class: "warning", role: "note" }, `Sensitive-looking fields: ${sensitive.join(", ")}.`) : null,
    form.element, message,
    h("div", { class: "row" },
      h("button", { type: "submit", data: { testid: "elicitation-accept" } }, "Submit"),
      h("button", { type: "button", data: { testid: "elicitation-decline" }, onclick: () => done({ action: "decline" }) }, "Decline"),
      h("button", { type: "button", onclick: () => done({ action: "cancel" }) }, "Cancel")));
  }, ctx.signal);
}

function urlMode(params, ctx) {
  return modal(`${ctx.server} asks you to open a page`, "elicitation-dialog", ({ done, dialog }) => {
    let target = null;
    try {
      const parsed = new URL(asText(params.url));
      if (parsed.protocol === "https:" || parsed.protocol === "http:") target = parsed;
    } catch {
      // Not a URL: nothing will be opened.
    }
    dialog.addEventListener("escape", () => done({ action: "cancel" }));
    return h("div", {},
      h("p", { class: "prewrap" }, clip(asText(params.message), 20_000)),
      target ? h("p", {}, "It opens ", h("strong", {}, target.host), ": ", h("code", { data: { testid: "elicitation-url" } }, target.href))
        : h("p", { class: "field-error" }, `Not a web address: ${clip(asText(params.url), 2000)}`),
      h("p", { class: "hint" }, "Nothing is opened unless you choose to."),
      h("div", { class: "row" },
        h("button", { type: "button", disabled: !target, data: { testid: "elicitation-open" }, onclick: () => {
          window.open(target.href, "_blank", "noopener,noreferrer");
          done({ action: "accept" });
        } }, "Open the page"),
        h("button", { type: "button", data: { testid: "elicitation-decline" }, onclick: () => done({ action: "decline" }) }, "Decline"),
        h("button", { type: "button", onclick: () => done({ action: "cancel" }) }, "Cancel")));
  }, ctx.signal);
}

export function elicitationHandler() {
  return (params, ctx) => (params?.mode === "url" ? urlMode(params, ctx) : formMode(params, ctx));
}
