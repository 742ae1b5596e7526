
/**
 * Fetches and instantiates the rest of the core now. The core is two modules: what a
 * connection and its first tool call run, which the package loads before handing out its
 * API, and the rest, which it fetches when a method first needs it (and, in a browser, once
 * the first tool call has settled). Resolves at once if the rest is in.
 */
export function loadRest(): Promise<void>;

/**
 * Fetches and instantiates the core's OAuth module now, and the rest first if it is not in.
 * A connection with `auth` does this before it starts; a page that never authorizes never
 * fetches it. Resolves at once if it is in.
 */
export function loadOAuth(): Promise<void>;

/**
 * With `mcp-wasm/raw`: instantiates the rest of the core from its bytes or module
 * (`mcp_wasm_rest_bg.wasm`), after `initSync`; the OAuth module from `oauth`'s
 * (`mcp_wasm_oauth_bg.wasm`), if given: without it, `auth` cannot be used; and the
 * validator's from `validator`'s (`mcp_wasm_validator_bg.wasm`), if given: without it, the
 * first check the quick check cannot decide (a `structuredContent` against its
 * `outputSchema`, an elicitation answer, a skill's files) fetches it from beside the glue,
 * and fails with `network` where it cannot (Node, whose `fetch` reads no `file:` URL).
 */
export function initRestSync(module: { module: SyncInitInput; oauth?: SyncInitInput | null; validator?: SyncInitInput | null }): void;

/**
 * With `mcp-wasm/raw`: fetches and instantiates the rest of the core (by default
 * `mcp_wasm_rest_bg.wasm` beside the glue) and its OAuth module (by default
 * `mcp_wasm_oauth_bg.wasm` beside the glue; `oauth: null` leaves it out), after `init`; and
 * its validator's from `validator`, if given: else the first check that needs it fetches
 * `mcp_wasm_validator_bg.wasm` from beside the glue.
 * Through the package's own entries it loads them as `loadRest()` and `loadOAuth()` do.
 */
export function initRest(module_or_path?: {
  module_or_path?: InitInput | Promise<InitInput>;
  oauth?: InitInput | Promise<InitInput> | null;
  validator?: InitInput | Promise<InitInput> | null;
}): Promise<void>;
