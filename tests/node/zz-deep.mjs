const { McpClient } = await import(process.argv[2] + "/node.js");
const client = await McpClient.connect("http://127.0.0.1:38290/mcp", { era: "legacy" });
await client.listTools();
for (let i = 0; i < 5; i++) await client.callTool({ name: "deep", arguments: {} });
const t = performance.now();
for (let i = 0; i < 40; i++) await client.callTool({ name: "deep", arguments: {} });
console.log("deep per call", ((performance.now() - t) / 40).toFixed(1));
await client.close();
