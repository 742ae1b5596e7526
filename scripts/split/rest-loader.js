
// --- The rest of the core (scripts/split/glue.mjs appends this to the wasm-bindgen glue).
// The core is two wasm modules sharing one memory and one function table
// (scripts/split/split.mjs): the primary, which the entry instantiates, holds what a
// connection and its first tool call run; the rest holds everything else. The entry
// hands over where the rest comes from (__setRestLoader); `loadRest()` fetches it
// ahead of the methods that need it, and `__split.l`, which the primary calls when it
// reaches a function of the rest that is not there yet, loads it synchronously. OAuth and the
// validator (with the skill checks) are modules of their own, which need the rest and load
// after it in the same ways (`loadOAuth()`, `__split.oauth`; the core's own wait before a
// check, `__split.validator`), so that a page that never authorizes or validates never
// fetches them.
const SPLIT = __SPLIT__;

const toModule = (source) => (source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source));
const compiled = async (source) => (source instanceof WebAssembly.Module ? source : WebAssembly.compile(source));

// One module of the core past the primary: `file`, which sets the primary's global `ready` once
// in, and needs the module `needs` (if any) in first. With `option` (its name in `initRest` and
// `initRestSync`), a module no loader was given for is fetched from beside the glue when first
// needed (`mcp-wasm/raw` in a browser).
function part(ready, file, needs, option) {
  let loader;
  let pending;
  let done = !SPLIT;
  const missing = () => new Error(`mcp-wasm: ${file} is not loaded (with mcp-wasm/raw, call initRestSync or initRest after initialising)`);
  const instantiate = (module) => {
    if (done) return;
    if (wasm === undefined) throw new Error("mcp-wasm: the core module is not initialised");
    // The part calls the rest's functions at their slots: without the rest they trap.
    if (needs && !needs.ready()) throw new Error(`mcp-wasm: ${file} needs the rest of the core first`);
    new WebAssembly.Instance(module, { p: wasm, __split });
    wasm[ready].value = 1;
    done = true;
  };
  return {
    instantiate,
    // `undefined` leaves the loader as it was; `null` removes it.
    set: (given) => { if (given !== undefined) loader = given ?? undefined; },
    given: () => loader !== undefined,
    ready: () => done,
    // What the primary's stubs call: synchronously, from the entry's loader.
    now() {
      needs?.now();
      if (done) return;
      if (loader === undefined) throw missing();
      instantiate(toModule(loader.sync()));
    },
    load() {
      if (done) return Promise.resolve();
      if (loader === undefined && !option) return Promise.reject(missing());
      pending ??= (async () => {
        const fetchBeside = () => source(new URL(file, import.meta.url)).catch((error) => {
          throw new Error(`mcp-wasm: ${file} could not be fetched from beside the glue (with mcp-wasm/raw, give it to initRestSync or initRest as \`${option}\`): ${error?.message ?? error}`);
        });
        const [module] = await Promise.all([loader ? (loader.load ?? loader.sync)() : fetchBeside(), needs?.load()]);
        instantiate(await compiled(module));
      })().catch((error) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
  };
}
const rest = part("~ready", "mcp_wasm_rest_bg.wasm");
const oauth = part("~ready_oauth", "mcp_wasm_oauth_bg.wasm", rest);
const validator = part("~ready_validator", "mcp_wasm_validator_bg.wasm", rest, "validator");
const __split = { l: rest.now, oauth: oauth.now, validator: validator.now };

/**
 * Where the rest of the core, its OAuth module and its validator's come from: each loader's
 * `sync()` returns the bytes or the compiled module at once; `load()`, if given, resolves with
 * either. A loader left `undefined` stays as it was; `null` removes it. Used by the package's
 * entries.
 */
export function __setRestLoader(restLoader, oauthLoader, validatorLoader) {
  rest.set(restLoader);
  oauth.set(oauthLoader);
  validator.set(validatorLoader);
}

/** Resolves once the rest of the core is instantiated; fetches it once, however many call. */
export const loadRest = () => rest.load();

/** Resolves once the core's OAuth module (and the rest, which it needs) is instantiated. */
export const loadOAuth = () => oauth.load();

/**
 * `mcp-wasm/raw`: instantiates the rest of the core from its bytes or module, after `initSync`,
 * and the OAuth and validator modules from `oauth`'s and `validator`'s, if given (not `null`).
 */
export function initRestSync({ module, oauth: auth, validator: checks }) {
  rest.instantiate(toModule(module));
  if (auth != null) oauth.instantiate(toModule(auth));
  if (checks != null) validator.instantiate(toModule(checks));
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
 * `mcp_wasm_rest_bg.wasm` beside the glue; the OAuth module from `oauth` (`null`: not now),
 * else the same ways from `mcp_wasm_oauth_bg.wasm`; the validator's from `validator` if given,
 * else it waits for the first check that needs it (and is then fetched the same ways).
 */
export async function initRest({ module_or_path, oauth: auth, validator: checks } = {}) {
  const fetched = (module, given, file) => {
    if (module.ready()) return undefined;
    if (given == null && module.given()) return module.load();
    return source(given ?? new URL(file, import.meta.url)).then(module.instantiate);
  };
  await fetched(rest, module_or_path, "mcp_wasm_rest_bg.wasm");
  await Promise.all([
    auth !== null && fetched(oauth, auth, "mcp_wasm_oauth_bg.wasm"),
    checks != null && fetched(validator, checks, "mcp_wasm_validator_bg.wasm"),
  ]);
}

// A long body waits for the rest before it reaches the core (`setRestGate` in src/glue.js): the
// gate resolves with the load's failure, if any, and never rejects.
if (SPLIT) {
  // The core waits for the validator's module before it runs a check (src/js/lazy).
  __setPartGate((name) => (name !== "validator" || validator.ready() ? undefined : validator.load()));
  __setRestGate(() => (rest.ready() ? undefined : rest.load().then(
    () => undefined,
    (error) => new Error(`the rest of the core module could not be loaded: ${error?.message ?? error}`),
  )));
}

/** Whether the rest of the core is instantiated (always, for a core that is not split). */
export function __restReady() {
  return rest.ready();
}

/** Whether the core's OAuth module is instantiated (always, for a core that is not split). */
export function __oauthReady() {
  return oauth.ready();
}

/** Whether the core's validator module is instantiated (always, for a core that is not split). */
export function __validatorReady() {
  return validator.ready();
}
