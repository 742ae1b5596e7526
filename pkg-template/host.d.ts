// McpHost: several MCP servers behind one registry (see docs/hosts-and-bridges.md).
import type {
  CallToolRequestParams, CallToolResult, GetPromptRequestParams, GetPromptResult, HostNaming, Implementation,
  McpClient, McpClientOptions, McpSnapshot, McpTraceEntry, McpTransport, ProtocolEra, Prompt, ReadResourceResult, RequestOptions,
  Resource, ResourceTemplate, SupportedProtocolVersion, Tool, CreateMessageRequestParams, CreateMessageResult,
  ElicitRequestParams, ElicitResult, RequestContext, Root, CacheHints, CompleteRequestParams, CompleteResult,
} from "./mcp_wasm.js";

/** A JSON object. */
type JsonObject = { [key: string]: unknown };

/** What a host's shared handlers are told besides the client's context: which server asked. */
export interface HostHandlerContext extends RequestContext {
  /** The name the server was added under. */
  server: string;
}

/** Sampling, elicitation and roots handlers shared by every server of a host. */
export interface HostHandlers {
  sampling?(params: CreateMessageRequestParams, context: HostHandlerContext): CreateMessageResult | Promise<CreateMessageResult>;
  elicitation?(params: ElicitRequestParams, context: HostHandlerContext): ElicitResult | Promise<ElicitResult>;
  roots?(context: HostHandlerContext): Root[] | Promise<Root[]>;
}

/** One server's options: those of `McpClient.connect` (headers, auth, its own handlers, timeouts). */
export type HostServerOptions = McpClientOptions;

/** Options of {@link McpHost}. */
export interface McpHostOptions {
  /** How tools and prompts are named in the registry. Default: `server__name`, portable to every LLM API. */
  naming?: HostNaming;
  /** Handlers every server shares; a server's own `handlers` take precedence. */
  handlers?: HostHandlers;
  /** Defaults for every server's client options, under each server's own. */
  clientOptions?: McpClientOptions;
  /**
   * How long a burst of `list_changed` notifications is waited out before re-listing. Default
   * 100 ms. A burst that goes on is re-listed four such periods (and at least 250 ms) after
   * its first notification, and again after as long, so that a server that never stops
   * announcing changes cannot hold the registry back.
   */
  debounceMs?: number;
  /**
   * How long a re-listing of one kind may take, all its pages together, in milliseconds. Default:
   * the client's `timeout`. It bounds what `ready()`, and so a read routed by the registry, waits
   * for when a server pages its lists slowly.
   */
  listTimeout?: number;
  /**
   * Called with every JSON-RPC message of every server, in and out, with the server's name (see
   * `McpClientOptions.trace`). Off unless set; a server's own `trace` option still runs too.
   */
  trace?: (entry: HostTraceEntry) => void;
}

/** A message of one of a host's servers, as {@link McpHostOptions.trace} sees it. */
export interface HostTraceEntry extends McpTraceEntry {
  /** The server's name when the message passed. */
  server: string;
}

/** A server's connection state, as {@link McpHost.servers} reports it. */
export interface HostServerState {
  name: string;
  url: string;
  /** `connecting`, `connected`, `failed` (see `error`; other servers are unaffected), or `closed` once removed. */
  status: "connecting" | "connected" | "failed" | "closed";
  /** Why the server failed: an `McpClientError` or `McpError`. */
  error?: Error;
  era?: ProtocolEra;
  transport?: "streamable-http" | "sse" | "custom";
  protocolVersion?: SupportedProtocolVersion;
  sessionId?: string;
  serverInfo?: Implementation;
}

/** A tool in the registry: the server's tool under its qualified `name`. */
export interface HostTool extends Tool {
  /** The server that offers it. */
  server: string;
  /** Its name on that server. */
  serverName: string;
}

/** A prompt in the registry, under its qualified `name`. */
export interface HostPrompt extends Prompt {
  server: string;
  serverName: string;
}

/** A resource in the registry, with the server that listed it. */
export interface HostResource extends Resource {
  server: string;
}

/** A resource template in the registry, with the server that listed it. */
export interface HostResourceTemplate extends ResourceTemplate {
  server: string;
}

/** A resource request: the URI, and the server when several offer it. */
export interface HostResourceParams {
  uri: string;
  /**
   * Which server to ask. Default: the one that listed `uri`, or whose template
   * matches it. Routing by templates tries each server's first 256, within a
   * step budget per server for the read (a server's templates are its own to
   * make slow): past it the read fails with `limit-exceeded`, and naming the
   * server skips the routing.
   */
  server?: string;
  _meta?: JsonObject;
}

/** A saved host, from {@link McpHost.snapshot}: plain JSON. */
export interface McpHostSnapshot {
  format: 1;
  /** Each server: its connection's snapshot, or only its URL if it was not connected. */
  servers: Array<{ name: string; snapshot: McpSnapshot } | { name: string; url: string }>;
}

/** Options of {@link McpHost.resume}: the host's options, and each server's by name (headers, auth are not in the snapshot). */
export interface McpHostResumeOptions extends McpHostOptions {
  servers?: Record<string, HostServerOptions>;
}

/** The events of {@link McpHost}. */
export interface McpHostEventMap {
  /**
   * The registry changed: a server connected, re-listed after `list_changed` or a reconnect, disconnected,
   * was removed, or was renamed (`server` is the new name, `previous` the old one).
   */
  change: McpHostEvent & {
    server: string;
    reason: "connected" | "list_changed" | "sessionrenewed" | "reconnected" | "disconnected" | "removed" | "renamed";
    lists?: Array<"tools" | "prompts" | "resources" | "resourceTemplates">;
    previous?: string;
  };
  /** A server's status changed. */
  status: McpHostEvent & { server: string; status: HostServerState["status"]; error?: Error };
  /** A server's notification. */
  notification: McpHostEvent & { server: string; notification: { method: string; params?: JsonObject } };
  /** Something went wrong outside any call: a failed re-listing, a listener that threw. */
  error: McpHostEvent & { server?: string; error: unknown };
}

/** An event of {@link McpHost}. */
export declare class McpHostEvent extends Event {
  /** The server the event concerns. */
  readonly server?: string;
}

/**
 * Several MCP servers behind one registry: tools and prompts under
 * collision-free names that every LLM API accepts, resources and templates
 * with the server that offers them, calls routed to the owning server. A
 * server that fails to connect does not affect the others; its state and
 * error are in {@link McpHost.servers}.
 *
 * @example
 * ```ts
 * const host = await McpHost.connect({
 *   docs: { url: "https://docs.example/mcp" },
 *   tracker: { url: "https://tracker.example/mcp", headers: { authorization: "Bearer …" } },
 * });
 * const tools = await host.listAllTools();          // docs__search, tracker__create_issue, …
 * const result = await host.callTool("docs__search", { query: "mcp" });
 * ```
 */
export declare class McpHost implements AsyncDisposable {
  constructor(options?: McpHostOptions);
  /** A host with `servers` (name → URL and options), connected concurrently; resolves when each has connected or failed. */
  static connect(servers: Record<string, HostServerOptions & { url: string | URL | McpTransport }>, options?: McpHostOptions): Promise<McpHost>;
  /**
   * Continues a host saved with {@link McpHost.snapshot} or {@link McpHost.suspend}: each session is taken
   * over without a new `initialize` (see `McpClient.resume`). Lists are fetched when first needed (a call
   * routes through the tool lists only, and goes as soon as one server's list shows its name), so until
   * then the synchronous `tools`, `prompts`, … are empty: use the `listAll…` methods. A server saved while it
   * was not connected connects again without holding the resume: it is `connecting` until it settles, and
   * `ready()` waits for it.
   */
  static resume(snapshot: McpHostSnapshot, options?: McpHostResumeOptions): Promise<McpHost>;
  /**
   * Adds and connects a server; resolves with its state once connected or failed. A URL or an option the
   * client refuses is a failure like any other: the state's `error` says why (kind `invalid-argument`), and
   * `reconnect` or `removeServer` follow. It rejects only for a bad or taken name, a target that is neither
   * a URL nor a transport, or a closed host.
   */
  addServer(name: string, url: string | URL | McpTransport, options?: HostServerOptions): Promise<HostServerState>;
  /** Closes and removes a server; its entries leave the registry. Resolves `false` for an unknown name. */
  removeServer(name: string): Promise<boolean>;
  /**
   * Closes a server's connection and connects it again (for a failed server, say). Its entries leave the
   * registry meanwhile. Rejects with kind `closed` if the server is removed or the host closed meanwhile.
   */
  reconnect(name: string): Promise<HostServerState>;
  /**
   * Gives a server another name, in place: its connection is untouched, its tools and prompts are
   * offered under qualified names built from the new one, and later events, handler contexts and
   * trace entries carry it. A `change` event with reason `renamed` tells. Renaming to the same name
   * does nothing.
   * @throws {McpClientError} `invalid-argument` for an unknown name, a bad new name, or one already taken.
   */
  renameServer(name: string, newName: string): HostServerState;
  /** Every server's state, in the order they were added. */
  servers(): HostServerState[];
  /** The client of a connected server. */
  client(name: string): McpClient | undefined;
  /**
   * Resolves once no connection or re-listing is in progress. Work that a server keeps
   * bringing (a `list_changed` every few milliseconds) is waited for three rounds at most.
   */
  ready(): Promise<void>;
  /** The registry as it is now. */
  readonly tools: HostTool[];
  readonly prompts: HostPrompt[];
  readonly resources: HostResource[];
  readonly resourceTemplates: HostResourceTemplate[];
  /** The registry once connections and re-listings in progress have settled. */
  listAllTools(): Promise<HostTool[]>;
  listAllPrompts(): Promise<HostPrompt[]>;
  listAllResources(): Promise<HostResource[]>;
  listAllResourceTemplates(): Promise<HostResourceTemplate[]>;
  /**
   * Calls a tool by its qualified name on the server that owns it.
   * @throws {McpClientError} `invalid-argument` for a name no connected server offers.
   */
  callTool(name: string, args?: JsonObject, options?: RequestOptions): Promise<CallToolResult>;
  /**
   * As on `McpClient`: `{ name, arguments }` with the qualified name. With `server`, the call is refused
   * (kind `invalid-argument`) unless the name still leads to that server (`null`: to none, so the call is
   * refused): names move when servers come, go or change their lists, and `runToolLoop` pins each call
   * `approve` allowed this way.
   */
  callTool(params: CallToolRequestParams & { server?: string | null }, options?: RequestOptions): Promise<CallToolResult>;
  /**
   * The name of the server that {@link McpHost.callTool} would send a qualified tool name to now, or
   * `undefined` if no connected server offers it. `runToolLoop` tells its `approve` hook this as `ctx.server`.
   */
  toolServer(name: string): Promise<string | undefined>;
  /** Gets a prompt by its qualified name. */
  getPrompt(params: GetPromptRequestParams, options?: RequestOptions): Promise<GetPromptResult>;
  /** Completes an argument: of a prompt by its qualified name, or of a resource template by the server that listed it (`server` settles ambiguity). */
  complete(params: CompleteRequestParams & { server?: string }, options?: RequestOptions): Promise<CompleteResult>;
  /**
   * Reads a resource from the server that listed it, or whose template matches (`server` settles ambiguity:
   * two servers listing it, or one listing it and another's template matching it).
   */
  readResource(params: HostResourceParams, options?: RequestOptions): Promise<ReadResourceResult & CacheHints>;
  subscribeResource(params: HostResourceParams, options?: RequestOptions): Promise<void>;
  unsubscribeResource(params: HostResourceParams, options?: RequestOptions): Promise<void>;
  /**
   * Every server as plain JSON to keep between Worker invocations (no credentials). A server that cannot be
   * saved (a custom transport, one that declared more than a snapshot keeps, one not connected) is kept by
   * name and URL, and connects anew when resumed.
   * @throws {McpClientError} kind `closed` once the host is closed or suspended.
   */
  snapshot(): McpHostSnapshot;
  /** {@link McpHost.snapshot}, then closes locally while leaving the servers' sessions open to resume; every server's status becomes `closed`, and a connection still in progress is dropped. Rejects with kind `closed` once the host is closed or suspended. */
  suspend(): Promise<McpHostSnapshot>;
  /** Closes every server. Safe to call more than once. Once it (or {@link McpHost.suspend}) resolves, the host lets go of its listeners and takes no new ones. */
  close(): Promise<void>;
  /** Adds a listener; `signal` removes it when aborted. Ignored once the host has closed. */
  addEventListener<K extends keyof McpHostEventMap>(type: K, listener: (event: McpHostEventMap[K]) => void, options?: { once?: boolean; signal?: AbortSignal }): void;
  removeEventListener<K extends keyof McpHostEventMap>(type: K, listener: (event: McpHostEventMap[K]) => void): void;
  [Symbol.asyncDispose](): Promise<void>;
}
