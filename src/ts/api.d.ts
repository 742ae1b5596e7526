// ---- mcp-wasm API types (src/ts/api.d.ts) ----

/** A protocol revision this client can negotiate in `initialize`. */
export type LegacyProtocolVersion = "2025-11-25" | "2025-06-18" | "2025-03-26" | "2024-11-05";

/** Every protocol revision this client speaks: the legacy ones and 2026-07-28. */
export type SupportedProtocolVersion = LegacyProtocolVersion | "2026-07-28";

/**
 * The protocol era of a connection: `"legacy"` (2024-11-05 to 2025-11-25,
 * with `initialize` and sessions) or `"modern"` (2026-07-28: `server/discover`,
 * `_meta` on every request, no sessions).
 */
export type ProtocolEra = "legacy" | "modern";

/**
 * Caching hints that 2026-07-28 servers put on list and read results (absent
 * from legacy servers): how long the result stays fresh, and whether it may be
 * shared across authorization contexts.
 */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

/** Headers in any form `new Headers(init)` accepts. */
export type McpHeadersInit = globalThis.Headers | Record<string, string> | [string, string][];

/** Options for {@link McpClient.connect}. */
export interface McpClientOptions {
  /** `clientInfo` sent in `initialize`. Default: `{ name: "mcp-wasm", version: <package version> }`. */
  clientInfo?: Implementation;
  /**
   * Extra headers for every HTTP request, e.g. `Authorization`. A function is
   * called before each request, so it can return a fresh token.
   */
  headers?: McpHeadersInit | (() => McpHeadersInit | undefined | Promise<McpHeadersInit | undefined>);
  /** Replaces the global `fetch` for every request the client makes. */
  fetch?: (input: string, init: RequestInit) => Promise<globalThis.Response>;
  /**
   * Default timeout of each request, in milliseconds, at most 2147483647. Default: 60000.
   * The time a person spends on an OAuth consent page (`auth.authorize`) is given back to the
   * requests waiting meanwhile, up to ten minutes past it; `maxTotalTimeout` counts it.
   */
  timeout?: number;
  /**
   * Pins the revision: `"2026-07-28"` pins the modern era, a legacy revision
   * is offered in `initialize` and pins the legacy era. Default: probe, and
   * offer `"2025-11-25"` to a legacy server.
   */
  protocolVersion?: SupportedProtocolVersion;
  /**
   * Which era to speak. `"auto"` (default) probes with `server/discover` and
   * falls back to `initialize` for an older server. Pass a previous
   * `client.era` to skip the probe.
   */
  era?: "auto" | ProtocolEra;
  /** How many rounds of input a 2026-07-28 request may ask for. Default: 10. */
  maxInputRounds?: number;
  /**
   * Keep list and read results for the `ttlMs` a 2026-07-28 server gives,
   * `private` ones only for the same `Authorization`. `true` keeps at most
   * 256 entries and 16 MiB, evicting the least recently used; an object sets
   * other bounds. Default: `false`.
   */
  cache?: boolean | CacheOptions;
  /**
   * Bounds on what a server can make the client do. Everything a server
   * sends is untrusted: past a bound the call (or the server's request)
   * fails at once with an `McpClientError` of kind `limit-exceeded`, and the
   * client stays usable. The defaults are far above what real servers need.
   */
  limits?: ClientLimits;
  /** Aborts the connection attempt; `connect` then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /**
   * Functions that answer the server's requests. The client declares the
   * matching capability for each one present (`sampling`, `elicitation`
   * with form and URL modes, `roots` with `listChanged`).
   */
  handlers?: ClientHandlers;
  /** Extra client capabilities, deep-merged over those derived from `handlers` (e.g. `{ sampling: { tools: {} } }`). */
  capabilities?: ClientCapabilities;
  /**
   * Refuse, before sending, a call the server did not declare support for
   * (an `McpClientError` of kind `unsupported`). Default: `true`.
   */
  strictCapabilities?: boolean;
  /**
   * Validate a tool result's `structuredContent` against the tool's
   * `outputSchema` (from the last `listTools`). Default: `true`.
   */
  validateToolOutput?: boolean;
  /**
   * Which transport to use. `"auto"` (default) tries Streamable HTTP and falls
   * back to HTTP+SSE (2024-11-05) only when the server answers 400, 404 or 405.
   * Pass a previous `client.transport` to skip the probe.
   */
  transport?: "auto" | "streamable-http" | "sse";
  /**
   * How to read an HTTP+SSE stream: the platform's `EventSource` (browsers,
   * no custom headers) or `fetch`. Default: `EventSource` in browsers when
   * neither `headers` nor `fetch` is set, else `fetch`.
   */
  sseReader?: "eventsource" | "fetch";
  /**
   * OAuth 2.1 authorization, started by the server's 401: discovery,
   * registration, PKCE, the user's consent through `authorize`, tokens,
   * refresh and step-up all happen inside the client.
   */
  auth?: AuthOptions;
  /**
   * Called with every JSON-RPC message the client sends or receives, the
   * handshake's included, in order, synchronously as it is handed to the
   * transport or delivered by it: for protocol inspectors and debugging.
   * Off unless set; a function that throws is reported as an `error` event.
   */
  trace?: (entry: McpTraceEntry) => void;
  /** Re-list tools, prompts or resources automatically when the server says they changed. */
  listChanged?: {
    tools?: ListChangedOptions<Tool>;
    prompts?: ListChangedOptions<Prompt>;
    resources?: ListChangedOptions<Resource>;
  };
}

/** One message, as {@link McpClientOptions.trace} sees it. */
export interface McpTraceEntry {
  /** `"out"`: to the server; `"in"`: from it. */
  direction: "in" | "out";
  /** The message as compact JSON text (re-serialised from what was decoded, for messages in). */
  json: string;
  /** The UTF-8 length of `json`, in bytes. */
  bytes: number;
  /** The method of a request or notification. */
  method?: string;
  /** The id of a request or response. */
  id?: string | number;
}

/** Bounds of the response cache ({@link McpClientOptions.cache}). */
export interface CacheOptions {
  /** Entries at most. Default: 256. */
  maxEntries?: number;
  /** The entries' total size (as JSON text) at most, in bytes. Default: 16 MiB. */
  maxBytes?: number;
}

/** {@link McpClientOptions.limits}. */
export interface ClientLimits {
  /**
   * The largest JSON body, SSE event or SSE line read from the server, in
   * bytes. A larger body is cancelled at that point; a larger event on a
   * shared stream is skipped, and the request it answers fails. A
   * `listAll…` call's pages together may come to four times this (128 MiB by
   * default); past that it fails with `limit-exceeded`, and an `iterate…`
   * loop, which holds one page at a time, reads on. Default: 33554432 (32 MiB).
   */
  maxMessageBytes?: number;
  /**
   * How many requests from the server (sampling, elicitation, roots, or the
   * inputs of one 2026-07-28 round) are handled at once. Beyond that they are
   * answered with a JSON-RPC error and an `error` event reports it. Default: 16.
   */
  maxServerRequests?: number;
  /**
   * The work budget of one JSON Schema validation (a tool's `outputSchema`,
   * an elicitation's `requestedSchema`), in steps, on top of 16 steps per
   * value of the data checked. Default: 200000.
   */
  validationSteps?: number;
  /** The work budget of matching a URI against one URI template. Default: 100000. */
  templateSteps?: number;
}

/** Auto-refresh of one list after `notifications/…/list_changed`. */
export interface ListChangedOptions<T> {
  /**
   * Called after a change with the fresh list (`autoRefresh`), or with `null`
   * items when `autoRefresh` is off. `error` is set if re-listing failed.
   */
  onChanged: (error: unknown, items: T[] | null) => void;
  /** Re-list before calling `onChanged`. Default: `true`. */
  autoRefresh?: boolean;
  /**
   * Wait this long for a burst of notifications to end. Default: 300 ms. A
   * burst that goes on is refreshed four of these after its first
   * notification; refreshes never overlap, and a change during one brings
   * one more after it.
   */
  debounceMs?: number;
}

/** What a handler learns about the server's request. */
export interface RequestContext {
  /**
   * Aborted when the request this answers ends without the answer: the
   * server cancels it, the client closes, or (for the input of a 2026-07-28
   * request) the caller's call is aborted or times out. The answer is then
   * not sent. Until the handler settles, the request still counts against
   * `limits.maxServerRequests`: pass the signal on (to `fetch`, a dialog) so
   * that it settles soon.
   */
  readonly signal: AbortSignal;
  /** The server's JSON-RPC id for the request. */
  readonly requestId: string | number;
}

/**
 * Answers to the server's requests. Each may return the answer or a Promise of
 * it. A thrown error becomes a JSON-RPC error: its `code` if that is a safe
 * integer, else -32603; its `message`; its `data`, if any.
 */
export interface ClientHandlers {
  /** `sampling/createMessage`: ask an LLM, usually after showing the user the request. */
  sampling?(params: CreateMessageRequestParams, ctx: RequestContext): CreateMessageResult | Promise<CreateMessageResult>;
  /**
   * `elicitation/create`: ask the user. For form mode, an `accept` answer's
   * `content` is completed with the schema's defaults and checked against
   * `requestedSchema` before it is sent. For URL mode, open `params.url` only
   * with the user's consent.
   */
  elicitation?(params: ElicitRequestParams, ctx: RequestContext): ElicitResult | Promise<ElicitResult>;
  /** `roots/list`: the roots the user shares. Call `sendRootsListChanged()` when they change. */
  roots?(ctx: RequestContext): Root[] | Promise<Root[]>;
}

/** Options accepted by every request method. */
export interface RequestOptions {
  /**
   * Aborts the request: the client sends `notifications/cancelled` and the
   * promise rejects with `signal.reason`.
   */
  signal?: AbortSignal;
  /**
   * Timeout for this request in milliseconds, overriding the client's
   * default; at most 2147483647 (what `setTimeout` can hold).
   */
  timeout?: number;
  /** Asks the server for progress (the client allocates the token) and receives each update. */
  onprogress?: (progress: ProgressNotificationParams) => void;
  /** Restart the timeout whenever progress arrives. Default: `false`. */
  resetTimeoutOnProgress?: boolean;
  /**
   * A cap on the whole request in milliseconds, however often progress resets the timeout, and
   * (2026-07-28) however many rounds of input and retries it takes, each of which has its own timeout.
   * For a `listAll…` call, all its pages together; for `callToolAsTask`, the whole task.
   */
  maxTotalTimeout?: number;
}

/**
 * `notifications/subscriptions/acknowledged` (2026-07-28): the server's word that a
 * `subscriptions/listen` stream is open, with the part of what the client asked for that it
 * honours. The client waits for it itself, and passes it on as it passes on every notification.
 */
export interface SubscriptionsAcknowledgedNotification {
  jsonrpc: "2.0";
  method: "notifications/subscriptions/acknowledged";
  params: {
    notifications: { toolsListChanged?: boolean; promptsListChanged?: boolean; resourcesListChanged?: boolean; resourceSubscriptions?: string[] };
    _meta?: { [key: string]: unknown };
  };
}

/** What the client delivers as notifications: the server's, in either era. */
export type DeliveredNotification = ServerNotification | SubscriptionsAcknowledgedNotification;

/** The method of a notification the server may send. */
export type ServerNotificationMethod = DeliveredNotification["method"];

/** A server notification as the client delivers it: `method` and `params`. */
export type McpNotification<M extends ServerNotificationMethod = ServerNotificationMethod> = M extends ServerNotificationMethod
  ? Omit<Extract<DeliveredNotification, { method: M }>, "jsonrpc">
  : never;

/** The event for a server notification. */
export declare class McpNotificationEvent<M extends ServerNotificationMethod = ServerNotificationMethod> extends Event {
  /** The notification: `method` and `params`. */
  readonly notification: McpNotification<M>;
  /** The notification's params. */
  readonly params: McpNotification<M>["params"];
}

/** The `error` event: a listener, a callback or a handler's answer went wrong. */
export declare class McpErrorEvent extends Event {
  readonly error: unknown;
}

/** A change in the connection: see {@link McpClientEventMap}. */
export declare class McpConnectionEvent extends Event {
  /** `reconnecting`: which attempt this is, from 1. */
  readonly attempt?: number;
  /** `reconnecting`: how long the client waits before it, in milliseconds. */
  readonly delay?: number;
  /** `sessionrenewed`: the session the server ended. */
  readonly previousSessionId?: string;
  /** `sessionrenewed`: the new session. */
  readonly sessionId?: string;
}

/** The events of an {@link McpClient}, by type. */
export type McpClientEventMap = { [M in ServerNotificationMethod]: McpNotificationEvent<M> } & {
  /** Every notification, whatever its method. */
  notification: McpNotificationEvent;
  /** The client closed: as `close()` begins, before the server answers its request to end the session. */
  close: Event;
  error: McpErrorEvent;
  /** A stream dropped; the client reconnects after `delay` ms. */
  reconnecting: McpConnectionEvent;
  /** The server-to-client stream is back. */
  reconnected: McpConnectionEvent;
  /** The server ended the session; the client started a new one and replayed what failed. */
  sessionrenewed: McpConnectionEvent;
};

/** A listener for event type `K`: a function, or an object with `handleEvent`. */
export type McpClientListener<K extends keyof McpClientEventMap> =
  | ((event: McpClientEventMap[K]) => void)
  | { handleEvent(event: McpClientEventMap[K]): void };

/** Which notifications {@link McpClient.notifications} yields. */
export interface NotificationFilter<M extends ServerNotificationMethod> {
  /** Only notifications of this method. */
  method?: M;
  /** Ends the iteration; `next()` then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** How many notifications may wait before the iterator ends with kind `lagged`. Default: 1024. */
  bufferSize?: number;
}

export interface McpClient {
  /**
   * Sends a request the library has no method for (an extension's, a newer
   * revision's) and resolves with its result as the server sent it, typed
   * as `R`. It takes the same options, cancellation and errors as every
   * other call; no capability check is made and the result is not validated.
   */
  request<R = { [key: string]: unknown }>(method: string, params?: { [key: string]: unknown }, options?: RequestOptions): Promise<R>;
  /** Sends a notification the library has no method for. */
  notify(method: string, params?: { [key: string]: unknown }): Promise<void>;
  /**
   * Calls a tool as a task (2025-11-25, experimental) and resolves with its
   * final result: the client polls `tasks/get` (at the server's
   * `pollInterval`, at most a minute, or `options.pollInterval`), reports
   * each status to `options.ontaskstatus`, and fetches `tasks/result` at the
   * end, answering any input the task asks for with the client's handlers.
   * The result is checked as {@link McpClient.callTool} checks one (its
   * `structuredContent` against the tool's listed `outputSchema`). A server
   * that runs the call at once instead answers with its result, which is
   * returned; with a server that declares `tasks.requests.tools.call`, a
   * tool that the last whole listing of the tools ({@link McpClient.listAllTools},
   * an {@link McpClient.iterateTools} walked to its last page, or a
   * {@link McpClient.listTools} of one page; not one during which another
   * began or the server said its tools changed) did not declare a task tool
   * of (`execution.taskSupport` absent or `"forbidden"`) is called plainly,
   * as {@link McpClient.callTool} calls it, since its server refuses it as a
   * task (after `notifications/tools/list_changed`, only until the tools are
   * listed again does an unlisted tool count so). `options.onprogress` hears the task's progress for its whole
   * life, under the `tools/call`'s progress token.
   * `timeout` applies to each request, `maxTotalTimeout` to the whole call,
   * its polls and the waits between them; a `tasks/result` that waits past
   * `timeout` for an `input_required` task gives way to polling again. A call
   * that fails while its task runs (`options.signal` aborted, a timeout, the
   * cap, a broken answer) sends `tasks/cancel`, since nothing follows the
   * task any more, and rejects with the signal's reason or the error. The
   * task methods are plain JS that the package's entries add, loaded the
   * first time a page uses one; `mcp-wasm/raw` has none of them.
   */
  callToolAsTask(params: CallToolRequestParams, options?: TaskCallOptions): Promise<CallToolResult>;
  /** `tasks/get`: a task's current state. */
  getTask(params: { taskId: string }, options?: RequestOptions): Promise<GetTaskResult>;
  /** `tasks/result`: waits for a task to end and returns its result. */
  getTaskResult(params: { taskId: string }, options?: RequestOptions): Promise<CallToolResult>;
  /** `tasks/cancel`: asks the server to cancel a task. */
  cancelTask(params: { taskId: string }, options?: RequestOptions): Promise<CancelTaskResult>;
  /** `tasks/list`: one page of the tasks the server keeps for this client. */
  listTasks(params?: PaginatedRequestParams, options?: RequestOptions): Promise<ListTasksResult>;
  /**
   * `await using client = await McpClient.connect(url)` closes the client at
   * the end of its scope, as {@link McpClient.close} does: the server is
   * asked to end the session and whatever is pending is rejected. (The
   * package's entries add it; `mcp-wasm/raw` has `Symbol.dispose` alone,
   * which frees the object without a word to the server.)
   */
  [Symbol.asyncDispose](): Promise<void>;
  /**
   * Adds a listener for a notification method (e.g. `"notifications/message"`),
   * `"notification"` for all of them, `"close"` or `"error"`. `once` and
   * `signal` work as for `EventTarget`. A listener that throws is reported
   * as an `error` event and never breaks the client. After the `close` event
   * the client lets go of its listeners, and ignores new ones.
   */
  addEventListener<K extends keyof McpClientEventMap>(
    type: K,
    listener: McpClientListener<K>,
    options?: boolean | AddEventListenerOptions,
  ): void;
  /** Removes a listener added with `addEventListener`. */
  removeEventListener<K extends keyof McpClientEventMap>(type: K, listener: McpClientListener<K>): void;
  /**
   * An async iterator over the server's notifications, optionally of one
   * method. `break` or `signal` unsubscribes; a consumer that falls more than
   * `bufferSize` behind gets an `McpClientError` of kind `lagged`.
   */
  notifications<M extends ServerNotificationMethod = ServerNotificationMethod>(
    filter?: NotificationFilter<M>,
  ): AsyncIterableIterator<McpNotification<M>>;
}

/** Why a request failed on the client's side. */
export type McpClientErrorKind =
  | "timeout"
  | "closed"
  | "http"
  | "session-expired"
  | "network"
  | "protocol"
  | "unsupported-version"
  | "unsupported"
  | "invalid-result"
  | "lagged"
  | "input-rounds-exceeded"
  | "missing-capability"
  | "auth"
  | "max-steps"
  | "limit-exceeded"
  | "invalid-argument";

/** The server answered with a JSON-RPC error. */
export declare class McpError extends globalThis.Error {
  /** As the client builds one: `code` and `message` from the JSON-RPC error, `data` if it had any. */
  constructor(code: number, message: string, data?: unknown);
  readonly name: "McpError";
  /** The JSON-RPC error code, e.g. -32601 (method not found). */
  readonly code: number;
  /** Extra information from the server. */
  readonly data?: unknown;
}

/** The client could not get an answer: see {@link McpClientErrorKind}. */
export declare class McpClientError extends globalThis.Error {
  /** As the client builds one; a transport or tool source of one's own may build them too. */
  constructor(kind: McpClientErrorKind, message: string, status?: number);
  readonly name: "McpClientError";
  readonly kind: McpClientErrorKind;
  /** The HTTP status, for kinds `http` and `session-expired`. */
  readonly status?: number;
}

/** A file a skill is made of, as `skills/list` describes it (SEP-2640). */
export interface SkillFileRef {
  uri: string;
  /** `"sha256:"` and the lowercase hex SHA-256 of the file's bytes. */
  digest?: string;
  /** The file's size in bytes. */
  size?: number;
  mimeType?: string;
  [key: string]: unknown;
}

/** A skill as `skills/list` gives it: its `SKILL.md` (`uri`), frontmatter and files. */
export interface Skill {
  /** The skill's `SKILL.md`. */
  uri: string;
  /** The `SKILL.md` frontmatter, which the file must match exactly. */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  /** The files the skill is made of. */
  resources?: SkillFileRef[];
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

/** The result of {@link McpClient.listSkills}. */
export interface ListSkillsResult {
  skills: Skill[];
  nextCursor?: string;
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

/** A skill loaded with {@link McpClient.readSkill}, checked against its listing. */
export interface LoadedSkill {
  skill: Skill;
  /** The whole `SKILL.md`. */
  text: string;
  /** Its frontmatter, read from the file. */
  frontmatter: { [key: string]: unknown };
  /** What follows the frontmatter. */
  body: string;
}

/** A value for one variable of a {@link UriTemplate}. */
export type UriTemplateValue =
  | string
  | number
  | boolean
  | ReadonlyArray<string | number | boolean>
  | Readonly<Record<string, string | number | boolean>>
  | null
  | undefined;

/** The variables to expand a {@link UriTemplate} with. */
export type UriTemplateVariables = Readonly<Record<string, UriTemplateValue>>;

/** Options of {@link McpClient.callToolAsTask}. */
export interface TaskCallOptions extends RequestOptions {
  /** How long the server should keep the task, in milliseconds. */
  ttl?: number;
  /** Poll this often (milliseconds), overriding the server's `pollInterval`. */
  pollInterval?: number;
  /** Called with the task on creation and after every poll. */
  ontaskstatus?: (task: Task) => void;
}

/**
 * A transport written in JS, passed to {@link McpClient.connect} instead of a
 * URL: a Web Worker, an iframe's `postMessage`, a `MessageChannel`, a
 * WebSocket. The same shape as the TypeScript SDK's `Transport`. The client
 * assigns `onmessage`, `onclose` and `onerror`, then calls `start()`.
 */
export interface McpTransport {
  /** Starts delivering messages to `onmessage`. */
  start?(): void | Promise<void>;
  /** Sends one JSON-RPC message to the server. */
  send(message: JSONRPCMessage): void | Promise<void>;
  /** Closes the connection. The client's `close()` waits for it for at most 5 s. */
  close?(): void | Promise<void>;
  /** Set by the client: call it with each message from the server. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Set by the client: call it when the connection ends. */
  onclose?: () => void;
  /** Set by the client. */
  onerror?: (error: unknown) => void;
}

/** OAuth settings for {@link McpClientOptions.auth}. */
/** What {@link AuthOptions.authorize} is told besides the URL. */
export interface AuthorizeContext {
  /** Aborts once nobody waits for the answer any more. */
  signal: AbortSignal;
}

export interface AuthOptions {
  /**
   * `"authorization_code"` (default; a user consents), `"client_credentials"`
   * (a machine client), or `"cross_app_access"` (enterprise-managed, SEP-990:
   * the user's ID token from `identity` is exchanged at the IdP for an ID-JAG,
   * then at the MCP server's authorization server for an access token), or
   * `"jwt_bearer"` (workload identity, SEP-1933: the JWT from `assertion` is
   * the grant, RFC 7523; no registration).
   */
  grant?: "authorization_code" | "client_credentials" | "cross_app_access" | "jwt_bearer";
  /** The enterprise identity provider, for `grant: "cross_app_access"`. */
  identity?: EnterpriseIdentity;
  /** A pre-registered client id. Without one, a Client ID Metadata Document or dynamic registration is used. */
  clientId?: string;
  /** The pre-registered client's secret, for confidential clients. */
  clientSecret?: string;
  /**
   * The authorization server (its issuer URL) that `clientId` and
   * `clientSecret` belong to. If the MCP server names another one, the
   * client fails with kind `auth` before sending any credential. Without it,
   * they belong to the first authorization server the client meets, and
   * another one gets a registration of its own.
   */
  issuer?: string;
  /**
   * For `grant: "jwt_bearer"`: the JWT assertion, or a function returning it
   * (or a Promise of it), called for each token request, so that a Worker
   * can fetch a fresh one from its platform.
   */
  assertion?: string | (() => string | Promise<string>);
  /** An HTTPS URL of this client's Client ID Metadata Document, used as its id where the server supports it. */
  clientMetadataUrl?: string;
  /** `client_name` for dynamic registration. Default: `"mcp-wasm"`. */
  clientName?: string;
  /** Where the authorization server sends the user back: HTTPS, or http on localhost. */
  redirectUri?: string;
  /** Scopes to ask for instead of those the server asks for. */
  scope?: string;
  /** How a confidential client authenticates at the token endpoint. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
  /**
   * A PKCS#8 PEM private key: with `grant: "client_credentials"`, the client
   * authenticates with a signed JWT assertion (`private_key_jwt`, RFC 7523).
   */
  privateKey?: string;
  /** The assertion's algorithm. Default: `"ES256"`. */
  signingAlgorithm?: "ES256" | "RS256";
  /**
   * Shows the user the authorization URL and resolves with the URL the
   * server redirected back to (it carries `code`, `state` and `iss`).
   * `context.signal` aborts once nobody waits for the answer (`connect()`
   * aborted or timed out, the client closed): close what was opened then.
   * The time it waits is given back to the `timeout` of the requests waiting
   * meanwhile, up to ten minutes past it.
   */
  authorize?: (authorizationUrl: string, context: AuthorizeContext) => string | Promise<string>;
  /**
   * Where registrations, tokens and a pending authorization are kept, by
   * server and by authorization server (issuer): any object with `getItem`,
   * `setItem` and `removeItem` (sync or async), such as `sessionStorage`, or
   * `"memory"` (or `null`) to keep them in memory only. Default:
   * `sessionStorage` where there is one, else memory only.
   */
  storage?: AuthStorage | "memory" | null;
  /** On the callback page of a redirect flow: the URL it was loaded with, to finish the authorization. */
  callbackUrl?: string;
  /**
   * Bind tokens to a key the client holds (DPoP, RFC 9449): a non-extractable
   * WebCrypto ES256 key pair signs a fresh proof for every token request and,
   * when the authorization server issues DPoP tokens, for every request to
   * the MCP server (`Authorization: DPoP …` with `ath`, `htm`, `htu`, `iat`
   * and a unique `jti`). A `DPoP-Nonce` either server asks for is used, with
   * one retry each. The key is kept where `storage` keeps tokens: in
   * IndexedDB when they persist, in memory otherwise. Default: `false`.
   */
  dpop?: boolean;
  /**
   * For authorization servers that do not allow this page's origin (CORS):
   * discovery, registration and token requests go through this proxy, either
   * a prefix the encoded URL is appended to (`"https://proxy.example/?url="`)
   * or a function returning the URL to fetch. The MCP server and the consent
   * page are never proxied.
   */
  corsProxy?: string | ((url: string) => string);
}

/** The enterprise IdP side of cross-app access (SEP-990). */
export interface EnterpriseIdentity {
  /** The user's ID token, issued by the IdP. */
  idToken: string;
  /** The IdP's token endpoint, which exchanges the ID token for an ID-JAG (RFC 8693). */
  tokenEndpoint: string;
  /** This client's id at the IdP. */
  clientId?: string;
}

/** Storage for {@link AuthOptions.storage}: the Web Storage shape, sync or async. */
export interface AuthStorage {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

/** The LLM APIs {@link ToolBridge} speaks. */
export type LlmProvider = "openai-chat" | "openai-responses" | "anthropic" | "gemini";

/** OpenAI Chat Completions: an entry of `tools`. */
export interface OpenAiChatTool {
  type: "function";
  function: { name: string; description: string; parameters: Tool["inputSchema"] };
}
/** OpenAI Responses: a function entry of `tools`. */
export interface OpenAiResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: Tool["inputSchema"];
  strict: false;
}
/** Anthropic Messages: an entry of `tools`. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Tool["inputSchema"];
}
/** Gemini: the entry of `tools` that declares functions. */
export interface GeminiTool {
  functionDeclarations: { name: string; description: string; parametersJsonSchema: Tool["inputSchema"] }[];
}
/** What {@link ToolBridge.definitions} holds, by provider. */
export type ProviderToolDefinitions = OpenAiChatTool[] | OpenAiResponsesTool[] | AnthropicTool[] | GeminiTool[];

/** A tool call from a model reply, in MCP terms. */
export interface BridgeToolCall {
  /** The provider's call id (`null` where the provider has none, as Gemini may). */
  id: string | null;
  /** The MCP tool name, for `callTool`. */
  name: string;
  /** The name the model used (differs when the MCP name had to be rewritten). */
  offeredName: string;
  /** The arguments object, for `callTool`. */
  arguments: { [key: string]: unknown };
}

/** OpenAI Chat Completions: the `role: "tool"` message. */
export interface OpenAiChatToolMessage {
  role: "tool";
  tool_call_id: string | null;
  content: string;
}
/** OpenAI Responses: the `function_call_output` input item. */
export interface OpenAiResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string | null;
  output: ({ type: "input_text"; text: string } | { type: "input_image"; image_url: string })[];
}
/** Anthropic Messages: the user message carrying the `tool_result` block. */
export interface AnthropicToolResultMessage {
  role: "user";
  content: {
    type: "tool_result";
    tool_use_id: string | null;
    content: ({ type: "text"; text: string } | { type: "image"; source: { type: "base64"; media_type: string; data: string } })[];
    is_error?: true;
  }[];
}
/** Gemini: the user content carrying the `functionResponse` part. */
export interface GeminiFunctionResponseMessage {
  role: "user";
  parts: {
    functionResponse: {
      name: string;
      id?: string;
      response: { output?: string; error?: string; structuredContent?: { [key: string]: unknown } };
    };
  }[];
}
/** What {@link ToolBridge.toolResultMessage} returns, by provider. */
export type ProviderToolResult =
  | OpenAiChatToolMessage
  | OpenAiResponsesFunctionCallOutput
  | AnthropicToolResultMessage
  | GeminiFunctionResponseMessage;

/**
 * A connection at rest, from {@link McpClient.snapshot}: plain JSON to keep in
 * KV, a Durable Object or `sessionStorage` and pass to {@link McpClient.resume}.
 * It holds no credentials or headers (give those to `resume` again), nor the
 * server's `instructions`, which can run to kilobytes: keep them yourself if needed.
 */
export interface McpSnapshot {
  /** The snapshot format; this release writes and reads `1`. */
  format: 1;
  /** The MCP endpoint. */
  url: string;
  era: ProtocolEra;
  transport: "streamable-http" | "sse";
  protocolVersion: SupportedProtocolVersion;
  /** The `Mcp-Session-Id` (legacy era, stateful servers). */
  sessionId?: string;
  /** Where the GET stream left off; it resumes from here. */
  lastEventId?: string;
  serverCapabilities: ServerCapabilities;
  serverInfo: Implementation;
  /**
   * The level given to {@link McpClient.setLoggingLevel}, if any. The modern era sends it with
   * every request; a legacy session that the server renews is told it again.
   */
  logLevel?: LoggingLevel;
  /**
   * The resources subscribed to, sorted. The modern era listens for them again; a legacy session
   * that the server renews is subscribed to them again.
   */
  subscriptions?: string[];
}

/** How a host names the tools and prompts of several servers for a model. */
export interface HostNaming {
  /** Whose name rules to fit. Default `"portable"`: letters, digits, `_` and `-`, a letter or `_` first, at most 64 characters, which every API accepts. */
  rules?: "portable" | "openai" | "anthropic" | "gemini";
  /** Between the server's name and the tool's. Default `"__"`. */
  separator?: string;
  /** `"always"` (default): every name carries its server's name; `"on-collision"`: only names that several servers use. */
  prefix?: "always" | "on-collision";
}

/**
 * How `setPartLoaders` (in `mcp-wasm/raw`) loads the parts the core fetches on first use. Each
 * returns a Promise of that part's module; a part without a loader is left out.
 */
export interface PartLoaders {
  /** `import("mcp-wasm/quick-check.js")`: the JSON Schema check that accepts the plain cases in JS, before the validator's module. */
  quickCheck?: (() => Promise<unknown>) | undefined;
  /** `import("mcp-wasm/dpop.js")`: DPoP's key pairs (`auth.dpop`). */
  dpop?: (() => Promise<unknown>) | undefined;
}
