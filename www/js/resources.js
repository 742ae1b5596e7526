// Resources: the merged list and the templates (with argument completion),
// reading with text and blob preview and download, and subscriptions whose
// updates show up as they arrive.
import { UriTemplate } from "mcp-wasm";
import { h, replace, uid, describeError, asText, drawList, debounce, LIST_LIMIT } from "./dom.js";
import { renderResourceContents, renderEach } from "./render.js";

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
      const shown = (Array.isArray(values) ? values : []).slice(0, 100).map((v) => asText(v));
      replace(options, shown.map((v) => h("option", { value: v })));
      input.dataset.completions = shown.join("\n");
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
  const filterId = uid("filter");
  const filter = h("input", { id: filterId, type: "search", placeholder: "Filter resources and templates", data: { testid: "resource-filter" }, oninput: debounce(() => render()) });
  // Subscriptions by server and URI: two servers may list the same URI, and each has its own.
  const subscribed = new Map(); // JSON [server, uri] -> { server, uri }
  const key = (server, uri) => JSON.stringify([server ?? null, uri]);
  let current = null; // { uri, server, updates }

  // The server that listed `uri`, when the caller did not say and only one did.
  function listedBy(uri) {
    const servers = new Set(app.host.resources.filter((r) => r.uri === uri).map((r) => r.server));
    return servers.size === 1 ? [...servers][0] : undefined;
  }

  async function open(uri, server = listedBy(uri)) {
    const shown = { uri, server, updates: h("ol", { class: "updates", data: { testid: "updates" } }) };
    current = shown;
    const contents = h("div", { data: { testid: "resource-contents", state: "loading" } }, h("p", { class: "muted" }, "Reading…"));
    const toggle = h("button", { type: "button", data: { testid: "subscribe" }, onclick: () => subscribe(shown, toggle) },
      subscribed.has(key(server, uri)) ? "Unsubscribe" : "Subscribe");
    replace(viewer, h("h2", {}, h("code", {}, asText(uri))), h("p", { class: "muted" }, server ? `from ${server}` : ""), h("div", { class: "row" }, toggle), contents,
      h("h3", {}, "Updates"), current.updates);
    await read(uri, server, contents);
  }

  async function read(uri, server, target) {
    try {
      const result = await app.host.readResource(server ? { uri, server } : { uri });
      replace(target, renderEach(result.contents, renderResourceContents, "contents"));
      target.dataset.state = "ok";
    } catch (error) {
      replace(target, h("p", { class: "field-error", role: "alert" }, describeError(error)));
      target.dataset.state = "error";
    }
  }

  // `shown` is the resource open in the viewer; its server follows a rename, so it is read at the click.
  async function subscribe(shown, button) {
    const { uri, server } = shown;
    const params = server ? { uri, server } : { uri };
    button.disabled = true;
    try {
      if (subscribed.has(key(server, uri))) {
        await app.host.unsubscribeResource(params);
        subscribed.delete(key(server, uri));
      } else {
        await app.host.subscribeResource(params);
        subscribed.set(key(server, uri), { server, uri });
      }
      const on = subscribed.has(key(server, uri));
      button.textContent = on ? "Unsubscribe" : "Subscribe";
      button.dataset.state = on ? "subscribed" : "unsubscribed";
    } catch (error) {
      shown.updates.append(h("li", { class: "field-error" }, describeError(error)));
    } finally {
      button.disabled = false;
    }
  }

  app.host.addEventListener("notification", (event) => {
    const { method, params } = event.notification;
    if (method !== "notifications/resources/updated" || !current || params?.uri !== current.uri) return;
    // Only the server the resource was read from, and only once subscribed there: another
    // server cannot make the page re-read it by naming the same URI.
    if (event.server !== current.server || !subscribed.has(key(current.server, current.uri))) return;
    current.updates.append(h("li", { data: { testid: "update" } }, `${new Date().toLocaleTimeString()}: updated`));
    const contents = viewer.querySelector("[data-testid=resource-contents]");
    if (contents) read(current.uri, current.server, contents);
  });

  function templateForm(t) {
    let template;
    try {
      template = new UriTemplate(t.uriTemplate);
    } catch (error) {
      return h("p", { class: "field-error" }, `${asText(t.uriTemplate)}: ${describeError(error)}`);
    }
    const inputs = template.variableNames.map((name) => {
      const id = uid("var");
      const field = completingInput({ id, testid: `var-${asText(name)}`, complete: async (value) => {
        const others = Object.fromEntries(inputs.filter((i) => i.name !== name && i.field.input.value).map((i) => [i.name, i.field.input.value]));
        const result = await app.host.complete({ server: t.server, ref: { type: "ref/resource", uri: t.uriTemplate }, argument: { name, value }, context: { arguments: others } });
        return result.completion.values;
      } });
      return { name, field, node: h("div", { class: "field" }, h("label", { for: id }, asText(name)), field.node) };
    });
    return h("form", { class: "template-form", onsubmit: (event) => {
      event.preventDefault();
      const values = Object.fromEntries(inputs.map((i) => [i.name, i.field.input.value]));
      open(template.expand(values), t.server);
    } }, inputs.map((i) => i.node), h("button", { type: "submit", class: "small" }, "Read"));
  }

  const matches = (needle, ...fields) => !needle || fields.map((f) => asText(f)).join(" ").toLowerCase().includes(needle);

  let shown = "";
  function render() {
    const needle = filter.value.trim().toLowerCase();
    const resources = app.host.resources.filter((r) => matches(needle, r.name, r.title, r.uri, r.description));
    const found = app.host.resourceTemplates.filter((t) => matches(needle, t.name, t.title, t.uriTemplate, t.description));
    // Only a different list is drawn again, so that half-filled template forms survive other changes.
    // The lists are drawn at most LIST_LIMIT long, so the signature covers no more than that.
    const signature = JSON.stringify([needle, resources.length, found.length, resources.slice(0, LIST_LIMIT).map((r) => [r.server, r.uri]),
      found.slice(0, LIST_LIMIT).map((t) => [t.server, t.uriTemplate])]);
    if (signature === shown) return;
    drawList(list, resources, (r) => h("li", { data: { testid: "resource-item", uri: r.uri } },
      h("button", { type: "button", class: "item", onclick: () => open(r.uri, r.server) },
        h("span", { class: "name" }, asText(r.title ?? r.name ?? r.uri)), h("span", { class: "server-tag" }, asText(r.server)),
        h("code", { class: "desc" }, asText(r.uri)))));
    drawList(templates, found, (t) => h("li", { data: { testid: "template-item", template: t.uriTemplate } },
      h("details", {}, h("summary", {}, h("span", { class: "name" }, asText(t.title ?? t.name)), " ", h("span", { class: "server-tag" }, asText(t.server)), " ", h("code", {}, asText(t.uriTemplate))),
        t.description ? h("p", { class: "hint" }, asText(t.description)) : null,
        templateForm(t))));
    // Saved once drawn: a draw that failed is tried again on the next change.
    shown = signature;
  }
  app.host.addEventListener("change", (event) => {
    if (event.reason === "renamed") {
      // What is open or subscribed follows its server's new name.
      if (current?.server === event.previous) current.server = event.server;
      for (const [k, s] of [...subscribed]) {
        if (s.server !== event.previous) continue;
        subscribed.delete(k);
        subscribed.set(key(event.server, s.uri), { server: event.server, uri: s.uri });
      }
    }
    render();
  });
  app.openResource = (uri, server) => {
    app.show("resources");
    return open(uri, server);
  };

  const panel = h("div", { class: "split" },
    h("section", { class: "panel list" }, h("h2", {}, "Resources"), h("label", { for: filterId, class: "visually-hidden" }, "Filter resources and templates"), filter,
      list, h("h2", {}, "Templates"), templates),
    viewer);
  return { id: "resources", label: "Resources", panel, onShow: render };
}
