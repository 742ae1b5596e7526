// The tool-use loop of a chat host (see runToolLoop).
import type { CallToolRequestParams, CallToolResult, LlmProvider, ProviderToolDefinitions, RequestOptions, Tool } from "./mcp_wasm.js";

/** What {@link runToolLoop} hands to the model each step. */
export interface ToolLoopRequest {
  /** The tools, in the provider's format. */
  tools: ProviderToolDefinitions;
  /** The transcript so far, in the provider's format: what to send as messages (or `input`, or `contents`). */
  messages: unknown[];
  /** The loop's signal, for the model call. */
  signal: AbortSignal | undefined;
}

/** What the loop needs of a client: `McpClient` and `McpHost` both fit. */
export interface ToolSource {
  listAllTools(options?: RequestOptions): Promise<Tool[]>;
  callTool(params: CallToolRequestParams, options?: RequestOptions): Promise<CallToolResult>;
}

/** Options of {@link runToolLoop}. */
export interface ToolLoopOptions {
  /** Whose tools are offered and called: an `McpClient`, or an `McpHost` for all of its servers' tools. */
  client: ToolSource;
  /** The LLM API the `ask` function talks to. */
  provider: LlmProvider;
  /** Sends one request to the model and resolves with its reply, as the API returned it. */
  ask: (request: ToolLoopRequest) => Promise<object>;
  /** The conversation so far, in the provider's format. Not modified. */
  messages?: unknown[];
  /** The tools to offer. Default: all of the client's tools. */
  tools?: Tool[];
  /** How many model replies at most. Default: 10. Beyond it, an `McpClientError` of kind `max-steps`. */
  maxSteps?: number;
  /** Stops the loop, the model call and the tool calls in flight; rejects with its reason. */
  signal?: AbortSignal;
}

/** How {@link runToolLoop} ended: the model answered without calling a tool. */
export interface ToolLoopResult {
  /** The model's final reply, as the API returned it. */
  reply: object;
  /** The transcript before that reply, tool calls and results included. */
  messages: unknown[];
  /** How many model replies it took. */
  steps: number;
  /** What the bridge had to adjust (see `ToolBridge.notes`). */
  notes: string[];
}

/**
 * Runs the chat host's tool loop: offers the client's tools, runs the calls
 * the model makes (concurrently within a step), feeds the results back in the
 * provider's format, and repeats until the model answers without a tool call.
 */
export declare function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult>;
