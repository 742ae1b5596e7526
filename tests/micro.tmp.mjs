import { McpClient } from "mcp-wasm";
const c = await McpClient.connect("http://127.0.0.1:38090/mcp", { era: "legacy" });
const t = async (label, fn, n = 10) => { const xs = []; for (let i = 0; i < n; i++) { const s = performance.now(); await fn(); xs.push(performance.now() - s); } xs.sort((a, b) => a - b); console.log(label, xs[n >> 1].toFixed(1)); };
await t("list", () => c.listTools());
await t("read", () => c.readResource({ uri: "bench://big" }));
await t("deep", () => c.callTool({ name: "deep", arguments: {} }));
await t("echo", () => c.callTool({ name: "echo", arguments: { text: "x" } }), 200);
const s = performance.now(); await Promise.all(Array.from({ length: 64 }, async () => { for (let i = 0; i < 20; i++) await c.callTool({ name: "echo", arguments: { text: "x" } }); })); console.log("conc/s", (1280 / (performance.now() - s) * 1000).toFixed(0));
await c.close();
