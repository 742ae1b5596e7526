// Prompts: their arguments with the server's completions, and the rendered messages.
import { h, replace, uid, describeError, asText, clip, drawList, debounce } from "./dom.js";
import { completingInput } from "./resources.js";
import { renderMessages } from "./render.js";

export function promptsView(app) {
  const list = h("ul", { class: "item-list", data: { testid: "prompt-list" } });
  const filterId = uid("filter");
  const filter = h("input", { id: filterId, type: "search", placeholder: "Filter prompts", data: { testid: "prompt-filter" }, oninput: debounce(() => render()) });
  const detail = h("section", { class: "panel detail", aria: { live: "polite" } }, h("p", { class: "muted" }, "Pick a prompt."));

  function select(prompt) {
    const args = (Array.isArray(prompt.arguments) ? prompt.arguments : []).map((arg) => {
      const id = uid("arg");
      const field = completingInput({ id, testid: `arg-${asText(arg?.name)}`, complete: async (value) => {
        const others = Object.fromEntries(args.filter((a) => a.name !== arg.name && a.field.input.value).map((a) => [a.name, a.field.input.value]));
        const result = await app.host.complete({ ref: { type: "ref/prompt", name: prompt.name }, argument: { name: arg.name, value }, context: { arguments: others } });
        return result.completion.values;
      } });
      field.input.required = arg.required === true;
      return { name: arg.name, field, node: h("div", { class: "field" },
        h("label", { for: id }, asText(arg.title ?? arg.name), arg.required ? h("span", { class: "req" }, " *") : null), field.node,
        arg.description ? h("p", { class: "hint" }, asText(arg.description)) : null) };
    });
    const output = h("div", { class: "result", data: { testid: "prompt-result", state: "empty" } });
    const message = h("p", { class: "field-error", role: "alert", hidden: true });
    replace(detail,
      h("h2", {}, h("code", { data: { testid: "selected-prompt" } }, asText(prompt.name))),
      h("p", { class: "muted" }, `on ${asText(prompt.server)} as ${asText(prompt.serverName)}`),
      prompt.description ? h("p", { class: "prewrap" }, clip(asText(prompt.description), 200_000)) : null,
      h("form", { novalidate: true, onsubmit: async (event) => {
        event.preventDefault();
        const missing = args.filter((a) => a.field.input.required && !a.field.input.value).map((a) => a.name);
        message.hidden = missing.length === 0;
        message.textContent = missing.length ? `Required: ${missing.join(", ")}` : "";
        if (missing.length) return;
        const values = Object.fromEntries(args.filter((a) => a.field.input.value !== "").map((a) => [a.name, a.field.input.value]));
        try {
          const result = await app.host.getPrompt({ name: prompt.name, arguments: values });
          replace(output, result.description ? h("p", { class: "muted" }, clip(asText(result.description), 200_000)) : null,
            renderMessages(result.messages, { onOpenResource: (uri) => app.openResource?.(uri, prompt.server) }));
          output.dataset.state = "ok";
        } catch (error) {
          replace(output, h("p", { class: "field-error", role: "alert" }, describeError(error)));
          output.dataset.state = "error";
        }
      } }, args.map((a) => a.node), message, h("button", { type: "submit", data: { testid: "get-prompt" } }, "Get prompt")),
      h("h3", {}, "Messages"), output);
  }

  function render() {
    const needle = filter.value.trim().toLowerCase();
    const prompts = needle ? app.host.prompts.filter((p) => `${asText(p.name)} ${asText(p.title)} ${asText(p.description)}`.toLowerCase().includes(needle)) : app.host.prompts;
    drawList(list, prompts, (p) => h("li", { data: { testid: "prompt-item", name: p.name } },
      h("button", { type: "button", class: "item", onclick: () => select(p) },
        h("span", { class: "name" }, asText(p.name)), h("span", { class: "server-tag" }, asText(p.server)),
        p.description ? h("span", { class: "desc" }, asText(p.description).slice(0, 140)) : null)));
  }
  app.host.addEventListener("change", render);
  return { id: "prompts", label: "Prompts", onShow: render, panel: h("div", { class: "split" },
    h("section", { class: "panel list" }, h("h2", {}, "Prompts"), h("label", { for: filterId, class: "visually-hidden" }, "Filter prompts"), filter, list), detail) };
}
