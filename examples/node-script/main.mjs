// Connects to an MCP server, lists its tools, calls one while printing its
// progress, reads a resource, and closes the session.
//
//   node main.mjs http://127.0.0.1:3001/mcp [tool] [JSON arguments]
//
// The defaults suit server-everything (`npx @modelcontextprotocol/server-everything streamableHttp`):
// its trigger-long-running-operation tool reports progress at each step.
import { McpClient, McpClientError, McpError } from "mcp-wasm";

const [url, toolName = "trigger-long-running-operation", json = '{"duration": 2, "steps": 4}'] = process.argv.slice(2);
if (!url) {
  console.error("usage: node main.mjs <MCP server URL> [tool] [JSON arguments]");
  process.exit(2);
}

const textOf = (content) => content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");

// The client picks the transport itself: Streamable HTTP, or HTTP+SSE for an older server.
const client = await McpClient.connect(url, {
  clientInfo: { name: "mcp-wasm-node-script", version: "0.1.0" },
  timeout: 30_000,
});
try {
  const { name, version } = client.serverInfo;
  console.log(`connected to ${name} ${version} over ${client.transport}, protocol ${client.protocolVersion}`);

  const tools = await client.listAllTools();
  console.log(`${tools.length} tools: ${tools.map((tool) => tool.name).join(", ")}`);

  // onprogress makes the client send a progress token; each update also restarts the timeout.
  const result = await client.callTool(
    { name: toolName, arguments: JSON.parse(json) },
    {
      onprogress: ({ progress, total, message }) =>
        console.log(`progress ${progress}${total === undefined ? "" : `/${total}`}${message ? ` ${message}` : ""}`),
      timeout: 10_000,
      resetTimeoutOnProgress: true,
    },
  );
  console.log(`${toolName}${result.isError ? " failed" : ""}: ${textOf(result.content)}`);
  if (result.isError) process.exitCode = 1;

  const [resource] = await client.listAllResources();
  if (resource) {
    const { contents } = await client.readResource({ uri: resource.uri });
    for (const item of contents) {
      const body = "text" in item ? `${item.text.length} characters: ${item.text.split("\n")[0]}` : `${item.blob.length} base64 characters`;
      console.log(`resource ${item.uri} (${item.mimeType ?? "no type"}), ${body}`);
    }
  } else {
    console.log("the server lists no resources");
  }
} catch (e) {
  // McpError: the server answered with a JSON-RPC error; McpClientError: the client gave up (kind says why).
  if (e instanceof McpError) console.error(`the server refused: ${e.message} (code ${e.code})`);
  else if (e instanceof McpClientError) console.error(`the client gave up: ${e.message} (${e.kind})`);
  else console.error(e);
  process.exitCode = 1;
} finally {
  // Ends the server's session (an HTTP DELETE for Streamable HTTP).
  await client.close();
  console.log("closed");
}
