// Client under test for the official MCP conformance runner (@modelcontextprotocol/conformance).
//
// The runner starts a mock server per scenario and spawns this file as
//   node tests/conformance/client.mjs <server-url>
// with the scenario name in MCP_CONFORMANCE_SCENARIO. Checks are judged on the server side;
// we exit 0 when the scenario ran to completion, 1 when the client failed, 2 when the
// scenario is not implemented here (yet).
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const serverUrl = process.argv.at(-1); // the runner always appends the URL last

// Well below the runner's --timeout, so a stuck request ends with our message, not a kill.
const options = { timeout: 10_000 };

const scenarios = {
  // The mock's tools/call stream sends a priming event (id + retry: 500) and
  // closes without the result; the client must wait `retry`, then GET with
  // Last-Event-ID and take the result from that stream.
  async "sse-retry"(McpClient) {
    const client = await McpClient.connect(serverUrl, { ...options, strictCapabilities: false });
    try {
      const result = await client.callTool({ name: "test_reconnection", arguments: {} });
      if (result.isError) throw new Error(`the tool failed: ${JSON.stringify(result)}`);
    } finally {
      await client.close();
    }
  },

  // The mock asks for five fields with defaults; a user who accepts without
  // touching them must send every default, with its type (SEP-1034). The
  // client fills them in from requestedSchema.
  async "elicitation-sep1034-client-defaults"(McpClient) {
    const client = await McpClient.connect(serverUrl, {
      ...options,
      handlers: { elicitation: () => ({ action: "accept", content: {} }) },
    });
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === "test_client_elicitation_defaults");
      if (!tool) throw new Error(`test_client_elicitation_defaults not listed: ${tools.map((t) => t.name).join(", ")}`);
      const result = await client.callTool({ name: tool.name, arguments: {} });
      if (result.isError) throw new Error(`the tool failed: ${JSON.stringify(result)}`);
    } finally {
      await client.close();
    }
  },

  async initialize(McpClient) {
    const client = await McpClient.connect(serverUrl, options);
    try {
      // This mock declares no capabilities; the client refuses undeclared calls.
      if (client.serverCapabilities.tools) await client.listTools();
    } finally {
      await client.close();
    }
  },

  async tools_call(McpClient) {
    const client = await McpClient.connect(serverUrl, options);
    try {
      const { tools } = await client.listTools();
      if (!tools.some((t) => t.name === "add_numbers")) {
        throw new Error(`add_numbers not listed: ${tools.map((t) => t.name).join(", ")}`);
      }
      const result = await client.callTool({ name: "add_numbers", arguments: { a: 2, b: 3 } });
      const text = result.content?.map((c) => c.text ?? "").join(" ") ?? "";
      if (result.isError || !/\b5\b/.test(text)) throw new Error(`unexpected result: ${JSON.stringify(result)}`);
    } finally {
      await client.close();
    }
  },
};

const run = scenarios[scenario];
if (!run) {
  console.error(`conformance client: scenario "${scenario}" is not implemented`);
  process.exit(2);
}

try {
  // Imported only for implemented scenarios: the unimplemented ones exit without loading wasm.
  const { McpClient } = await import("mcp-wasm");
  await run(McpClient);
  console.log(`conformance client: ${scenario} done`);
  process.exit(0);
} catch (err) {
  const detail = [err?.name, err?.kind ?? err?.code, err?.status].filter((x) => x !== undefined).join(" ");
  console.error(`conformance client: ${scenario} failed: ${detail}: ${err?.message ?? err}`);
  if (err?.stack) console.error(err.stack);
  process.exit(1);
}
