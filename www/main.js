// mcp-wasm demo page. Every string that comes from the MCP server (names, descriptions,
// tool output, error messages) is written with textContent or as an attribute value,
// never parsed as HTML: the server may be hostile.

const DEFAULT_SERVER = "http://127.0.0.1:38011/mcp";

const $ = (id) => document.getElementById(id);
const ui = {
  connectForm: $("connect-form"), serverUrl: $("server-url"), connect: $("connect"), disconnect: $("disconnect"),
  status: $("status"),
  server: $("info-server"), version: $("info-version"), protocol: $("info-protocol"), session: $("info-session"),
  capabilities: $("info-capabilities"), instructionsBox: $("instructions-box"), instructions: $("instructions"),
  toolList: $("tool-list"), toolCount: $("tool-count"),
  selectedTool: $("selected-tool"), selectedDescription: $("selected-description"),
  callForm: $("call-form"), args: $("args"), schemaBox: $("schema-box"), schema: $("schema"),
  call: $("call"), cancel: $("cancel"), result: $("result"),
};

let McpClient;        // set once the package has loaded
let client = null;    // the connected McpClient, if any
let tools = [];
let selected = null;  // the selected Tool
let callAbort = null; // AbortController of the call in flight

function setStatus(state, text) {
  ui.status.dataset.state = state;
  ui.status.textContent = text;
}

// McpError (a JSON-RPC error from the server) has a numeric code; McpClientError (a local
// failure: network, HTTP status, timeout, abort…) has a kind. Duck-typed so the page does
// not depend on which error classes the package exports.
function describeError(e) {
  if (e && typeof e.code === "number") {
    const data = e.data === undefined ? "" : `\ndata: ${JSON.stringify(e.data, null, 2)}`;
    return `McpError ${e.code}: ${e.message}${data}`;
  }
  if (e && typeof e.kind === "string") {
    return `McpClientError (${e.kind}${e.status ? `, HTTP ${e.status}` : ""}): ${e.message}`;
  }
  return `${e?.name || "Error"}: ${e?.message ?? String(e)}`;
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k in node) node[k] = v;
    else node.setAttribute(k, v);
  }
  node.append(...children); // strings become Text nodes, never markup
  return node;
}

function showConnection(c) {
  const info = c?.serverInfo;
  ui.server.textContent = info ? `${info.name ?? "?"}${info.title ? ` (${info.title})` : ""}` : "—";
  ui.version.textContent = info?.version || "—";
  ui.protocol.textContent = c?.protocolVersion || "—";
  ui.session.textContent = c?.sessionId || (c ? "(none: stateless server)" : "—");
  ui.capabilities.textContent = c ? Object.keys(c.serverCapabilities ?? {}).join(", ") || "(none)" : "—";
  ui.instructions.textContent = c?.instructions || "";
  ui.instructionsBox.hidden = !c?.instructions;
}

function renderTools() {
  ui.toolList.replaceChildren(...tools.map((tool) => {
    const button = el("button", { type: "button", className: "tool", "aria-pressed": String(tool === selected) },
      el("span", { className: "tool-name" }, tool.name),
      el("span", { className: "tool-desc" }, tool.description || tool.title || ""));
    button.addEventListener("click", () => selectTool(tool));
    return el("li", { dataset: { testid: "tool-item", name: tool.name } }, button);
  }));
  ui.toolCount.textContent = client ? `(${tools.length})` : "";
}

// Pre-fill the arguments with one entry per schema property, so the user sees what the
// tool expects; defaults and the first enum value win over type placeholders.
function skeleton(schema) {
  const placeholder = { string: "", number: 0, integer: 0, boolean: false, array: [], object: {}, null: null };
  const out = {};
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const type = Array.isArray(prop?.type) ? prop.type[0] : prop?.type;
    out[name] = prop?.default !== undefined ? prop.default
      : Array.isArray(prop?.enum) && prop.enum.length ? prop.enum[0]
      : type in placeholder ? placeholder[type] : null;
  }
  return out;
}

function selectTool(tool) {
  selected = tool;
  ui.selectedTool.textContent = tool.name;
  ui.selectedDescription.textContent = tool.description || "";
  ui.args.value = JSON.stringify(skeleton(tool.inputSchema), null, 2);
  ui.schema.textContent = JSON.stringify(tool.inputSchema ?? {}, null, 2);
  ui.schemaBox.hidden = !tool.inputSchema;
  ui.call.disabled = !client;
  clearResult();
  renderTools();
}

function clearResult() {
  ui.result.dataset.state = "empty";
  ui.result.replaceChildren();
}

const SAFE_IMAGE = /^image\/(png|jpeg|gif|webp)$/;

function renderContent(item) {
  switch (item?.type) {
    case "text":
      return el("pre", { className: "content-text" }, String(item.text));
    case "image":
      // data: URL of a raster type only; no server-chosen URL is ever fetched.
      return SAFE_IMAGE.test(item.mimeType)
        ? el("img", { src: `data:${item.mimeType};base64,${item.data}`, alt: `image (${item.mimeType}) returned by the tool` })
        : el("p", { className: "muted" }, `[image of type ${item.mimeType}, not displayed]`);
    case "resource_link":
      return el("p", {}, "Resource link: ", el("code", {}, String(item.uri)), item.name ? ` (${item.name})` : "");
    case "resource":
      return el("pre", { className: "content-text" },
        `Resource ${item.resource?.uri ?? ""}\n${item.resource?.text ?? `[${item.resource?.mimeType ?? "binary"} blob]`}`);
    default:
      return el("pre", { className: "content-text" }, JSON.stringify(item, null, 2));
  }
}

function showResult(result) {
  ui.result.dataset.state = result?.isError ? "tool-error" : "ok";
  const parts = [];
  if (result?.isError) parts.push(el("p", { className: "error" }, "The tool reported an error (isError: true)."));
  for (const item of result?.content ?? []) parts.push(renderContent(item));
  if (result?.structuredContent !== undefined) {
    parts.push(el("h4", {}, "Structured content"), el("pre", {}, JSON.stringify(result.structuredContent, null, 2)));
  }
  parts.push(el("details", {}, el("summary", {}, "Raw result"), el("pre", {}, JSON.stringify(result, null, 2))));
  ui.result.replaceChildren(...parts);
}

function showError(target, e) {
  target.dataset.state = "error";
  target.replaceChildren(el("pre", { className: "error" }, describeError(e)));
}

async function disconnect() {
  const c = client;
  client = null;
  tools = [];
  selected = null;
  callAbort?.abort();
  ui.disconnect.disabled = true;
  ui.call.disabled = true;
  ui.selectedTool.textContent = "no tool selected";
  ui.selectedDescription.textContent = "";
  ui.schemaBox.hidden = true;
  showConnection(null);
  renderTools();
  clearResult();
  if (c) await c.close().catch((e) => console.warn("close failed:", e));
}

async function connect(url) {
  await disconnect();
  ui.connect.disabled = true;
  setStatus("connecting", `Connecting to ${url} …`);
  try {
    const c = await McpClient.connect(url, {
      clientInfo: { name: "mcp-wasm-demo", version: "0.1.0" },
      timeout: 30_000,
    });
    client = c;
    showConnection(c);
    ui.disconnect.disabled = false;
    tools = c.serverCapabilities?.tools ? await c.listAllTools() : [];
    if (client !== c) return; // disconnected meanwhile
    renderTools();
    setStatus("connected", `Connected to ${url}`);
    // Keep the address shareable: ?server=<url> reconnects to the same server.
    const here = new URL(location.href);
    here.searchParams.set("server", url);
    history.replaceState(null, "", here);
  } catch (e) {
    setStatus("error", `Connection failed: ${describeError(e)}`);
  } finally {
    ui.connect.disabled = false;
  }
}

async function callSelected() {
  if (!client || !selected) return;
  let args;
  try {
    args = JSON.parse(ui.args.value || "{}");
    if (args === null || typeof args !== "object" || Array.isArray(args)) throw new Error("arguments must be a JSON object");
  } catch (e) {
    showError(ui.result, new SyntaxError(`Invalid arguments: ${e.message}`));
    return;
  }
  callAbort = new AbortController();
  ui.call.disabled = true;
  ui.cancel.disabled = false;
  ui.result.dataset.state = "pending";
  ui.result.replaceChildren(el("p", { className: "muted" }, `Calling ${selected.name} …`));
  try {
    showResult(await client.callTool({ name: selected.name, arguments: args }, { signal: callAbort.signal }));
  } catch (e) {
    showError(ui.result, e);
  } finally {
    callAbort = null;
    ui.cancel.disabled = true;
    ui.call.disabled = !client;
  }
}

ui.connectForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (McpClient) connect(ui.serverUrl.value.trim());
});
ui.disconnect.addEventListener("click", async () => {
  await disconnect();
  setStatus("idle", "Disconnected");
});
ui.callForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  callSelected();
});
ui.cancel.addEventListener("click", () => callAbort?.abort());

ui.serverUrl.value = new URLSearchParams(location.search).get("server") || DEFAULT_SERVER;

// Dynamic import so a missing or broken build shows up as a readable status instead of a
// silently dead page (pkg/index.js instantiates the wasm with top-level await).
try {
  ({ McpClient } = await import("./pkg/index.js"));
} catch (e) {
  setStatus("error", `Could not load the mcp-wasm package from ./pkg/ (build it first): ${describeError(e)}`);
}
if (McpClient) {
  setStatus("idle", "Ready");
  connect(ui.serverUrl.value.trim());
}
