
// --- The rest of the core (scripts/split/glue.mjs appends this to the wasm-bindgen glue).
// The core is two wasm modules sharing one memory and one function table
// (scripts/split/split.mjs): the primary, which the entry instantiates, holds what a
// connection and its first tool call run; the rest holds everything else. The entry
// hands over where the rest comes from (__setRestLoader); `loadRest()` fetches it
// ahead of the methods that need it, and `__split.l`, which the primary calls when it
// reaches a function of the rest that is not there yet, loads it synchronously. OAuth is a
// third module, which needs the rest and loads after it in the same ways (`loadOAuth()`,
// `__split.oauth`), so that a page that never authorizes never fetches it.
const SPLIT = __SPLIT__;
let restLoader;
let restPending;
let restReady = !SPLIT;
let oauthLoader;
let oauthPending;
let oauthReady = !SPLIT;

function instantiateRest(module) {
  if (restReady) return;
  if (wasm === undefined) throw new Error("mcp-wasm: the core module is not initialised");
  new WebAssembly.Instance(module, { p: wasm, __split });
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

function instantiateOAuth(module) {
  if (oauthReady) return;
  new WebAssembly.Instance(module, { p: wasm });
  wasm["~ready_oauth"].value = 1;
  oauthReady = true;
}

function loadOAuthNow() {
  loadRestNow();
  if (oauthReady) return;
  if (oauthLoader === undefined) {
    throw new Error("mcp-wasm: the core's OAuth module is not loaded (with mcp-wasm/raw, give initRestSync or initRest its `oauth`)");
  }
  instantiateOAuth(toModule(oauthLoader.sync()));
}

const __split = { l: loadRestNow, oauth: loadOAuthNow };

/**
 * Where the rest of the core and its OAuth module come from: each loader's `sync()` returns
 * the bytes or the compiled module at once; `load()`, if given, resolves with either. Used by
 * the package's entries.
 */
export function __setRestLoader(loader, oauth) {
  restLoader = loader;
  oauthLoader = oauth;
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

/** Resolves once the core's OAuth module (and the rest, which it needs) is instantiated. */
export function loadOAuth() {
  if (oauthReady) return Promise.resolve();
  if (oauthLoader === undefined) return Promise.reject(new Error("mcp-wasm: no loader for the core's OAuth module"));
  oauthPending ??= (async () => {
    const [source] = await Promise.all([(oauthLoader.load ?? oauthLoader.sync)(), loadRest()]);
    instantiateOAuth(await compiled(source));
  })().catch((error) => {
    oauthPending = undefined;
    throw error;
  });
  return oauthPending;
}

/**
 * `mcp-wasm/raw`: instantiates the rest of the core from its bytes or module, after `initSync`,
 * and the OAuth module from `oauth`'s, if given.
 */
export function initRestSync({ module, oauth }) {
  instantiateRest(toModule(module));
  if (oauth !== undefined) instantiateOAuth(toModule(oauth));
}

async function source(input) {
  input = await input;
  if (typeof input === "string" || input instanceof URL || (typeof Request === "function" && input instanceof Request)) input = await fetch(input);
  if (typeof Response === "function" && input instanceof Response) {
    if (!input.ok) throw new Error(`mcp-wasm: fetching ${input.url} failed: ${input.status}`);
    input = await input.arrayBuffer();
  }
  return compiled(input);
}

/**
 * `mcp-wasm/raw`: fetches and instantiates the rest of the core, after `init`: from
 * `module_or_path`, else with the loader an entry handed over, else from
 * `mcp_wasm_rest_bg.wasm` beside the glue; and the OAuth module from `oauth` (`null`: not
 * now), else `mcp_wasm_oauth_bg.wasm` beside the glue.
 */
export async function initRest({ module_or_path, oauth } = {}) {
  const restByEntry = module_or_path === undefined && restLoader !== undefined;
  const oauthByEntry = oauth === undefined && oauthLoader !== undefined;
  const [rest, auth] = await Promise.all([
    restReady || restByEntry ? null : source(module_or_path ?? new URL("mcp_wasm_rest_bg.wasm", import.meta.url)),
    oauthReady || oauthByEntry || oauth === null ? null : source(oauth ?? new URL("mcp_wasm_oauth_bg.wasm", import.meta.url)),
    restByEntry ? loadRest() : null,
  ]);
  if (rest) instantiateRest(rest);
  if (auth) instantiateOAuth(auth);
  if (oauthByEntry) await loadOAuth();
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

/** Whether the core's OAuth module is instantiated (always, for a core that is not split). */
export function __oauthReady() {
  return oauthReady;
}
