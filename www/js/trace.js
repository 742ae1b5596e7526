// The protocol trace: every JSON-RPC message in and out of every server (the
// host's `trace` option), with direction, time, size and server; filtered by
// server, direction and method text; each one can be copied as JSON. It keeps
// a ring of the last MAX_ENTRIES messages and at most MAX_TEXT of their text,
// so a chatty server cannot grow it without bound.
import { h, replace, uid, pretty, asText } from "./dom.js";

export const MAX_ENTRIES = 1000;
const MAX_TEXT = 16 * 1024 * 1024; // characters kept across the ring
const MAX_ONE = 1024 * 1024; // a longer message is kept cut, and says so
const MAX_PENDING = 1000; // requests remembered to name their responses

/** A fixed-size ring: `push` returns what it pushed out, if anything. */
export class Ring {
  constructor(size) {
    this.size = size;
    this.items = new Array(size);
    this.start = 0;
    this.length = 0;
  }
  push(item) {
    if (this.length < this.size) {
      this.items[(this.start + this.length++) % this.size] = item;
      return undefined;
    }
    const evicted = this.items[this.start];
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.size;
    return evicted;
  }
  shift() {
    if (this.length === 0) return undefined;
    const item = this.items[this.start];
    this.items[this.start] = undefined;
    this.start = (this.start + 1) % this.size;
    this.length--;
    return item;
  }
  clear() {
    this.items = new Array(this.size);
    this.start = 0;
    this.length = 0;
  }
  *[Symbol.iterator]() {
    for (let i = 0; i < this.length; i++) yield this.items[(this.start + i) % this.size];
  }
}

const clock = (time) => {
  const d = new Date(time);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, "0")}`;
};
const size = (bytes) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1048576).toFixed(1)} MiB`);

export function traceView(app) {
  const ring = new Ring(MAX_ENTRIES);
  let textKept = 0;
  let seq = 0;
  let dirty = false; // entries came while the pane was hidden
  // The method of each request still unanswered, to label its response.
  const pending = new Map();

  const ids = { server: uid("trace-server"), direction: uid("trace-direction"), method: uid("trace-method") };
  const serverFilter = h("select", { id: ids.server, data: { testid: "trace-server" }, onchange: render }, h("option", { value: "" }, "All servers"));
  const directionFilter = h("select", { id: ids.direction, data: { testid: "trace-direction" }, onchange: render },
    h("option", { value: "" }, "Both ways"), h("option", { value: "out" }, "→ Sent"), h("option", { value: "in" }, "← Received"));
  const methodFilter = h("input", { id: ids.method, type: "search", placeholder: "Method contains…", data: { testid: "trace-method" }, oninput: render });
  const count = h("span", { class: "muted", role: "status", data: { testid: "trace-count" } });
  const rows = h("ol", { class: "trace", data: { testid: "trace-list" } });

  const matches = (entry) => (!serverFilter.value || entry.server === serverFilter.value)
    && (!directionFilter.value || entry.direction === directionFilter.value)
    && (!methodFilter.value.trim() || entry.label.toLowerCase().includes(methodFilter.value.trim().toLowerCase()));

  async function copy(entry, button) {
    try {
      await navigator.clipboard.writeText(entry.json);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Copy failed: select the text below";
      const toggle = button.closest("li")?.querySelector("[data-testid=trace-toggle]");
      if (toggle?.getAttribute("aria-expanded") === "false") toggle.click();
    }
    setTimeout(() => { button.textContent = "Copy JSON"; }, 1500);
  }

  function row(entry) {
    const body = h("pre", { class: "text", hidden: true, data: { testid: "trace-json" } });
    const toggle = h("button", { type: "button", class: "small", aria: { expanded: "false" }, data: { testid: "trace-toggle" }, onclick: () => {
      // Pretty-printed only when first shown: a thousand hidden bodies cost nothing.
      if (!body.firstChild) {
        let text = entry.json;
        try {
          text = pretty(JSON.parse(entry.json));
        } catch {
          // A message cut to MAX_ONE is no longer JSON; it is shown as kept.
        }
        body.append(text);
      }
      body.hidden = !body.hidden;
      toggle.setAttribute("aria-expanded", String(!body.hidden));
      toggle.textContent = body.hidden ? "Show" : "Hide";
    } }, "Show");
    const button = h("button", { type: "button", class: "small", data: { testid: "trace-copy" }, onclick: () => copy(entry, button) }, "Copy JSON");
    const li = h("li", { class: `trace-entry ${entry.direction}`, data: { testid: "trace-entry", direction: entry.direction, server: entry.server, method: entry.method ?? "", seq: entry.seq } },
      h("span", { class: "time" }, clock(entry.time)),
      h("span", { class: "direction", title: entry.direction === "out" ? "sent to the server" : "received from the server" }, entry.direction === "out" ? "→" : "←"),
      h("span", { class: "server-tag", data: { testid: "trace-entry-server" } }, entry.server),
      h("code", { class: "method" }, entry.label),
      h("span", { class: "size muted" }, `${size(entry.bytes)}${entry.cut ? " (cut)" : ""}`),
      toggle, button, body);
    entry.row = li;
    return li;
  }

  function render() {
    dirty = false;
    const all = [...ring];
    const visible = all.filter(matches);
    for (const entry of all) entry.row = undefined;
    replace(rows, visible.map(row));
    count.textContent = `${visible.length} of ${all.length} messages (the last ${MAX_ENTRIES} are kept)`;
  }

  function syncServers() {
    const names = new Set(app.host.servers().map((s) => s.name));
    for (const entry of ring) names.add(entry.server);
    const chosen = serverFilter.value;
    replace(serverFilter, h("option", { value: "" }, "All servers"), [...names].map((name) => h("option", { value: name, selected: name === chosen }, name)));
    if (chosen && !names.has(chosen)) serverFilter.value = "";
  }

  function forget(entry) {
    textKept -= entry.json.length;
    entry.row?.remove();
  }

  // What a row says: a request's or notification's method; for a response,
  // the method of the request it answers (sent the other way), and whether
  // it is a result or an error.
  function label(entry) {
    if (entry.method !== undefined) {
      if (entry.id !== undefined) {
        pending.set(JSON.stringify([entry.server, entry.direction, entry.id]), entry.method);
        if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value);
      }
      return entry.method;
    }
    const asked = JSON.stringify([entry.server, entry.direction === "in" ? "out" : "in", entry.id ?? null]);
    const method = pending.get(asked);
    pending.delete(asked);
    let outcome = "response";
    if (!entry.cut) {
      try {
        outcome = "error" in JSON.parse(entry.json) ? "error" : "result";
      } catch {
        // Kept as "response".
      }
    }
    return `${asText(method ?? "?", 200)} ${outcome}${entry.id === undefined ? "" : ` #${asText(entry.id, 200)}`}`;
  }

  /** The host's `trace` option: one message of one server. */
  function record(message) {
    const cut = message.json.length > MAX_ONE;
    const entry = {
      seq: ++seq, time: Date.now(), server: message.server, direction: message.direction, bytes: message.bytes,
      method: message.method, id: message.id, cut, json: cut ? message.json.slice(0, MAX_ONE) : message.json,
    };
    entry.label = label(entry);
    const evicted = ring.push(entry);
    if (evicted) forget(evicted);
    textKept += entry.json.length;
    while (textKept > MAX_TEXT && ring.length > 1) forget(ring.shift());
    if (panel.hidden) {
      dirty = true;
      return;
    }
    if (![...serverFilter.options].some((o) => o.value === entry.server)) syncServers();
    if (matches(entry)) rows.append(row(entry));
    count.textContent = `${rows.children.length} of ${ring.length} messages (the last ${MAX_ENTRIES} are kept)`;
  }

  app.host.addEventListener("change", (event) => {
    if (event.reason !== "renamed") return;
    // Entries follow a renamed server, so one filter still shows all of its messages.
    for (const entry of ring) if (entry.server === event.previous) entry.server = event.server;
    const chosen = serverFilter.value === event.previous ? event.server : serverFilter.value;
    syncServers();
    serverFilter.value = chosen;
    if (panel.hidden) dirty = true;
    else render();
  });

  const clear = h("button", { type: "button", class: "small", data: { testid: "trace-clear" }, onclick: () => {
    ring.clear();
    pending.clear();
    textKept = 0;
    render();
  } }, "Clear");

  const panel = h("section", { class: "panel" }, h("h2", {}, "Protocol trace"),
    h("p", { class: "hint" }, "Every JSON-RPC message to and from each server, oldest first."),
    h("div", { class: "row trace-filters" },
      h("label", { for: ids.server }, "Server"), serverFilter,
      h("label", { for: ids.direction }, "Direction"), directionFilter,
      h("label", { for: ids.method }, "Method"), methodFilter, clear),
    count, rows);
  return {
    id: "trace",
    label: "Trace",
    panel,
    record,
    onShow() {
      syncServers();
      if (dirty || rows.children.length === 0) render();
    },
  };
}
