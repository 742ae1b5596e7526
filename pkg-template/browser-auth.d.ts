// Browser helpers for the OAuth authorization-code flow (see AuthOptions).
import type { AuthorizeContext, McpClient, McpClientOptions } from "./mcp_wasm.js";

/** Where and how {@link popupAuthorizer} opens its window (the arguments of `window.open`). */
export interface PopupOptions {
  /** The window name. Default: `"mcp-wasm-oauth"`. */
  name?: string;
  /** The `window.open` features. Default: `"popup,width=520,height=680"`. */
  features?: string;
  /**
   * How long, in milliseconds, a popup that reads as closed is still waited
   * on for its answer before `connect` rejects with kind `auth`. Default:
   * `120000`; `Infinity` waits for the answer or `connect`'s signal alone. An
   * authorization page sent with a `Cross-Origin-Opener-Policy` (as many
   * identity providers' are) cuts the popup off from the page that opened it,
   * and from then on it reads as closed while the user is still signing in
   * there; a window the user closed looks the same. Lower it when no
   * authorization server you use cuts the popup off, so that closing the popup
   * rejects sooner. The answer ends the wait whenever it comes, and so does
   * `connect`'s signal; the time it takes is given back to `connect`'s
   * `timeout` (up to ten minutes past it).
   */
  closedGrace?: number;
}

/**
 * An `authorize` function for `AuthOptions` that opens the consent page in a
 * popup and resolves when the callback page calls {@link completeAuthorization}
 * (by `postMessage` or `BroadcastChannel`). Call `connect` from a user gesture,
 * or the browser may block the popup; a blocked or closed popup rejects
 * `connect` with an `McpClientError` of kind `auth`. Once nobody waits for the
 * answer (`connect()` aborted or timed out), the popup is closed (one cut off
 * by a `Cross-Origin-Opener-Policy` cannot be: its callback page then closes
 * it without trading the code). Only the
 * callback of this flow's own `state` is taken. A consent page sent with a
 * `Cross-Origin-Opener-Policy` cuts the popup off from this page: the answer
 * then comes by `BroadcastChannel`, and a popup that reads as closed is
 * waited on for {@link PopupOptions.closedGrace} before `connect` rejects.
 */
export declare function popupAuthorizer(options?: PopupOptions): (authorizationUrl: string, context?: AuthorizeContext) => Promise<string>;

/**
 * An `authorize` function that sends the whole page to the consent page. The
 * pending authorization waits in `auth.storage`; on the callback page, call
 * `connect` again with `auth.callbackUrl: location.href` to finish. The flow's
 * `state` is noted in the tab's `sessionStorage`, so that
 * {@link completeAuthorization} returns `false` on its callback page even when
 * the tab has an opener.
 */
export declare function redirectAuthorizer(): (authorizationUrl: string) => Promise<string>;

/**
 * For the redirect URI's page in a popup flow: hands the callback URL to the
 * page that opened the popup and closes the popup. Returns whether this page
 * is a popup flow's: it had an opener, or its `state` is one that
 * {@link popupAuthorizer} opened a popup for (a popup cut off from its opener
 * by a `Cross-Origin-Opener-Policy` has none, and answers by
 * `BroadcastChannel`). `false` after a full-page redirect of
 * {@link redirectAuthorizer}'s, even in a tab that another page opened: finish
 * with `callbackUrl`.
 */
export declare function completeAuthorization(): boolean;

/**
 * On the callback page of a full-page redirect flow: trades the code in
 * `callbackUrl` (usually `location.href`) for tokens, with the verifier and
 * state kept in `auth.storage` when the flow started, and connects. The same
 * as `McpClient.connect(target, { ...options, auth: { ...options.auth, callbackUrl } })`.
 */
export declare function finishAuth(target: string | URL, callbackUrl: string | URL, options?: McpClientOptions): Promise<McpClient>;
