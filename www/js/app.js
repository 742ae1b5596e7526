// The inspector's shell: one McpHost shared by every view, the tabs, the status
// line, and the servers named in the URL (?server=<url>, repeatable; the
// bundled server-everything when none is named). Built only on the package's
// public API, imported by its name as any web app would.
import { McpHost } from "mcp-wasm";
import { h, describeError } from "./dom.js";
import { serversView } from "./servers.js";
import { toolsView } from "./tools.js";
import { resourcesView } from "./resources.js";
import { promptsView } from "./prompts.js";
import { rootsView, rootsHandler } from "./roots.js";
import { logsView } from "./logs.js";
import { chatView } from "./chat.js";
import { traceView } from "./trace.js";
import { samplingHandler } from "./sampling.js";
import { elicitationHandler } from "./elicitation.js";

export const DEFAULT_SERVER = "http://127.0.0.1:38011/mcp";

const status = document.querySelector("#status");
const app = {
  host: null,
  setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  },
  show: null, // set below: switches to a tab by id
  trace: null, // set below: records one traced message
};

app.host = new McpHost({
  handlers: { sampling: samplingHandler(app), elicitation: elicitationHandler(app), roots: rootsHandler(app) },
  clientOptions: { timeout: 120_000, clientInfo: { name: "mcp-wasm-inspector", version: "0.1.0" } },
  trace: (entry) => app.trace?.(entry),
});

const views = [serversView, toolsView, resourcesView, promptsView, rootsView, logsView, chatView, traceView].map((make) => make(app));
app.trace = views.at(-1).record;
const tablist = document.querySelector("#tabs");
const main = document.querySelector("#main");
const tabs = views.map((view) => h("button", {
  role: "tab", id: `tab-${view.id}`, aria: { controls: `panel-${view.id}`, selected: "false" }, tabindex: "-1",
  data: { testid: `tab-${view.id}` }, onclick: () => app.show(view.id),
}, view.label));
tablist.append(...tabs);
for (const view of views) {
  view.panel.id = `panel-${view.id}`;
  view.panel.setAttribute("role", "tabpanel");
  view.panel.setAttribute("aria-labelledby", `tab-${view.id}`);
  view.panel.hidden = true;
  main.append(view.panel);
}

app.show = (id) => {
  views.forEach((view, i) => {
    const active = view.id === id;
    view.panel.hidden = !active;
    tabs[i].setAttribute("aria-selected", String(active));
    tabs[i].tabIndex = active ? 0 : -1;
    if (active) view.onShow?.();
  });
};

// Arrow keys move between tabs, as the ARIA tabs pattern has it.
tablist.addEventListener("keydown", (event) => {
  const index = tabs.indexOf(document.activeElement);
  if (index < 0) return;
  const step = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: tabs.length - 1 - index }[event.key];
  if (step === undefined) return;
  event.preventDefault();
  const next = tabs[(index + step + tabs.length) % tabs.length];
  next.focus();
  next.click();
});

app.host.addEventListener("error", (event) => console.warn(`[${event.server ?? "host"}]`, describeError(event.error)));

const params = new URL(location.href).searchParams;
const named = params.getAll("server").filter(Boolean);
app.show(params.get("view") ?? "tools");
const servers = views[0];
await servers.connectAll(named.length ? named : [DEFAULT_SERVER]);
window.inspector = app; // for the console, and for the end-to-end tests
