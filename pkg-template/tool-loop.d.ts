// The tool-use loop of a chat host (see runToolLoop).
import type { BridgeToolCall, CallToolRequestParams, CallToolResult, LlmProvider, ProviderToolDefinitions, RequestOptions, Tool } from "./mcp_wasm.js";

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
  /**
   * Runs a call. A client with `toolServer` is given, for a call that `approve` allowed, the `server`
   * it was told of (`null` if none), and must refuse the call if the name now leads elsewhere (as
   * `McpHost.callTool` does).
   */
  callTool(params: CallToolRequestParams & { server?: string | null }, options?: RequestOptions): Promise<CallToolResult>;
  /** The server a tool name leads to, for `approve`'s `ctx.server`: `McpHost` has it, `McpClient` does not. */
  toolServer?(name: string): Promise<string | undefined>;
}

/** What {@link ToolLoopOptions.approve} is told besides the call. */
export interface ToolApprovalContext {
  /** Which model reply asked for the call: 1 for the first. */
  step: number;
  /** The loop's signal: a question to the user should close when it aborts. */
  signal: AbortSignal | undefined;
  /** The server the call would go to, when `client` is an `McpHost` (see `McpHost.toolServer`). */
  server?: string;
}

/** A tool call that {@link ToolLoopOptions.approve} refused: it was never sent. */
export interface RefusedToolCall {
  /** The call, as the bridge parsed it from the model's reply. */
  call: BridgeToolCall;
  /** Which model reply asked for it. */
  step: number;
  /** The server it would have gone to, when `client` is an `McpHost`. */
  server?: string;
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
  /**
   * How many model replies at most, a whole number from 1. Default: 10. Beyond it, an
   * `McpClientError` of kind `max-steps`.
   */
  maxSteps?: number;
  /** Stops the loop, the model call and the tool calls in flight; rejects with its reason. */
  signal?: AbortSignal;
  /**
   * Asked before each tool call the model makes; only a call it answers `true` for is sent. A refused call
   * never reaches the server: the model gets an error result saying the user refused it, and can go on.
   * Within a step the calls are asked about one at a time, in the reply's order, and none runs before all
   * are answered. If it throws or rejects, the loop rejects with that error; an answer that is not a
   * boolean rejects it with an `McpClientError` of kind `invalid-argument`. An abort of `signal` rejects
   * the loop at once, even while an answer is pending. Default: every call runs.
   */
  approve?: (call: BridgeToolCall, context: ToolApprovalContext) => boolean | Promise<boolean>;
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
  /** The calls `approve` refused, in the order they were asked about. */
  refused: RefusedToolCall[];
}

/**
 * Runs the chat host's tool loop: offers the client's tools, runs the calls
 * the model makes (concurrently within a step) once `approve` allows them,
 * feeds the results back in the provider's format, and repeats until the
 * model answers without a tool call. A tool result with `isError` goes back to
 * the model; a call that rejects (a timeout, a lost connection) rejects the
 * loop, and the other calls of its step are aborted.
 */
export declare function runToolLoop(options: ToolLoopOptions): Promise<ToolLoopResult>;
