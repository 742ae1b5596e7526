
// --- The rest of the core (scripts/split/glue.mjs appends this to the wasm-bindgen glue).
// The core is two wasm modules sharing one memory and one function table
// (scripts/split/split.mjs): the primary, which the entry instantiates, holds what a
// connection and its first tool call run; the rest holds everything else. The entry
// hands over where the rest comes from (__setRestLoader); `loadRest()` fetches it
// ahead of the methods that need it, and `__split.l`, which the primary calls when it
// reaches a function of the rest that is not there yet, loads it synchronously.
const SPLIT = __SPLIT__;
let restLoader;
let restPending;
let restReady = !SPLIT;

function instantiateRest(module) {
  if (restReady) return;
  if (wasm === undefined) throw new Error("mcp-wasm: the core module is not initialised");
  new WebAssembly.Instance(module, { p: wasm });
  wasm["~ready"].value = 1;
  restReady = true;
}

const toModule = (source) => (source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source));
const compiled = async (source) => (source instanceof WebAssembly.Module ? source : WebAssembly.compile(source));

function loadRestNow() {
  if (restReady) return;
  if (restLoader === undefined) {
    throw new Error("mcp-wasm: the rest of the core module is not loaded (with mcp-wasm/raw, call initRestSync or initRest after initialising)");
  }
  instantiateRest(toModule(restLoader.sync()));
}

const __split = { l: loadRestNow };

/**
 * Where the rest of the core comes from: `sync()` returns its bytes or its compiled
 * module at once; `load()`, if given, resolves with either. Used by the package's entries.
 */
export function __setRestLoader(loader) {
  restLoader = loader;
}

/** Resolves once the rest of the core is instantiated; fetches it once, however many call. */
export function loadRest() {
  if (restReady) return Promise.resolve();
  if (restLoader === undefined) return Promise.reject(new Error("mcp-wasm: no loader for the rest of the core module"));
  restPending ??= (async () => {
    const source = await (restLoader.load ?? restLoader.sync)();
    instantiateRest(await compiled(source));
  })().catch((error) => {
    restPending = undefined;
    throw error;
  });
  return restPending;
}

/** `mcp-wasm/raw`: instantiates the rest of the core from its bytes or module, after `initSync`. */
export function initRestSync({ module }) {
  instantiateRest(toModule(module));
}

/**
 * `mcp-wasm/raw`: fetches and instantiates the rest of the core, after `init`: from
 * `module_or_path`, else with the loader an entry handed over, else from
 * `mcp_wasm_rest_bg.wasm` beside the glue.
 */
export async function initRest({ module_or_path } = {}) {
  if (restReady) return;
  if (module_or_path === undefined && restLoader !== undefined) return loadRest();
  let input = await (module_or_path ?? new URL("mcp_wasm_rest_bg.wasm", import.meta.url));
  if (typeof input === "string" || input instanceof URL || (typeof Request === "function" && input instanceof Request)) input = await fetch(input);
  if (typeof Response === "function" && input instanceof Response) {
    if (!input.ok) throw new Error(`mcp-wasm: fetching ${input.url} failed: ${input.status}`);
    input = await input.arrayBuffer();
  }
  instantiateRest(await compiled(input));
}

// A long body waits for the rest before it reaches the core (`setRestGate` in src/glue.js): the
// gate resolves with the load's failure, if any, and never rejects.
if (SPLIT) {
  __setRestGate(() => (restReady ? undefined : loadRest().then(
    () => undefined,
    (error) => new Error(`the rest of the core module could not be loaded: ${error?.message ?? error}`),
  )));
}

/** Whether the rest of the core is instantiated (always, for a core that is not split). */
export function __restReady() {
  return restReady;
}
