// The page the pack tier bundles with esbuild and with Vite: mcp-wasm as a web app
// imports it, from the copy installed out of the tarball. ?mcp=<url>&message=<text>
// says whom to call; the outcome lands in window.packResult and in #result. The
// validator module must be fetched only when a tool with an outputSchema answers.
import { McpClient } from "mcp-wasm";

const params = new URLSearchParams(location.search);

const wasmFetched = () =>
  performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.endsWith(".wasm"));

async function run() {
  const client = await McpClient.connect(params.get("mcp"));
  try {
    const result = await client.callTool({ name: "echo", arguments: { message: params.get("message") } });
    const wasmForEcho = wasmFetched();
    await client.listTools();
    const weather = await client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } });
    return { ok: true, text: result.content?.[0]?.text, wasmForEcho, wasmAfterStructured: wasmFetched(), structured: weather.structuredContent };
  } finally {
    await client.close();
  }
}

window.packResult = run().catch((error) => ({ ok: false, error: `${error?.kind ?? ""} ${error?.message ?? error}` }));
window.packResult.then((outcome) => {
  document.querySelector("#result").textContent = JSON.stringify(outcome);
});
