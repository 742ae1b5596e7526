// Type tests for the published package: compiled with `tsc --strict -p tests/types`
// against pkg/ through the package name, as a user would import it. Nothing
// here runs; a wrong type is a compile error, and every `@ts-expect-error`
// line must really be an error.
import {
  McpClient,
  McpError,
  McpClientError,
  type CallToolResult,
  type ContentBlock,
  type Implementation,
  type ListToolsResult,
  type McpClientErrorKind,
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
type _listTools = Expect<Equal<Awaited<ReturnType<McpClient["listTools"]>>, ListToolsResult>>;
type _listAllTools = Expect<Equal<Awaited<ReturnType<McpClient["listAllTools"]>>, Tool[]>>;
type _callTool = Expect<Equal<Awaited<ReturnType<McpClient["callTool"]>>, CallToolResult>>;
type _ping = Expect<Equal<Awaited<ReturnType<McpClient["ping"]>>, void>>;
type _close = Expect<Equal<Awaited<ReturnType<McpClient["close"]>>, void>>;
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
  await McpClient.connect("https://example.com/mcp", { protocolVersion: "2026-07-28" });
  // @ts-expect-error timeout is a number of milliseconds
  await McpClient.connect("https://example.com/mcp", { timeout: "60s" });
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
