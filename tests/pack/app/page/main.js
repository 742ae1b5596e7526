// The page the pack tier bundles with esbuild and with Vite, and also loads unbundled
// (page/unbundled.html, through an import map): mcp-wasm as a web app imports it, from
// the copy installed out of the tarball. ?mcp=<url>&message=<text> says whom to call; the
// outcome lands in window.packResult and in #result. A first client connects and calls
// echo with the core's primary half alone; the rest of the core is fetched once that call
// has settled. A second client, with an elicitation handler, waits for the rest before it
// connects. A plain outputSchema is checked by quick-check.js; the validator module must be
// fetched only when a check needs it, here an elicitation answer. With ?long=<n>, the page's
// first call is instead an echo of n characters, a result long enough to stay in JS: the rest
// of the core must be fetched before the core reads it, and never synchronously.
import { McpClient } from "mcp-wasm";

const params = new URLSearchParams(location.search);

const fetched = () => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname);
const wasmFetched = () => fetched().filter((p) => p.endsWith(".wasm"));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function firstCall() {
  const client = await McpClient.connect(params.get("mcp"));
  try {
    const result = await client.callTool({ name: "echo", arguments: { message: params.get("message") } });
    return { text: result.content?.[0]?.text, firstCall: fetched() };
  } finally {
    await client.close();
  }
}

async function run() {
  const { text, firstCall: filesForEcho } = await firstCall();
  const wasmForEcho = filesForEcho.filter((p) => p.endsWith(".wasm"));
  // The rest is fetched when the page is idle after the first call.
  for (let i = 0; i < 100 && wasmFetched().length === wasmForEcho.length; i++) await sleep(50);
  const wasmAfterIdle = wasmFetched();

  // The answers to server-everything's elicitation are checked against its requestedSchema: the
  // first matches (quick-check.js says so), the second does not (the validator module says so).
  const answers = [{ name: "pack", integer: 7 }, { name: "pack", integer: 500 }];
  const elicitation = () => ({ action: "accept", content: answers.shift() });
  const client = await McpClient.connect(params.get("mcp"), { handlers: { elicitation } });
  try {
    await client.listTools();
    const weather = await client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } });
    const wasmAfterStructured = wasmFetched();
    const asked = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    const wasmAfterElicitation = wasmFetched();
    const refused = await client.callTool({ name: "trigger-elicitation-request", arguments: {} }).then((r) => r.isError === true, () => true);
    return {
      ok: true, text, filesForEcho, wasmForEcho, wasmAfterIdle, wasmAfterStructured, wasmAfterElicitation, wasmAfterRefusal: wasmFetched(),
      structured: weather.structuredContent, elicited: asked.content?.map((block) => block.text).join("\n"), refused,
    };
  } finally {
    await client.close();
  }
}

async function longFirstCall(size) {
  const client = await McpClient.connect(params.get("mcp"));
  try {
    const result = await client.callTool({ name: "echo", arguments: { message: "l".repeat(size) } });
    // How each copy of the rest was fetched: "fetch" off the page's thread, "xmlhttprequest" if the
    // core had to load it synchronously.
    const rest = performance.getEntriesByType("resource").filter((e) => e.name.includes("mcp_wasm_rest_bg")).map((e) => e.initiatorType);
    return { ok: true, length: result.content?.[0]?.text?.length ?? 0, rest };
  } finally {
    await client.close();
  }
}

window.packResult = (params.has("long") ? longFirstCall(Number(params.get("long"))) : run()).catch((error) => ({ ok: false, error: `${error?.kind ?? ""} ${error?.message ?? error}` }));
window.packResult.then((outcome) => {
  document.querySelector("#result").textContent = JSON.stringify(outcome);
});
