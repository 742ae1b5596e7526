// The connect panel: servers by URL, with headers and OAuth sign-in (popup),
// several at once through McpHost; each shows its status, the era and
// transport chosen by itself, and what went wrong.
import { popupAuthorizer } from "mcp-wasm";
import { h, replace, uid, describeError, asText } from "./dom.js";

// "Name: value" lines as a headers object; a line without a colon is refused.
export function parseHeaders(text) {
  const headers = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`not a header line: ${JSON.stringify(line)}`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

// A name that every LLM API accepts as part of a tool name: letters, digits,
// "_" and "-", at most 32 characters. The "-" is escaped: an input's `pattern`
// is compiled with the `v` flag, where a bare "-" at the end of a class is a
// syntax error and the browser drops the attribute.
const NAME_PATTERN = "[A-Za-z0-9_\\-]{1,32}";
const NAME_RULE = "Use 1 to 32 letters, digits, \"_\" or \"-\".";
const validName = (name) => new RegExp(`^${NAME_PATTERN}$`, "v").test(name);
function cleanName(text) {
  // Cut before any regex runs: /-+$/ is quadratic on a long run of dashes a server could send.
  return asText(text).slice(0, 256).replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 32).replace(/-+$/, "");
}

/**
 * A server's name from its `serverInfo.name`: the last "/" segment
 * ("mcp-servers/everything" is "everything"), cleaned, with "-2", "-3", …
 * when another server has it already.
 */
export function nameFromInfo(infoName, taken) {
  const text = asText(infoName, 200).trim();
  const base = cleanName(text.slice(text.lastIndexOf("/", text.length - 2) + 1)) || cleanName(text) || "server";
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base.slice(0, 29)}-${i}`;
  return name;
}

// What a server is called until it says its own name: its host and port.
function provisionalName(url, taken) {
  let host = "server";
  try {
    host = new URL(url).host;
  } catch {
    // The host refuses the URL with a clear error when it is added.
  }
  return nameFromInfo(cleanName(host), taken);
}

export function serversView(app) {
  const ids = { url: uid("url"), name: uid("name"), headers: uid("headers"), oauth: uid("oauth") };
  const list = h("ul", { class: "servers", data: { testid: "server-list" } });
  const formError = h("p", { class: "field-error", role: "alert", hidden: true });
  const form = h("form", { class: "panel connect", data: { testid: "connect-form" }, onsubmit: (event) => {
    event.preventDefault();
    add();
  } },
  h("h2", {}, "Connect a server"),
  h("div", { class: "field" }, h("label", { for: ids.url }, "MCP server URL"),
    h("input", { id: ids.url, type: "url", required: true, spellcheck: "false", placeholder: "https://example.com/mcp", data: { testid: "server-url" } })),
  h("div", { class: "field" }, h("label", { for: ids.name }, "Name (the prefix of its tools; it can be changed later)"),
    h("input", { id: ids.name, type: "text", pattern: NAME_PATTERN, placeholder: "from the server's own name", data: { testid: "server-name" } })),
  h("div", { class: "field" }, h("label", { for: ids.headers }, "Headers, one \"Name: value\" per line"),
    h("textarea", { id: ids.headers, rows: 2, spellcheck: "false", placeholder: "Authorization: Bearer …", data: { testid: "server-headers" } })),
  h("div", { class: "field check" }, h("input", { id: ids.oauth, type: "checkbox", data: { testid: "server-oauth" } }),
    h("label", { for: ids.oauth }, "Sign in with OAuth (opens a popup)")),
  formError,
  h("button", { type: "submit", data: { testid: "connect" } }, "Connect"));

  const field = (id) => form.querySelector(`#${id}`);

  // Servers still under a provisional name: each is renamed after its
  // serverInfo.name once it connects, unless the user named it.
  const provisional = new Set();
  let editing = null; // { name, value, error } while a server is being renamed

  async function connect(url, { name, headers, oauth } = {}) {
    const taken = new Set(app.host.servers().map((s) => s.name));
    const options = {};
    if (headers && Object.keys(headers).length) options.headers = headers;
    if (oauth) {
      options.auth = { authorize: popupAuthorizer(), redirectUri: new URL("callback.html", location.href).href, clientName: "mcp-wasm inspector" };
    }
    if (name) return app.host.addServer(name, url, options);
    const temporary = provisionalName(url, taken);
    provisional.add(temporary);
    return app.host.addServer(temporary, url, options);
  }

  // Runs as the server connects, before its lists are fetched, so its tools
  // appear under its own name from the start.
  function nameAfterInfo(event) {
    if (event.status === "closed") provisional.delete(event.server);
    if (event.status !== "connected" || !provisional.has(event.server)) return;
    provisional.delete(event.server);
    const state = app.host.servers().find((s) => s.name === event.server);
    const taken = new Set(app.host.servers().map((s) => s.name).filter((n) => n !== event.server));
    const name = nameFromInfo(state?.serverInfo?.name, taken);
    if (name !== event.server) app.host.renameServer(event.server, name);
  }

  function rename(event, from) {
    event.preventDefault();
    const to = editing.value.trim();
    try {
      if (!validName(to)) throw new Error(NAME_RULE);
      app.host.renameServer(from, to);
      provisional.delete(from);
      editing = null;
    } catch (error) {
      editing.error = error.kind ? describeError(error) : error.message;
    }
    render();
  }

  function renameForm(s) {
    const id = uid("rename");
    return h("form", { class: "row", data: { testid: "server-rename-form" }, onsubmit: (event) => rename(event, s.name) },
      h("label", { for: id }, "New name"),
      h("input", { id, type: "text", value: editing.value, pattern: NAME_PATTERN, required: true, spellcheck: "false", data: { testid: "server-rename-input" },
        oninput: (event) => { editing.value = event.target.value; } }),
      h("button", { type: "submit", class: "small", data: { testid: "server-rename-save" } }, "Save"),
      h("button", { type: "button", class: "small", onclick: () => { editing = null; render(); } }, "Cancel"),
      editing.error ? h("p", { class: "field-error", role: "alert" }, editing.error) : null);
  }

  async function add() {
    formError.hidden = true;
    try {
      const headers = parseHeaders(field(ids.headers).value);
      const url = field(ids.url).value.trim();
      const name = field(ids.name).value.trim();
      // Checked here too, as rename() does: the form is submitted by script and by Enter alike.
      if (name && !validName(name)) throw new Error(`Name ${JSON.stringify(name)}: ${NAME_RULE}`);
      app.setStatus("connecting", `Connecting to ${url}…`);
      const state = await connect(url, { name, headers, oauth: field(ids.oauth).checked });
      summarize();
      if (state.status === "connected") form.reset();
    } catch (error) {
      formError.textContent = describeError(error);
      formError.hidden = false;
      summarize();
    }
  }

  function summarize() {
    const all = app.host.servers();
    const up = all.filter((s) => s.status === "connected").length;
    const failed = all.filter((s) => s.status === "failed").length;
    const connecting = all.some((s) => s.status === "connecting");
    app.setStatus(connecting ? "connecting" : failed && !up ? "error" : up ? "connected" : "idle",
      connecting ? "Connecting…" : `${up} of ${all.length} server${all.length === 1 ? "" : "s"} connected${failed ? `, ${failed} failed` : ""}`);
  }

  function render() {
    replace(list, app.host.servers().map((s) => h("li", { class: "server", data: { testid: "server", name: s.name, status: s.status } },
      h("div", { class: "server-head" },
        h("strong", { data: { testid: "server-name-label" } }, s.name), " ",
        h("span", { class: `badge status-${s.status}`, data: { testid: "server-status" } }, s.status), " ",
        h("code", { class: "muted" }, s.url)),
      s.status === "connected" ? h("dl", { class: "info" },
        h("dt", {}, "Server"), h("dd", { data: { testid: "server-info" } }, `${asText(s.serverInfo?.name ?? "?", 200)} ${asText(s.serverInfo?.version, 200)}`),
        h("dt", {}, "Era"), h("dd", { data: { testid: "server-era" } }, asText(s.era)),
        h("dt", {}, "Transport"), h("dd", { data: { testid: "server-transport" } }, asText(s.transport)),
        h("dt", {}, "Protocol"), h("dd", {}, asText(s.protocolVersion, 200)),
        h("dt", {}, "Session"), h("dd", {}, asText(s.sessionId ?? "(none)", 200))) : null,
      s.error ? h("p", { class: "field-error", data: { testid: "server-error" } }, describeError(s.error)) : null,
      editing?.name === s.name ? renameForm(s) : null,
      h("div", { class: "row" },
        h("button", { type: "button", class: "small", data: { testid: "server-rename" }, onclick: () => {
          editing = { name: s.name, value: s.name, error: "" };
          render();
          list.querySelector("[data-testid=server-rename-input]")?.focus();
        } }, "Rename"),
        h("button", { type: "button", class: "small", onclick: () => app.host.reconnect(s.name).then(summarize, summarize) }, "Reconnect"),
        h("button", { type: "button", class: "small", onclick: () => app.host.removeServer(s.name).then(summarize) }, "Remove")))));
  }
  app.host.addEventListener("status", (event) => {
    nameAfterInfo(event);
    render();
    summarize();
  });
  app.host.addEventListener("change", (event) => {
    if (event.reason === "renamed" && editing?.name === event.previous) editing.name = event.server;
    render();
  });

  const panel = h("section", {}, form, h("section", { class: "panel" }, h("h2", {}, "Servers"), list));
  return {
    id: "servers",
    label: "Servers",
    panel,
    async connectAll(urls) {
      app.setStatus("connecting", `Connecting to ${urls.join(", ")}…`);
      await Promise.all(urls.map((url) => connect(url).catch((error) => {
        formError.textContent = describeError(error);
        formError.hidden = false;
      })));
      summarize();
    },
  };
}
