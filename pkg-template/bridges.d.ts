// ToolBridge and qualifiedNames (bridges.js, naming.js): plain JS over the package's types.
import type { BridgeToolCall, CallToolResult, HostNaming, LlmProvider, ProviderToolDefinitions, ProviderToolResult, Tool } from "./mcp_wasm.js";

/**
 * Converts between MCP tools and one LLM API's function calling. Tool names
 * the API would refuse are rewritten (and mapped back when the model calls
 * them); anything else the API cannot take is listed in `notes`.
 *
 * @example
 * ```ts
 * const bridge = new ToolBridge("anthropic", await client.listAllTools());
 * // send bridge.definitions as the request's `tools`; then, for the reply:
 * for (const call of bridge.parseToolCalls(reply)) {
 *   const result = await client.callTool({ name: call.name, arguments: call.arguments });
 *   messages.push(bridge.toolResultMessage(call, result));
 * }
 * ```
 */
export declare class ToolBridge {
  /**
   * A bridge for `provider` over `tools` (as `listTools` returns them).
   *
   * @throws {McpClientError} `invalid-argument` for an unknown provider, or
   * tools that are not an array of objects with a string `name`.
   */
  constructor(provider: LlmProvider, tools: Tool[]);
  /** The tool definitions to send to the model (a fresh copy on each read). */
  readonly definitions: ProviderToolDefinitions;
  /**
   * What was adjusted for this API, one line each: for the definitions,
   * then for the tool results that lost something on the way (the last
   * 1,000 lines of those).
   */
  readonly notes: string[];
  /**
   * The tool calls in a model reply, with MCP tool names. Throws an
   * `McpClientError` of kind `invalid-argument` if arguments are not a JSON
   * object or a call names a tool the bridge did not offer.
   */
  parseToolCalls(reply: object): BridgeToolCall[];
  /** The API's tool-result message for a call and its `CallToolResult`. */
  toolResultMessage(call: BridgeToolCall, result: CallToolResult): ProviderToolResult;
  /** Nothing to release: the bridge is plain JS. Kept from the releases whose bridge lived in wasm. */
  free(): void;
  /** The same as {@link ToolBridge.free}. */
  [Symbol.dispose](): void;
}

/**
 * The names under which a host offers each `[server, name]` entry to a
 * model: deterministic (the same entries give the same names in any order),
 * distinct, and within the chosen LLM API's rules for length and
 * characters. A name two entries would share gets a short hash suffix on
 * both. `McpHost` uses this for its registry. With `prefix: "on-collision"`,
 * a bare name that reads as a server's prefixed one carries its own server's
 * prefix: `servers` names every server of the host, those with no entry now
 * (not listed yet, reconnecting, removed, renamed) included, so none of their
 * names is taken.
 *
 * @throws {McpClientError} `invalid-argument` for a bad entry or option.
 */
export declare function qualifiedNames(entries: ReadonlyArray<readonly [server: string, name: string]>, naming?: HostNaming, servers?: ReadonlyArray<string>): string[];
