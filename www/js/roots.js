// The roots the user shares with servers: an editor, the handler that answers
// roots/list (told which server asked), and roots/list_changed on save.
import { h, replace, uid, describeError } from "./dom.js";

export function rootsHandler(app) {
  app.roots = [{ uri: "file:///workspace", name: "workspace" }];
  return () => app.roots.map((r) => ({ ...r }));
}

export function rootsView(app) {
  const rows = h("ul", { class: "roots", data: { testid: "roots" } });
  const message = h("p", { role: "status", class: "muted", data: { testid: "roots-status" } });

  function row(root = { uri: "", name: "" }) {
    const uriId = uid("root");
    const nameId = uid("rootname");
    const item = h("li", { class: "root-row" },
      h("div", { class: "field" }, h("label", { for: uriId }, "URI"), h("input", { id: uriId, type: "text", value: root.uri, spellcheck: "false", data: { testid: "root-uri" } })),
      h("div", { class: "field" }, h("label", { for: nameId }, "Name"), h("input", { id: nameId, type: "text", value: root.name ?? "", data: { testid: "root-name" } })),
      h("button", { type: "button", class: "small", onclick: () => item.remove() }, "Remove"));
    return item;
  }

  async function save(event) {
    event.preventDefault();
    const roots = [];
    for (const item of rows.children) {
      const uri = item.querySelector("[data-testid=root-uri]").value.trim();
      const name = item.querySelector("[data-testid=root-name]").value.trim();
      if (!uri) continue;
      if (!URL.canParse(uri)) {
        message.textContent = `Not a URI: ${uri}`;
        message.className = "field-error";
        return;
      }
      roots.push(name ? { uri, name } : { uri });
    }
    app.roots = roots;
    // Modern-era servers ask for roots with each request that needs them; the others are told.
    const told = await Promise.all(app.host.servers().filter((s) => s.status === "connected" && s.era === "legacy").map(async (s) => {
      try {
        await app.host.client(s.name)?.sendRootsListChanged();
        return s.name;
      } catch (error) {
        return `${s.name} (${describeError(error)})`;
      }
    }));
    message.className = "muted";
    message.textContent = `Saved ${roots.length} root${roots.length === 1 ? "" : "s"}${told.length ? `; told ${told.join(", ")}` : ""}.`;
  }

  const panel = h("section", { class: "panel" }, h("h2", {}, "Roots"),
    h("p", { class: "hint" }, "What servers see when they ask for your roots (roots/list)."),
    h("form", { onsubmit: save }, rows,
      h("div", { class: "row" },
        h("button", { type: "button", class: "small", onclick: () => rows.append(row()) }, "Add root"),
        h("button", { type: "submit", data: { testid: "save-roots" } }, "Save")), message));
  return { id: "roots", label: "Roots", panel, onShow: () => { if (!rows.children.length) replace(rows, app.roots.map(row)); } };
}
