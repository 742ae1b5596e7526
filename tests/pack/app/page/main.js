// The page the pack tier bundles with esbuild and with Vite: mcp-wasm as a web app
// imports it, from the copy installed out of the tarball. ?mcp=<url>&message=<text>
// says whom to call; the outcome lands in window.packResult and in #result. A plain
// outputSchema is checked by quick-check.js; the validator module must be fetched only
// when a check needs it, here an elicitation answer.
import { McpClient } from "mcp-wasm";

const params = new URLSearchParams(location.search);

const wasmFetched = () =>
  performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.endsWith(".wasm"));

async function run() {
  // The answers to server-everything's elicitation are checked against its requestedSchema: the
  // first matches (quick-check.js says so), the second does not (the validator module says so).
  const answers = [{ name: "pack", integer: 7 }, { name: "pack", integer: 500 }];
  const elicitation = () => ({ action: "accept", content: answers.shift() });
  const client = await McpClient.connect(params.get("mcp"), { handlers: { elicitation } });
  try {
    const result = await client.callTool({ name: "echo", arguments: { message: params.get("message") } });
    const wasmForEcho = wasmFetched();
    await client.listTools();
    const weather = await client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } });
    const wasmAfterStructured = wasmFetched();
    const asked = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    const wasmAfterElicitation = wasmFetched();
    const refused = await client.callTool({ name: "trigger-elicitation-request", arguments: {} }).then((r) => r.isError === true, () => true);
    return {
      ok: true, text: result.content?.[0]?.text, wasmForEcho, wasmAfterStructured, wasmAfterElicitation, wasmAfterRefusal: wasmFetched(),
      structured: weather.structuredContent, elicited: asked.content?.map((block) => block.text).join("\n"), refused,
    };
  } finally {
    await client.close();
  }
}

window.packResult = run().catch((error) => ({ ok: false, error: `${error?.kind ?? ""} ${error?.message ?? error}` }));
window.packResult.then((outcome) => {
  document.querySelector("#result").textContent = JSON.stringify(outcome);
});
