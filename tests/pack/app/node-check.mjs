// Runs inside the pack tier's temporary project, where mcp-wasm is installed from the
// tarball: imports it as a Node ESM program would, calls echo on the server at argv[2]
// and prints what it saw as one JSON line.
import { McpClient } from "mcp-wasm";

const [url, message] = process.argv.slice(2);
const client = await McpClient.connect(url);
try {
  const result = await client.callTool({ name: "echo", arguments: { message } });
  console.log(JSON.stringify({ resolved: import.meta.resolve("mcp-wasm"), text: result.content?.[0]?.text }));
} finally {
  await client.close();
}
