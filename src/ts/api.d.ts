// ---- mcp-wasm API types (src/ts/api.d.ts) ----

/** A protocol revision this client can negotiate in `initialize`. */
export type SupportedProtocolVersion = "2025-11-25" | "2025-06-18" | "2025-03-26" | "2024-11-05";

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
  /** Default timeout of each request, in milliseconds. Default: 60000. */
  timeout?: number;
  /** The revision to offer in `initialize`. Default: `"2025-11-25"`. */
  protocolVersion?: SupportedProtocolVersion;
  /** Aborts the connection attempt; `connect` then rejects with `signal.reason`. */
  signal?: AbortSignal;
}

/** Options accepted by every request method. */
export interface RequestOptions {
  /**
   * Aborts the request: the client sends `notifications/cancelled` and the
   * promise rejects with `signal.reason`.
   */
  signal?: AbortSignal;
  /** Timeout for this request in milliseconds, overriding the client's default. */
  timeout?: number;
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
  | "invalid-argument";

/** The server answered with a JSON-RPC error. */
export declare class McpError extends globalThis.Error {
  readonly name: "McpError";
  /** The JSON-RPC error code, e.g. -32601 (method not found). */
  readonly code: number;
  /** Extra information from the server. */
  readonly data?: unknown;
}

/** The client could not get an answer: see {@link McpClientErrorKind}. */
export declare class McpClientError extends globalThis.Error {
  readonly name: "McpClientError";
  readonly kind: McpClientErrorKind;
  /** The HTTP status, for kinds `http` and `session-expired`. */
  readonly status?: number;
}
