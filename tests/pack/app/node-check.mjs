// Runs inside the pack tier's temporary project, where mcp-wasm is installed from the
// tarball: imports it as a Node ESM program would, calls echo on the server at argv[2]
// and get-structured-content (checked by the validator module), and prints what it
// saw as one JSON line.
import { McpClient } from "mcp-wasm";

const [url, message] = process.argv.slice(2);
const client = await McpClient.connect(url);
try {
  const result = await client.callTool({ name: "echo", arguments: { message } });
  // A tool with an outputSchema: its structuredContent is checked (quick-check.js, from the package).
  await client.listTools();
  const weather = await client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } });
  console.log(JSON.stringify({ resolved: import.meta.resolve("mcp-wasm"), text: result.content?.[0]?.text, structured: weather.structuredContent }));
} finally {
  await client.close();
}
