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

// The auth scenarios: connect with OAuth, then use the server as a client
// would (list, then call a tool, which is where step-up scenarios refuse).
// The mock authorization server approves at once with a 302; the "user" here
// follows it by reading the Location header, as the reference client does.
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
async function authorize(url) {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return location;
}
async function authScenario(McpClient, auth) {
  const client = await McpClient.connect(serverUrl, { ...options, auth });
  try {
    const { tools } = await client.listTools();
    if (tools[0]) await client.callTool({ name: tools[0].name, arguments: {} });
  } finally {
    await client.close();
  }
}
const codeFlow = { redirectUri: "http://localhost:3000/callback", clientName: "mcp-wasm conformance client", authorize };
for (const name of [
  "auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
  "auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined",
  "auth/scope-step-up", "auth/scope-retry-limit", "auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none", "auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported",
]) {
  scenarios[name] = (McpClient) => authScenario(McpClient, codeFlow);
}
scenarios["auth/basic-cimd"] = (McpClient) =>
  authScenario(McpClient, { ...codeFlow, clientMetadataUrl: "https://conformance-test.local/client-metadata.json" });
scenarios["auth/pre-registration"] = (McpClient) =>
  authScenario(McpClient, { ...codeFlow, clientId: context.client_id, clientSecret: context.client_secret });
scenarios["auth/client-credentials-jwt"] = (McpClient) =>
  authScenario(McpClient, { grant: "client_credentials", clientId: context.client_id, privateKey: context.private_key_pem, signingAlgorithm: context.signing_algorithm ?? "ES256" });
scenarios["auth/cross-app-access-complete-flow"] = (McpClient) =>
  authScenario(McpClient, {
    grant: "cross_app_access", clientId: context.client_id, clientSecret: context.client_secret,
    identity: { idToken: context.idp_id_token, tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id },
  });
scenarios["auth/client-credentials-basic"] = (McpClient) =>
  authScenario(McpClient, { grant: "client_credentials", clientId: context.client_id, clientSecret: context.client_secret, tokenEndpointAuthMethod: "client_secret_basic" });

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
