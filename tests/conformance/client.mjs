// Client under test for the official MCP conformance runner (@modelcontextprotocol/conformance
// 0.2.0-alpha.12), written against the package's public API only.
//
// The runner starts a mock server per scenario and spawns this file as
//   node tests/conformance/client.mjs <server-url>
// with MCP_CONFORMANCE_SCENARIO naming the scenario, MCP_CONFORMANCE_PROTOCOL_VERSION the
// revision to speak (dated revisions up to 2025-11-25 use the legacy lifecycle, 2026-07-28 the
// modern one) and, for some scenarios, MCP_CONFORMANCE_CONTEXT. Checks are judged on the
// server side; we exit 0 when the scenario ran to completion, 1 when the client failed, 2
// when the scenario is not implemented here.
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const serverUrl = process.argv.at(-1); // the runner always appends the URL last
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
const revision = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2025-11-25";

// Well below the runner's --timeout, so a stuck request ends with our message, not a kill.
// The revision is pinned: the runner, not a probe, decides the era.
const options = { timeout: 10_000, protocolVersion: revision };

async function withClient(McpClient, extra, work) {
  const client = await McpClient.connect(serverUrl, { ...options, ...extra });
  try {
    await work(client);
  } finally {
    await client.close();
  }
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

const scenarios = {
  async initialize(McpClient) {
    // This mock declares no capabilities; the client refuses undeclared calls.
    await withClient(McpClient, {}, async (client) => {
      if (client.serverCapabilities.tools) await client.listTools();
    });
  },

  async tools_call(McpClient) {
    await withClient(McpClient, {}, async (client) => {
      const { tools } = await client.listTools();
      check(tools.some((t) => t.name === "add_numbers"), `add_numbers not listed: ${tools.map((t) => t.name).join(", ")}`);
      const result = await client.callTool({ name: "add_numbers", arguments: { a: 2, b: 3 } });
      const text = result.content?.map((c) => c.text ?? "").join(" ") ?? "";
      check(!result.isError && /\b5\b/.test(text), `unexpected result: ${JSON.stringify(result)}`);
    });
  },

  // The mock asks for five fields with defaults; a user who accepts without touching them
  // must send every default, with its type (SEP-1034). The client fills them in.
  async "elicitation-sep1034-client-defaults"(McpClient) {
    const handlers = { elicitation: () => ({ action: "accept", content: {} }) };
    await withClient(McpClient, { handlers }, async (client) => {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === "test_client_elicitation_defaults");
      check(tool, `test_client_elicitation_defaults not listed: ${tools.map((t) => t.name).join(", ")}`);
      const result = await client.callTool({ name: tool.name, arguments: {} });
      check(!result.isError, `the tool failed: ${JSON.stringify(result)}`);
    });
  },

  // The tools/call stream sends a priming event (id + retry: 500) and closes without the
  // result; the client waits `retry`, then GETs with Last-Event-ID and reads the result there.
  async "sse-retry"(McpClient) {
    await withClient(McpClient, { strictCapabilities: false }, async (client) => {
      const result = await client.callTool({ name: "test_reconnection", arguments: {} });
      check(!result.isError, `the tool failed: ${JSON.stringify(result)}`);
    });
  },

  // The first POST is refused with -32022, listing the versions the server speaks; the client
  // retries with one it speaks too.
  async "request-metadata"(McpClient) {
    await withClient(McpClient, { strictCapabilities: false }, async (client) => {
      await client.listTools();
    });
  },

  // Multi-round-trip input: the retry carries the answers and the server's requestState byte
  // for byte, under a new id; a call without state sends none; an unrelated call carries none.
  async "sep-2322-client-request-state"(McpClient) {
    const handlers = { elicitation: () => ({ action: "accept", content: { confirmed: true } }) };
    await withClient(McpClient, { handlers }, async (client) => {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"]) {
        check(names.includes(name), `${name} not listed: ${names.join(", ")}`);
      }
      const [echoed] = await Promise.all([
        client.callTool({ name: "test_mrtr_echo_state", arguments: {} }),
        client.callTool({ name: "test_mrtr_unrelated", arguments: {} }),
      ]);
      check(!echoed.isError, `test_mrtr_echo_state failed: ${JSON.stringify(echoed)}`);
      await client.callTool({ name: "test_mrtr_no_state", arguments: {} });
      await client.callTool({ name: "test_mrtr_no_result_type", arguments: {} });
    });
  },

  // Mcp-Method and Mcp-Name on every request the client makes.
  async "http-standard-headers"(McpClient) {
    await withClient(McpClient, {}, async (client) => {
      const { tools } = await client.listTools();
      await client.callTool({ name: tools[0].name, arguments: {} });
      const { resources } = await client.listResources();
      for (const resource of resources) await client.readResource({ uri: resource.uri });
      const { prompts } = await client.listPrompts();
      for (const prompt of prompts) await client.getPrompt({ name: prompt.name });
    });
  },

  // Mcp-Param-* headers for the arguments a tool's schema marks with x-mcp-header.
  async "http-custom-headers"(McpClient) {
    await withClient(McpClient, {}, async (client) => {
      await client.listTools();
      for (const call of context.toolCalls ?? []) await client.callTool({ name: call.name, arguments: call.arguments });
    });
  },

  // Tools whose x-mcp-header annotations break the rules are not offered, so never called.
  async "http-invalid-tool-headers"(McpClient) {
    await withClient(McpClient, {}, async (client) => {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        const args = tool.name === "valid_tool" ? { region: "us-west1" } : {};
        await client.callTool({ name: tool.name, arguments: args });
      }
      check(tools.some((t) => t.name === "valid_tool"), "valid_tool was not offered");
    });
  },

  // A $ref to the network in a tool's schema is never fetched.
  async "json-schema-ref-no-deref"(McpClient) {
    await withClient(McpClient, {}, async (client) => {
      await client.listTools();
    });
  },

  // The client hands a 2020-12 schema back exactly as the server wrote it.
  async "json-schema-2020-12-preservation"(McpClient) {
    await withClient(McpClient, {}, async (client) => {
      const { tools } = await client.listTools();
      const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
      check(focal, `json_schema_2020_12_tool not listed: ${tools.map((t) => t.name).join(", ")}`);
      await client.callTool({ name: "json_schema_echo", arguments: { schema: focal.inputSchema } });
    });
  },

  // Skills (SEP-2640): listing loads nothing.
  async "sep-2640-client-no-prefetch"(McpClient) {
    await withClient(McpClient, {}, async (client) => {
      const { skills } = await client.listSkills();
      check(skills.length > 0, "no skills listed");
    });
  },
};

// Each tampered SKILL.md must be refused when loaded, and nothing else of the skill read.
for (const what of ["digest", "size", "frontmatter"]) {
  scenarios[`sep-2640-client-verify-${what}`] = async (McpClient) => {
    await withClient(McpClient, {}, async (client) => {
      const { skills } = await client.listSkills();
      check(skills.length > 0, "no skills listed");
      let refused;
      try {
        await client.readSkill(skills[0]);
      } catch (error) {
        refused = error;
      }
      check(refused?.kind === "invalid-result", `a SKILL.md with a wrong ${what} was not refused: ${refused ?? "loaded"}`);
    });
  };
}

// The auth scenarios: connect with OAuth, then use the server as a client would (list, then
// call a tool, which is where step-up and migration scenarios refuse). The mock
// authorization server approves at once with a 302; the "user" here follows it by reading
// the Location header, as the reference client does.
async function authorize(url) {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return location;
}
async function authScenario(McpClient, auth) {
  await withClient(McpClient, { auth: { storage: "memory", ...auth } }, async (client) => {
    const { tools } = await client.listTools();
    if (tools[0]) await client.callTool({ name: tools[0].name, arguments: {} });
  });
}
const codeFlow = { redirectUri: "http://localhost:3000/callback", clientName: "mcp-wasm conformance client", authorize };
for (const name of [
  "auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
  "auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined",
  "auth/scope-step-up", "auth/scope-retry-limit", "auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none", "auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported",
  "auth/authorization-server-migration", "auth/iss-supported", "auth/iss-not-advertised", "auth/iss-supported-missing",
  "auth/iss-wrong-issuer", "auth/iss-unexpected", "auth/iss-normalized", "auth/metadata-issuer-mismatch",
]) {
  scenarios[name] = (McpClient) => authScenario(McpClient, codeFlow);
}
scenarios["auth/basic-cimd"] = (McpClient) =>
  authScenario(McpClient, { ...codeFlow, clientMetadataUrl: "https://conformance-test.local/client-metadata.json" });
scenarios["auth/pre-registration"] = (McpClient) =>
  authScenario(McpClient, { ...codeFlow, clientId: context.client_id, clientSecret: context.client_secret, issuer: context.issuer });
scenarios["auth/client-credentials-jwt"] = (McpClient) =>
  authScenario(McpClient, { grant: "client_credentials", clientId: context.client_id, privateKey: context.private_key_pem, signingAlgorithm: context.signing_algorithm ?? "ES256" });
scenarios["auth/client-credentials-basic"] = (McpClient) =>
  authScenario(McpClient, { grant: "client_credentials", clientId: context.client_id, clientSecret: context.client_secret, tokenEndpointAuthMethod: "client_secret_basic" });
scenarios["auth/enterprise-managed-authorization"] = (McpClient) =>
  authScenario(McpClient, {
    grant: "cross_app_access", clientId: context.client_id, clientSecret: context.client_secret,
    identity: { idToken: context.idp_id_token, tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id },
  });
scenarios["auth/wif-jwt-bearer"] = (McpClient) => authScenario(McpClient, { grant: "jwt_bearer", assertion: async () => context.valid_jwt });
scenarios["auth/dpop"] = (McpClient) => authScenario(McpClient, { ...codeFlow, dpop: true });
scenarios["auth/dpop-nonce"] = (McpClient) => authScenario(McpClient, { ...codeFlow, dpop: true });

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
