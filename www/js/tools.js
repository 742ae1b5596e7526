// The tools browser: every connected server's tools under their qualified
// names, a form generated from the selected tool's inputSchema (or raw JSON),
// calls with a progress bar and a cancel button, results rendered by type.
import { h, replace, uid, describeError, pretty, asText, clip, drawList, debounce } from "./dom.js";
import { schemaForm } from "./schema-form.js";
import { renderToolResult } from "./render.js";

export function toolsView(app) {
  let selected = null;
  let form = null;
  let running = null; // the AbortController of the call in flight in the shown tool
  const filterId = uid("filter");
  const filter = h("input", { id: filterId, type: "search", placeholder: "Filter tools", data: { testid: "tool-filter" }, oninput: debounce(() => renderList()) });
  const list = h("ul", { class: "item-list", data: { testid: "tool-list" } });
  const count = h("span", { class: "muted" });
  const detail = h("section", { class: "panel detail", aria: { live: "polite" } }, h("p", { class: "muted" }, "Pick a tool."));

  // What the filter searches: every field as text, whatever type the server gave it.
  const haystack = (t) => `${asText(t.name)} ${asText(t.title)} ${asText(t.description)}`.toLowerCase();

  function renderList() {
    const needle = filter.value.trim().toLowerCase();
    const tools = needle ? app.host.tools.filter((t) => haystack(t).includes(needle)) : app.host.tools;
    count.textContent = ` (${app.host.tools.length})`;
    drawList(list, tools, (tool) => h("li", { data: { testid: "tool-item", name: tool.name } },
      h("button", { type: "button", class: selected?.name === tool.name ? "item selected" : "item", aria: { pressed: String(selected?.name === tool.name) }, onclick: () => select(tool) },
        h("span", { class: "name" }, asText(tool.name)),
        h("span", { class: "server-tag" }, asText(tool.server)),
        tool.description ? h("span", { class: "desc" }, asText(tool.description).split("\n")[0].slice(0, 140)) : null)));
  }

  function select(tool) {
    selected = tool;
    renderList();
    renderDetail();
  }

  function renderDetail() {
    const tool = selected;
    form = schemaForm(tool.inputSchema ?? {});
    const rawId = uid("raw");
    const raw = h("textarea", { id: rawId, rows: 8, class: "json", spellcheck: "false", data: { testid: "raw-args" } }, "{}");
    const rawBox = h("div", { class: "field", hidden: true }, h("label", { for: rawId }, "Arguments (JSON object)"), raw);
    const modeId = uid("mode");
    const mode = h("input", { type: "checkbox", id: modeId, data: { testid: "raw-mode" }, onchange: () => {
      if (mode.checked) raw.value = pretty(form.read().value);
      else {
        try {
          form = schemaForm(tool.inputSchema ?? {}, JSON.parse(raw.value || "{}"));
          replace(formBox, form.element);
        } catch {
          // Unparseable JSON: keep the form as it was.
        }
      }
      formBox.hidden = mode.checked;
      rawBox.hidden = !mode.checked;
    } });
    const formBox = h("div", {}, form.element);
    const message = h("p", { class: "field-error", role: "alert", hidden: true, data: { testid: "call-error" } });
    const progress = h("progress", { max: 1, hidden: true, data: { testid: "progress" }, aria: { label: "Progress of the call" } });
    const progressText = h("span", { class: "muted", data: { testid: "progress-text" } });
    const result = h("div", { class: "result", data: { testid: "result", state: "empty" }, tabindex: "-1" });
    const call = h("button", { type: "submit", data: { testid: "call" } }, "Call tool");
    const cancel = h("button", { type: "button", disabled: true, data: { testid: "cancel" }, onclick: () => running?.abort(new DOMException("Cancelled by the user", "AbortError")) }, "Cancel");

    async function submit(event) {
      event.preventDefault();
      message.hidden = true;
      let args;
      if (mode.checked) {
        try {
          args = JSON.parse(raw.value || "{}");
          if (args === null || typeof args !== "object" || Array.isArray(args)) throw new Error("the arguments must be a JSON object");
        } catch (error) {
          message.textContent = `Invalid JSON: ${error.message}`;
          message.hidden = false;
          return;
        }
      } else {
        const read = form.read();
        if (read.errors.length) {
          message.textContent = `Please fix: ${read.errors.join("; ")}`;
          message.hidden = false;
          return;
        }
        args = read.value;
      }
      const controller = new AbortController();
      running = controller;
      call.disabled = true;
      cancel.disabled = false;
      progress.hidden = false;
      progress.removeAttribute("value");
      progressText.textContent = "Running…";
      result.dataset.state = "running";
      replace(result);
      try {
        const outcome = await app.host.callTool(tool.name, args, {
          signal: controller.signal,
          resetTimeoutOnProgress: true,
          onprogress: (p) => {
            if (typeof p.total === "number" && p.total > 0 && typeof p.progress === "number") {
              progress.max = p.total;
              progress.value = p.progress;
            }
            progressText.textContent = `${asText(p.progress, 50)}${p.total ? ` / ${asText(p.total, 50)}` : ""}${p.message ? ` ${asText(p.message, 500).slice(0, 500)}` : ""}`;
            progress.dataset.count = String(Number(progress.dataset.count ?? 0) + 1);
          },
        });
        replace(result, renderToolResult(outcome, { onOpenResource: (uri) => app.openResource?.(uri, tool.server) }));
        result.dataset.state = outcome.isError ? "tool-error" : "ok";
      } catch (error) {
        const cancelled = controller.signal.aborted;
        replace(result, h("p", { class: cancelled ? "muted" : "field-error", role: "alert" }, cancelled ? "Cancelled." : describeError(error)));
        result.dataset.state = cancelled ? "cancelled" : "error";
      } finally {
        if (running === controller) running = null;
        call.disabled = false;
        cancel.disabled = true;
        progress.hidden = true;
        progressText.textContent = "";
      }
    }

    replace(detail,
      h("h2", {}, h("code", { data: { testid: "selected-tool" } }, tool.name)),
      h("p", { class: "muted" }, `${tool.title ? `${asText(tool.title)} · ` : ""}on ${asText(tool.server)} as ${asText(tool.serverName)}`),
      tool.description ? h("p", { class: "prewrap" }, clip(asText(tool.description), 200_000)) : null,
      tool.annotations && typeof tool.annotations === "object" ? h("p", { class: "muted" }, Object.entries(tool.annotations).slice(0, 50).map(([k, v]) => `${k}: ${asText(v, 200)}`).join(" · ")) : null,
      h("form", { class: "call-form", data: { testid: "call-form" }, onsubmit: submit, novalidate: true },
        h("div", { class: "field check" }, mode, h("label", { for: modeId }, "Edit the arguments as raw JSON")),
        formBox, rawBox, message,
        h("div", { class: "row" }, call, cancel, progress, progressText)),
      h("h3", {}, "Result"), result);
  }

  app.host.addEventListener("change", (event) => {
    // A renamed server's tool stays selected under its new name (a call in flight goes on).
    const moved = event.reason === "renamed" && selected?.server === event.previous
      && app.host.tools.find((t) => t.server === event.server && t.serverName === selected.serverName);
    if (moved) {
      selected = moved;
      if (!running) renderDetail();
    } else if (selected && !app.host.tools.some((t) => t.name === selected.name)) {
      selected = null;
      replace(detail, h("p", { class: "muted" }, "The tool is gone: its server changed its list."));
    }
    renderList();
  });

  const panel = h("div", { class: "split" },
    h("section", { class: "panel list" }, h("h2", {}, "Tools", count), h("label", { for: filterId, class: "visually-hidden" }, "Filter tools"), filter, list),
    detail);
  return { id: "tools", label: "Tools", panel, onShow: renderList };
}
