// Resources: the merged list and the templates (with argument completion),
// reading with text and blob preview and download, and subscriptions whose
// updates show up as they arrive.
import { UriTemplate } from "mcp-wasm";
import { h, replace, uid, describeError } from "./dom.js";
import { renderResourceContents } from "./render.js";

// A text input that offers the server's completions as the user types.
export function completingInput({ id, testid, complete }) {
  const listId = uid("dl");
  const options = h("datalist", { id: listId });
  let asked = 0;
  const input = h("input", { id, type: "text", list: listId, autocomplete: "off", spellcheck: "false", data: { testid }, oninput: async () => {
    const mine = ++asked;
    try {
      const values = await complete(input.value);
      if (mine !== asked) return;
      replace(options, values.slice(0, 100).map((v) => h("option", { value: String(v) })));
      input.dataset.completions = values.slice(0, 100).join("\n");
    } catch {
      // No completion (the server may not offer it): the field still works.
    }
  } });
  return { input, node: h("span", {}, input, options) };
}

export function resourcesView(app) {
  const list = h("ul", { class: "item-list", data: { testid: "resource-list" } });
  const templates = h("ul", { class: "item-list", data: { testid: "template-list" } });
  const viewer = h("section", { class: "panel detail", aria: { live: "polite" } }, h("p", { class: "muted" }, "Pick a resource or fill a template."));
  const subscribed = new Map(); // uri -> server
  let current = null; // { uri, server, updates }

  async function open(uri, server) {
    current = { uri, server, updates: h("ol", { class: "updates", data: { testid: "updates" } }) };
    const contents = h("div", { data: { testid: "resource-contents", state: "loading" } }, h("p", { class: "muted" }, "Reading…"));
    const toggle = h("button", { type: "button", data: { testid: "subscribe" }, onclick: () => subscribe(uri, server, toggle) },
      subscribed.has(uri) ? "Unsubscribe" : "Subscribe");
    replace(viewer, h("h2", {}, h("code", {}, uri)), h("p", { class: "muted" }, server ? `from ${server}` : ""), h("div", { class: "row" }, toggle), contents,
      h("h3", {}, "Updates"), current.updates);
    await read(uri, server, contents);
  }

  async function read(uri, server, target) {
    try {
      const result = await app.host.readResource(server ? { uri, server } : { uri });
      replace(target, (result.contents ?? []).map(renderResourceContents));
      target.dataset.state = "ok";
    } catch (error) {
      replace(target, h("p", { class: "field-error", role: "alert" }, describeError(error)));
      target.dataset.state = "error";
    }
  }

  async function subscribe(uri, server, button) {
    button.disabled = true;
    try {
      if (subscribed.has(uri)) {
        await app.host.unsubscribeResource(server ? { uri, server } : { uri });
        subscribed.delete(uri);
      } else {
        await app.host.subscribeResource(server ? { uri, server } : { uri });
        subscribed.set(uri, server);
      }
      button.textContent = subscribed.has(uri) ? "Unsubscribe" : "Subscribe";
      button.dataset.state = subscribed.has(uri) ? "subscribed" : "unsubscribed";
    } catch (error) {
      current?.updates.append(h("li", { class: "field-error" }, describeError(error)));
    } finally {
      button.disabled = false;
    }
  }

  app.host.addEventListener("notification", (event) => {
    const { method, params } = event.notification;
    if (method !== "notifications/resources/updated" || !current || params?.uri !== current.uri) return;
    current.updates.append(h("li", { data: { testid: "update" } }, `${new Date().toLocaleTimeString()}: updated`));
    const contents = viewer.querySelector("[data-testid=resource-contents]");
    if (contents) read(current.uri, current.server, contents);
  });

  function templateForm(t) {
    let template;
    try {
      template = new UriTemplate(t.uriTemplate);
    } catch (error) {
      return h("p", { class: "field-error" }, `${t.uriTemplate}: ${describeError(error)}`);
    }
    const inputs = template.variableNames.map((name) => {
      const id = uid("var");
      const field = completingInput({ id, testid: `var-${name}`, complete: async (value) => {
        const others = Object.fromEntries(inputs.filter((i) => i.name !== name && i.field.input.value).map((i) => [i.name, i.field.input.value]));
        const result = await app.host.complete({ server: t.server, ref: { type: "ref/resource", uri: t.uriTemplate }, argument: { name, value }, context: { arguments: others } });
        return result.completion.values;
      } });
      return { name, field, node: h("div", { class: "field" }, h("label", { for: id }, name), field.node) };
    });
    return h("form", { class: "template-form", onsubmit: (event) => {
      event.preventDefault();
      const values = Object.fromEntries(inputs.map((i) => [i.name, i.field.input.value]));
      open(template.expand(values), t.server);
    } }, inputs.map((i) => i.node), h("button", { type: "submit", class: "small" }, "Read"));
  }

  let shown = "";
  function render() {
    // Only a different list is drawn again, so that half-filled template forms survive other changes.
    const signature = JSON.stringify([app.host.resources.map((r) => [r.server, r.uri]), app.host.resourceTemplates.map((t) => [t.server, t.uriTemplate])]);
    if (signature === shown) return;
    shown = signature;
    replace(list, app.host.resources.map((r) => h("li", { data: { testid: "resource-item", uri: r.uri } },
      h("button", { type: "button", class: "item", onclick: () => open(r.uri, r.server) },
        h("span", { class: "name" }, String(r.title ?? r.name ?? r.uri)), h("span", { class: "server-tag" }, r.server),
        h("code", { class: "desc" }, r.uri)))));
    replace(templates, app.host.resourceTemplates.map((t) => h("li", { data: { testid: "template-item", template: t.uriTemplate } },
      h("details", {}, h("summary", {}, h("span", { class: "name" }, String(t.title ?? t.name)), " ", h("span", { class: "server-tag" }, t.server), " ", h("code", {}, t.uriTemplate)),
        t.description ? h("p", { class: "hint" }, String(t.description)) : null,
        templateForm(t)))));
  }
  app.host.addEventListener("change", (event) => {
    if (event.reason === "renamed") {
      // What is open or subscribed follows its server's new name.
      if (current?.server === event.previous) current.server = event.server;
      for (const [uri, server] of subscribed) if (server === event.previous) subscribed.set(uri, event.server);
    }
    render();
  });
  app.openResource = (uri, server) => {
    app.show("resources");
    return open(uri, server);
  };

  const panel = h("div", { class: "split" },
    h("section", { class: "panel list" }, h("h2", {}, "Resources"), list, h("h2", {}, "Templates"), templates),
    viewer);
  return { id: "resources", label: "Resources", panel, onShow: render };
}
