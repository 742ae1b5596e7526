// The contenders behind one interface, for Node and for the browser page alike:
// connect(url) -> { call(name, args), callWithProgress(name, args, onprogress),
// listTools(), readResource(uri), close() }.
import { Floor } from "./floor.mjs";

const INFO = { name: "bench", version: "1.0.0" };

export function contenders({ McpClient, Sdk1, Sdk2 }) {
  // 1.x takes (params, resultSchema, options); 2.x dropped the schema argument.
  const sdk = (name, lib, withOptions) => ({
    name,
    async connect(url) {
      const client = new lib.Client(INFO, { capabilities: {} });
      await client.connect(new lib.StreamableHTTPClientTransport(new URL(url)));
      return {
        call: (tool, args) => client.callTool({ name: tool, arguments: args }),
        callWithProgress: (tool, args, onprogress) => withOptions(client, { name: tool, arguments: args }, { onprogress, timeout: 600_000, resetTimeoutOnProgress: true }),
        listTools: async () => (await client.listTools()).tools,
        readResource: (uri) => client.readResource({ uri }),
        close: () => client.close(),
      };
    },
  });
  return [
    {
      name: "mcp-wasm",
      async connect(url) {
        // The benchmark server speaks the legacy revisions only; auto would add one probe round trip.
        const client = await McpClient.connect(url, { era: "legacy", transport: "streamable-http", clientInfo: INFO, timeout: 600_000 });
        return {
          call: (tool, args) => client.callTool({ name: tool, arguments: args }),
          callWithProgress: (tool, args, onprogress) => client.callTool({ name: tool, arguments: args }, { onprogress, resetTimeoutOnProgress: true }),
          listTools: async () => (await client.listTools()).tools,
          readResource: (uri) => client.readResource({ uri }),
          close: () => client.close(),
        };
      },
    },
    sdk("sdk 1.x", Sdk1, (client, params, options) => client.callTool(params, undefined, options)),
    sdk("client 2.x", Sdk2, (client, params, options) => client.callTool(params, options)),
    {
      name: "raw fetch",
      async connect(url) {
        const floor = await new Floor(url).connect();
        return {
          call: (tool, args) => floor.callTool(tool, args),
          callWithProgress: (tool, args, onprogress) => floor.callToolWithProgress(tool, args, onprogress),
          listTools: async () => (await floor.request("tools/list", {})).tools,
          readResource: (uri) => floor.request("resources/read", { uri }),
          close: () => floor.close(),
        };
      },
    },
  ];
}
