
/**
 * Fetches and instantiates the rest of the core now. The core is two modules: what a
 * connection and its first tool call run, which the package loads before handing out its
 * API, and the rest, which it fetches when a method first needs it (and, in a browser, once
 * the first tool call has settled). Resolves at once if the rest is in.
 */
export function loadRest(): Promise<void>;

/**
 * With `mcp-wasm/raw`: instantiates the rest of the core from its bytes or module
 * (`mcp_wasm_rest_bg.wasm`), after `initSync`.
 */
export function initRestSync(module: { module: SyncInitInput }): void;

/**
 * With `mcp-wasm/raw`: fetches and instantiates the rest of the core (by default
 * `mcp_wasm_rest_bg.wasm` beside the glue), after `init`. Through the package's own
 * entries it loads the rest as `loadRest()` does.
 */
export function initRest(module_or_path?: { module_or_path?: InitInput | Promise<InitInput> }): Promise<void>;
