// Type tests for the published package: compiled with `tsc --strict -p tests/types`
// against pkg/ through the package name, as a user would import it. Nothing
// here runs; a wrong type is a compile error, and every `@ts-expect-error`
// line must really be an error.
import {
  McpClient,
  McpError,
  popupAuthorizer,
  redirectAuthorizer,
  completeAuthorization,
  finishAuth,
  ToolBridge,
  runToolLoop,
  McpHost,
  qualifiedNames,
  type HostTool,
  type HostServerState,
  type McpHostSnapshot,
  type McpSnapshot,
  type BridgeToolCall,
  type RefusedToolCall,
  type ToolApprovalContext,
  McpClientError,
  type CallToolResult,
  type ContentBlock,
  type ListSkillsResult,
  type LoadedSkill,
  type Skill,
  type SkillFileRef,
  type Implementation,
  type ListToolsResult,
  type McpClientErrorKind,
  type CacheHints,
  type McpClientOptions,
  type RequestOptions,
  type ServerCapabilities,
  type SupportedProtocolVersion,
  type Tool,
} from "mcp-wasm";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

declare const client: McpClient;

// Every method's resolved type is the spec's type.
type _connect = Expect<Equal<ReturnType<typeof McpClient.connect>, Promise<McpClient>>>;
type _listTools = Expect<Equal<Awaited<ReturnType<McpClient["listTools"]>>, ListToolsResult & CacheHints>>;
type _listAllTools = Expect<Equal<Awaited<ReturnType<McpClient["listAllTools"]>>, Tool[]>>;
type _callTool = Expect<Equal<Awaited<ReturnType<McpClient["callTool"]>>, CallToolResult>>;
type _ping = Expect<Equal<Awaited<ReturnType<McpClient["ping"]>>, void>>;
type _close = Expect<Equal<Awaited<ReturnType<McpClient["close"]>>, void>>;
type _asyncDispose = Expect<Equal<ReturnType<McpClient[typeof Symbol.asyncDispose]>, Promise<void>>>;
type _serverInfo = Expect<Equal<McpClient["serverInfo"], Implementation>>;
type _capabilities = Expect<Equal<McpClient["serverCapabilities"], ServerCapabilities>>;
type _version = Expect<Equal<McpClient["protocolVersion"], SupportedProtocolVersion>>;
type _session = Expect<Equal<McpClient["sessionId"], string | undefined>>;
type _instructions = Expect<Equal<McpClient["instructions"], string | undefined>>;

export async function usage(signal: AbortSignal): Promise<string> {
  const options: McpClientOptions = {
    clientInfo: { name: "my-app", version: "1.0.0" },
    headers: async () => ({ authorization: "Bearer token" }),
    fetch: (input, init) => fetch(input, init),
    timeout: 30_000,
    protocolVersion: "2025-06-18",
    signal,
    cache: { maxEntries: 64, maxBytes: 4 * 1024 * 1024 },
    limits: { maxMessageBytes: 8 * 1024 * 1024, maxServerRequests: 4, validationSteps: 500_000, templateSteps: 10_000 },
  };
  const c = await McpClient.connect(new URL("https://example.com/mcp"), options);
  const page = await c.listTools({ cursor: "next" }, { signal, timeout: 5_000 });
  const names: string[] = page.tools.map((tool) => tool.name);
  const next: string | undefined = page.nextCursor;
  const result = await c.callTool({ name: names[0] ?? "echo", arguments: { message: "hi" } });
  const texts = result.content.flatMap((block: ContentBlock) => (block.type === "text" ? [block.text] : []));
  const failed: boolean | undefined = result.isError;
  const structured: { [key: string]: unknown } | undefined = result.structuredContent;
  await c.close();
  return `${next}${texts.join()}${failed}${JSON.stringify(structured)}`;
}

export function handle(error: unknown): string {
  if (error instanceof McpError) {
    const code: number = error.code;
    const data: unknown = error.data;
    return `${code}${String(data)}`;
  }
  if (error instanceof McpClientError) {
    const kind: McpClientErrorKind = error.kind;
    const status: number | undefined = error.status;
    // The kinds are a closed union, so a switch can be exhaustive.
    switch (kind) {
      case "timeout":
      case "closed":
      case "http":
      case "session-expired":
      case "network":
      case "protocol":
      case "unsupported-version":
      case "unsupported":
      case "invalid-result":
      case "lagged":
      case "input-rounds-exceeded":
      case "missing-capability":
      case "auth":
      case "max-steps":
      case "limit-exceeded":
      case "invalid-argument":
        return `${kind}${status}`;
      default: {
        const unreachable: never = kind;
        return unreachable;
      }
    }
  }
  return error instanceof Error ? error.message : String(error);
}

export async function misuse(): Promise<void> {
  // @ts-expect-error the URL is required
  await McpClient.connect();
  // @ts-expect-error options is an object, not a string
  await McpClient.connect("https://example.com/mcp", "fast");
  // @ts-expect-error only the revisions the client speaks
  await McpClient.connect("https://example.com/mcp", { protocolVersion: "2027-01-01" });
  // @ts-expect-error no such era
  await McpClient.connect("https://example.com/mcp", { era: "future" });
  // @ts-expect-error timeout is a number of milliseconds
  await McpClient.connect("https://example.com/mcp", { timeout: "60s" });
  // @ts-expect-error limits are numbers
  await McpClient.connect("https://example.com/mcp", { limits: { maxMessageBytes: "8 MiB" } });
  // @ts-expect-error no such limit
  await McpClient.connect("https://example.com/mcp", { limits: { maxRegexSteps: 1 } });
  // @ts-expect-error `name` is required by CallToolRequestParams
  await client.callTool({ arguments: {} });
  // @ts-expect-error arguments is an object
  await client.callTool({ name: "echo", arguments: "hi" });
  // @ts-expect-error the cursor is a string
  await client.listTools({ cursor: 5 });
  const options: RequestOptions = {};
  // @ts-expect-error signal must be an AbortSignal
  options.signal = "stop";
  // @ts-expect-error the client is built by connect(), not new
  new McpClient();
  // @ts-expect-error serverInfo is read-only
  client.serverInfo = { name: "x", version: "1" };
  // @ts-expect-error no such kind
  const kind: McpClientErrorKind = "rpc";
  void kind;
}

// ---- the full 2025-11-25 surface ----
import {
  UriTemplate,
  McpNotificationEvent,
  McpErrorEvent,
  type ClientHandlers,
  type CompleteResult,
  type CreateMessageResult,
  type ElicitResult,
  type GetPromptResult,
  type LoggingLevel,
  type McpNotification,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Root,
  type Task,
  type TaskCallOptions,
} from "mcp-wasm";

type _readResource = Expect<Equal<Awaited<ReturnType<McpClient["readResource"]>>, ReadResourceResult & CacheHints>>;
type _era = Expect<Equal<McpClient["era"], "legacy" | "modern">>;
type _getPrompt = Expect<Equal<Awaited<ReturnType<McpClient["getPrompt"]>>, GetPromptResult>>;
type _complete = Expect<Equal<Awaited<ReturnType<McpClient["complete"]>>, CompleteResult>>;
type _allResources = Expect<Equal<Awaited<ReturnType<McpClient["listAllResources"]>>, Resource[]>>;
type _allTemplates = Expect<Equal<Awaited<ReturnType<McpClient["listAllResourceTemplates"]>>, ResourceTemplate[]>>;
type _allPrompts = Expect<Equal<Awaited<ReturnType<McpClient["listAllPrompts"]>>, Prompt[]>>;
type _subscribe = Expect<Equal<Awaited<ReturnType<McpClient["subscribeResource"]>>, void>>;
type _task = Expect<Equal<Awaited<ReturnType<McpClient["callToolAsTask"]>>, CallToolResult>>;
type _match = Expect<Equal<ReturnType<UriTemplate["match"]>, Record<string, string | string[]> | null>>;

export const handlers: ClientHandlers = {
  async sampling(params, ctx): Promise<CreateMessageResult> {
    const signal: AbortSignal = ctx.signal;
    const tokens: number = params.maxTokens;
    void signal;
    return { role: "assistant", content: { type: "text", text: `${tokens}` }, model: "m" };
  },
  elicitation(params): ElicitResult {
    if (params.mode === "url") return { action: "accept" };
    return { action: "accept", content: { name: params.message } };
  },
  roots: (): Root[] => [{ uri: "file:///home", name: "home" }],
};

export async function surface(client: McpClient, signal: AbortSignal): Promise<void> {
  for await (const tool of client.iterateTools()) void tool.inputSchema;
  for await (const template of client.iterateResourceTemplates({ signal })) void template.uriTemplate;
  const read = await client.readResource({ uri: "demo://x" });
  const first = read.contents[0];
  if (first && "text" in first) void first.text;
  await client.getPrompt({ name: "p", arguments: { city: "Paris" } });
  await client.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "E" }, context: { arguments: { b: "c" } } });
  const level: LoggingLevel = "warning";
  await client.setLoggingLevel(level);
  await client.subscribeResource({ uri: "demo://x" });
  await client.callTool({ name: "slow" }, {
    onprogress: (p) => { const n: number = p.progress; void n; },
    resetTimeoutOnProgress: true,
    maxTotalTimeout: 60_000,
  });
  const taskOptions: TaskCallOptions = { ttl: 60_000, pollInterval: 500, ontaskstatus: (task: Task) => void task.status };
  await client.callToolAsTask({ name: "research", arguments: { topic: "x" } }, taskOptions);

  // Typed events: the listener's event type follows the event name.
  client.addEventListener("notifications/message", (event) => {
    const level: LoggingLevel = event.params.level;
    const data: unknown = event.params.data;
    void level; void data;
  }, { signal, once: true });
  client.addEventListener("notifications/resources/updated", (event) => void event.params.uri.toUpperCase());
  client.addEventListener("notification", (event: McpNotificationEvent) => void event.notification.method);
  client.addEventListener("error", (event: McpErrorEvent) => void event.error);
  client.addEventListener("close", { handleEvent: (event: Event) => void event.type });
  for await (const note of client.notifications({ method: "notifications/progress", signal, bufferSize: 64 })) {
    const progress: number = note.params.progress;
    void progress;
  }
  for await (const note of client.notifications()) {
    const notification: McpNotification = note;
    void notification.method;
  }
  const template = new UriTemplate("demo://{id}");
  const uri: string = template.expand({ id: 7, tags: ["a"], flags: { x: true }, gone: undefined });
  void uri;

  await McpClient.connect("https://example.com/mcp", {
    handlers,
    capabilities: { sampling: { tools: {} } },
    strictCapabilities: false,
    validateToolOutput: true,
    listChanged: { tools: { onChanged: (error, tools) => void (error ?? tools?.map((t) => t.name)), debounceMs: 100 } },
  });
  await McpClient.connect("https://example.com/mcp", {
    auth: {
      redirectUri: "http://localhost:3000/callback",
      scope: "mcp:read",
      authorize: async (url) => { const r = await fetch(url, { redirect: "manual" }); return r.headers.get("location") ?? ""; },
    },
  });
  await McpClient.connect("https://example.com/mcp", {
    auth: { redirectUri: "https://app.example/callback", authorize: popupAuthorizer({ features: "popup", closedGrace: 5_000 }), storage: localStorage },
  });
  void McpClient.connect("https://example.com/mcp", { auth: { redirectUri: "https://app.example/callback", authorize: redirectAuthorizer() } });
  const handedBack: boolean = completeAuthorization();
  const asyncStorage = { getItem: async (k: string) => k, setItem: async () => {}, removeItem: () => {} };
  await McpClient.connect("https://example.com/mcp", { auth: { callbackUrl: "https://app.example/callback?code=x", storage: asyncStorage } });
  await McpClient.connect("https://example.com/mcp", { auth: { corsProxy: "https://proxy.example/?url=" } });
  await McpClient.connect("https://example.com/mcp", {
    auth: { grant: "cross_app_access", clientId: "app", clientSecret: "s", identity: { idToken: "eyJ...", tokenEndpoint: "https://idp.example/token" } },
  });
  await McpClient.connect("https://example.com/mcp", { auth: { corsProxy: (url) => `https://proxy.example/${encodeURIComponent(url)}` } });
  void handedBack;
  const finished: McpClient = await finishAuth("https://example.com/mcp", new URL("https://app.example/callback?code=x"), { auth: { redirectUri: "https://app.example/callback" } });
  void finished;
  await McpClient.connect("https://example.com/mcp", {
    auth: { grant: "client_credentials", clientId: "machine", clientSecret: "s", tokenEndpointAuthMethod: "client_secret_basic" },
  });
  const modern = await McpClient.connect("https://example.com/mcp", { era: "modern", cache: true, maxInputRounds: 5 });
  const hints = await modern.listTools();
  const ttl: number | undefined = hints.ttlMs;
  const scope: "public" | "private" | undefined = hints.cacheScope;
  void ttl; void scope;
}

export async function bridgeUse(client: McpClient, reply: object): Promise<void> {
  const bridge = new ToolBridge("anthropic", (await client.listTools()).tools);
  const definitions = bridge.definitions;
  const notes: string[] = bridge.notes;
  const calls: BridgeToolCall[] = bridge.parseToolCalls(reply);
  for (const call of calls) {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    const message = bridge.toolResultMessage(call, result);
    if ("role" in message && message.role === "user" && "content" in message) void message.content[0]?.tool_use_id;
  }
  void definitions; void notes;
  const done = await runToolLoop({
    client, provider: "openai-chat", maxSteps: 5, signal: AbortSignal.timeout(60_000),
    ask: async ({ tools, messages, signal }) => (await fetch("https://llm.example/v1/chat/completions", { method: "POST", body: JSON.stringify({ tools, messages }), signal: signal ?? null })).json(),
  });
  const steps: number = done.steps;
  void steps;
  const guarded = await runToolLoop({
    client, provider: "anthropic", ask: async () => ({ content: [] }),
    approve: async (call: BridgeToolCall, ctx: ToolApprovalContext) => call.name !== "delete-everything" && ctx.step < 5 && !ctx.signal?.aborted,
  });
  const refused: RefusedToolCall[] = guarded.refused;
  const refusedName: string | undefined = refused[0]?.call.name;
  const refusedStep: number | undefined = refused[0]?.step;
  const refusedServer: string | undefined = refused[0]?.server;
  void refusedName; void refusedStep; void refusedServer;
  void runToolLoop({ client, provider: "openai-chat", ask: async () => ({ choices: [] }), approve: () => true });
  // @ts-expect-error approve answers with a boolean
  void runToolLoop({ client, provider: "openai-chat", ask: async () => ({ choices: [] }), approve: () => "yes" });
  // @ts-expect-error the context names a server only for a host: it may be undefined
  void runToolLoop({ client, provider: "openai-chat", ask: async () => ({ choices: [] }), approve: (_call, ctx) => ctx.server.length > 0 });
  // @ts-expect-error ask must resolve with the reply
  void runToolLoop({ client, provider: "gemini", ask: () => "text" });
  // @ts-expect-error not a provider
  new ToolBridge("palm", []);
}

export function surfaceMisuse(client: McpClient): void {
  // @ts-expect-error no such event
  client.addEventListener("notifications/nope", () => {});
  // @ts-expect-error a log message's params have no uri
  client.addEventListener("notifications/message", (event) => void event.params.uri);
  // @ts-expect-error not a logging level
  void client.setLoggingLevel("verbose");
  // @ts-expect-error readResource needs a uri
  void client.readResource({});
  // @ts-expect-error a handler must return the spec's result
  const bad: ClientHandlers = { roots: () => [{ name: "no uri" }] };
  void bad;
  // @ts-expect-error UriTemplate values are strings, numbers, booleans, lists or maps
  new UriTemplate("{x}").expand({ x: () => 1 });
  // @ts-expect-error filter by a real notification method
  void client.notifications({ method: "tools/list" });
  // @ts-expect-error no such grant
  void McpClient.connect("https://example.com/mcp", { auth: { grant: "password" } });
  // @ts-expect-error authorize resolves with the callback URL
  void McpClient.connect("https://example.com/mcp", { auth: { authorize: async () => 42 } });
  // @ts-expect-error storage needs removeItem
  void McpClient.connect("https://example.com/mcp", { auth: { storage: { getItem: () => null, setItem: () => {} } } });
  // @ts-expect-error a proxy function returns the URL to fetch
  void McpClient.connect("https://example.com/mcp", { auth: { corsProxy: (url: string) => new URL(url) } });
  // @ts-expect-error cross-app access needs the IdP's token endpoint
  void McpClient.connect("https://example.com/mcp", { auth: { grant: "cross_app_access", identity: { idToken: "eyJ..." } } });
  // @ts-expect-error popup options are name, features and closedGrace
  void popupAuthorizer({ width: 400 });
  // @ts-expect-error closedGrace is milliseconds
  void popupAuthorizer({ closedGrace: "2 minutes" });
}

export async function hostUse(): Promise<void> {
  const host = await McpHost.connect(
    { docs: { url: "https://docs.example/mcp", headers: { authorization: "Bearer x" } }, local: { url: new URL("http://127.0.0.1:1/mcp"), timeout: 5000 } },
    {
      naming: { rules: "gemini", separator: ".", prefix: "on-collision" },
      handlers: {
        sampling: (params, ctx) => ({ role: "assistant", model: ctx.server, content: { type: "text", text: String(params.maxTokens) } }),
        roots: (ctx) => [{ uri: `file:///${ctx.server}` }],
      },
    },
  );
  const states: HostServerState[] = host.servers();
  const failed = states.filter((s) => s.status === "failed").map((s) => s.error?.message);
  const tools: HostTool[] = await host.listAllTools();
  const owner: string | undefined = tools[0]?.server;
  const result: CallToolResult = await host.callTool("docs__search", { q: "x" }, { timeout: 1000 });
  const same: CallToolResult = await host.callTool({ name: "docs__search", arguments: {} });
  await host.readResource({ uri: "docs://a", server: "docs" });
  const values: string[] = (await host.complete({ ref: { type: "ref/prompt", name: "docs__greet" }, argument: { name: "n", value: "A" } })).completion.values;
  void values;
  host.addEventListener("change", (e) => void e.reason.toUpperCase());
  host.addEventListener("status", (e) => void (e.status === "connected"));
  const saved: McpHostSnapshot = await host.suspend();
  const again = await McpHost.resume(JSON.parse(JSON.stringify(saved)) as McpHostSnapshot, { servers: { docs: { headers: { authorization: "Bearer y" } } } });
  const loop = await runToolLoop({ client: again, provider: "anthropic", ask: async () => ({ content: [] }), approve: (_call, ctx) => ctx.server === "docs" });
  type _toolServer = Expect<Equal<Awaited<ReturnType<McpHost["toolServer"]>>, string | undefined>>;
  const where: string | undefined = await again.toolServer("docs__search");
  void where;
  const names: string[] = qualifiedNames([["a", "b"]], { rules: "openai" });
  const snapshot: McpSnapshot = (await McpClient.connect("https://x.example/mcp")).snapshot();
  const client = await McpClient.resume(snapshot, { headers: { authorization: "Bearer z" } });
  const suspended: McpSnapshot = await client.suspend();
  void failed; void owner; void result; void same; void loop; void names; void suspended;
  // @ts-expect-error not a naming rule set
  new McpHost({ naming: { rules: "cobol" } });
  // @ts-expect-error the status is one of four
  void (states[0]?.status === "gone");
  // @ts-expect-error a host handler's context names the server as a string
  new McpHost({ handlers: { roots: (ctx) => [{ uri: ctx.server.length }] } });
  // @ts-expect-error no such host event
  host.addEventListener("tools", () => {});
  // Tracing and renaming.
  const traced = new McpHost({ trace: (entry) => void `${entry.server} ${entry.direction} ${entry.method ?? entry.id} ${entry.bytes} ${entry.json.length}` });
  const renamed: HostServerState = traced.renameServer("a", "b");
  traced.addEventListener("change", (e) => void (e.reason === "renamed" && e.previous?.toUpperCase()));
  void renamed;
  void McpClient.connect("https://x.example/mcp", { trace: (entry) => void (entry.direction === "in" ? JSON.parse(entry.json) : entry.bytes) });
  // @ts-expect-error a trace entry's direction is "in" or "out"
  void McpClient.connect("https://x.example/mcp", { trace: (entry) => void (entry.direction === "both") });
  await again.close();
}

// Methods the library does not wrap, skills, and the OAuth options for DPoP, issuers,
// memory storage and the jwt_bearer grant.
export async function extensionUse(client: McpClient, signal: AbortSignal): Promise<void> {
  const listed = await client.request<ListToolsResult>("tools/list", {}, { signal, timeout: 5_000, onprogress: (p) => void p.progress });
  const first: Tool | undefined = listed.tools[0];
  const loose = await client.request("ping");
  type _loose = Expect<Equal<typeof loose, { [key: string]: unknown }>>;
  const sent: Promise<void> = client.notify("notifications/roots/list_changed");
  await client.notify("notifications/example", { reason: "x" });
  void first; void sent;

  const page: ListSkillsResult = await client.listSkills({ cursor: "next" }, { timeout: 1_000 });
  const all: Skill[] = await client.listAllSkills({ signal });
  const skill = page.skills[0] ?? all[0];
  if (skill) {
    const loaded: LoadedSkill = await client.readSkill(skill, { signal });
    const name: string = loaded.skill.frontmatter.name;
    const description: string = loaded.skill.frontmatter.description;
    const body: string = loaded.body;
    const files: SkillFileRef[] = skill.resources ?? [];
    const digest: string | undefined = files[0]?.digest;
    const size: number | undefined = files[0]?.size;
    const file: ReadResourceResult = await client.readSkillFile(skill, files[0]?.uri ?? skill.uri, { timeout: 1_000 });
    void name; void description; void body; void digest; void size; void file;
    // @ts-expect-error a frontmatter name is a string
    const wrong: number = loaded.skill.frontmatter.name;
    void wrong;
  }

  await McpClient.connect("https://mcp.example.com/mcp", {
    auth: { redirectUri: "https://app.example/callback", authorize: popupAuthorizer(), dpop: true, storage: sessionStorage },
  });
  await McpClient.connect("https://mcp.example.com/mcp", {
    auth: { grant: "client_credentials", clientId: "bot", clientSecret: "s", issuer: "https://auth.example.com", dpop: true, storage: "memory" },
  });
  await McpClient.connect("https://mcp.example.com/mcp", { auth: { grant: "jwt_bearer", assertion: "eyJ...", storage: null } });
  await McpClient.connect("https://mcp.example.com/mcp", { auth: { grant: "jwt_bearer", assertion: async () => "eyJ..." } });
}

export function extensionMisuse(client: McpClient, skill: Skill): void {
  // @ts-expect-error request params are an object
  void client.request("ping", "now");
  // @ts-expect-error a notification resolves with nothing
  void client.notify("notifications/example").then((answer: string) => answer);
  // @ts-expect-error readSkill takes the listed skill, not its URI
  void client.readSkill(skill.uri);
  // @ts-expect-error readSkillFile names the file by URI
  void client.readSkillFile(skill, 0);
  // @ts-expect-error dpop is a boolean
  void McpClient.connect("https://mcp.example.com/mcp", { auth: { dpop: "yes" } });
  // @ts-expect-error storage is a Storage shape, "memory" or null
  void McpClient.connect("https://mcp.example.com/mcp", { auth: { storage: "local" } });
  // @ts-expect-error the assertion is a string or a function giving one
  void McpClient.connect("https://mcp.example.com/mcp", { auth: { grant: "jwt_bearer", assertion: 42 } });
  // @ts-expect-error the issuer is its URL as a string
  void McpClient.connect("https://mcp.example.com/mcp", { auth: { issuer: new URL("https://auth.example.com") } });
}

// The core's modules past the first call's (scripts/split): loaded ahead of need through the
// entry, or by hand with `mcp-wasm/raw`.
import { loadOAuth, loadRest } from "mcp-wasm";
import { initRest, initRestSync } from "mcp-wasm/raw";

export async function coreModules(bytes: Uint8Array): Promise<void> {
  await loadRest();
  await loadOAuth();
  initRestSync({ module: bytes });
  initRestSync({ module: bytes, oauth: bytes });
  await initRest();
  await initRest({ oauth: null });
  await initRest({ module_or_path: bytes, oauth: new URL("https://example.com/mcp_wasm_oauth_bg.wasm") });
  // TypeScript's `WebAssembly.Module` is an empty interface, which any value matches: the
  // inputs' types cannot refuse a wrong one, only document the right ones.
  await initRest({ module_or_path: new URL("https://example.com/mcp_wasm_rest_bg.wasm"), oauth: Promise.resolve(bytes) });
}

// The parts the entries load on first use, handed to `mcp-wasm/raw` by hand.
import { setPartLoaders, type PartLoaders } from "mcp-wasm/raw";

export function partLoaders(bytes: Uint8Array): void {
  const loaders: PartLoaders = {
    quickCheck: () => import("mcp-wasm/quick-check.js"),
    dpop: () => import("mcp-wasm/dpop.js"),
  };
  setPartLoaders(loaders);
  setPartLoaders({ dpop: loaders.dpop });
  setPartLoaders(undefined);
  // @ts-expect-error a loader returns a Promise of its module
  setPartLoaders({ quickCheck: "mcp-wasm/quick-check.js" });
  // The validator's module of the split core comes with the rest's.
  initRestSync({ module: bytes, oauth: null, validator: bytes });
  void initRest({ validator: null });
  void initRest({ validator: new URL("https://example.com/mcp_wasm_validator_bg.wasm") });
}

// The error classes are built as the client builds them, by kind or code first; a 2026-07-28
// server's acknowledgement of a listen stream is one of the notifications delivered; a skill
// file read carries cache hints as a resource read does.
export async function errorsAndModernShapes(client: McpClient, skill: Skill): Promise<void> {
  const timeout = new McpClientError("timeout", "the transport gave up");
  const kind: "timeout" | string = timeout.kind;
  void kind;
  const refused = new McpError(-32601, "no such method", { method: "x" });
  const code: number = refused.code;
  void code;
  // @ts-expect-error the kind comes first
  void new McpClientError("the transport failed");
  for await (const note of client.notifications()) {
    if (note.method === "notifications/subscriptions/acknowledged") {
      const uris: string[] | undefined = note.params.notifications.resourceSubscriptions;
      void uris;
    }
  }
  client.addEventListener("notifications/subscriptions/acknowledged", (event) => void event.params.notifications.toolsListChanged);
  const file = await client.readSkillFile(skill, "skill://notes/SKILL.md");
  const ttl: number | undefined = file.ttlMs;
  void ttl;
}
