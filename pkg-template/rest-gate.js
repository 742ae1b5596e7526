// The core is two wasm modules (scripts/split): the primary, which each entry loads
// before handing out the API, holds what connecting and a first tool call run; the rest
// holds everything else and loads when a page first needs it. Each method below runs
// code of the rest, so it waits for the rest to load first; every one of them returns a
// Promise (or an async iterator) already, so the wait changes nothing for the caller.
// So do `connect` with an option a first call does not pass (handlers, auth, a cache…)
// and `callTool` with `onprogress`. What is not listed (connect, callTool, close, the
// getters, the listeners, snapshot, notifications, free) runs in the primary. Should a
// page reach the rest another way before it has loaded (`UriTemplate`, whose methods are
// synchronous, or a path no profile took), the core loads it synchronously (the entries'
// `sync` loaders); tests/node/split.test.mjs holds the lists to McpClient's methods.
import { McpClient, __restReady, loadRest } from "./mcp_wasm.js";

export const GATED_METHODS = [
  "listTools", "listAllTools", "listResources", "listAllResources", "listResourceTemplates",
  "listAllResourceTemplates", "listPrompts", "listAllPrompts", "listSkills", "listAllSkills",
  "readResource", "subscribeResource", "unsubscribeResource", "getPrompt", "complete", "ping",
  "setLoggingLevel", "sendRootsListChanged", "readSkill", "readSkillFile", "suspend", "request", "notify",
];
export const GATED_ITERATORS = ["iterateTools", "iterateResources", "iterateResourceTemplates", "iteratePrompts"];
/** The options of `connect` that the primary handles; any other (handlers, auth, cache, …) waits for the rest. */
export const FIRST_CALL_OPTIONS = new Set([
  "clientInfo", "headers", "fetch", "timeout", "signal", "era", "transport", "sseReader", "capabilities",
  "protocolVersion", "strictCapabilities", "validateToolOutput", "maxInputRounds",
]);

const proto = McpClient.prototype;
const gated = (run) => (__restReady() ? run() : loadRest().then(run));

const replace = (target, name, value) => Object.defineProperty(target, name, { value, writable: true, configurable: true });

for (const name of GATED_METHODS) {
  const method = proto[name];
  replace(proto, name, { [name](...args) { return gated(() => method.apply(this, args)); } }[name]);
}
for (const name of GATED_ITERATORS) {
  const method = proto[name];
  replace(proto, name, {
    [name](...args) {
      if (__restReady()) return method.apply(this, args);
      const self = this;
      return (async function* () {
        await loadRest();
        yield* method.apply(self, args);
      })();
    },
  }[name]);
}

const needsRest = (target, options) =>
  (typeof target !== "string" && !(target instanceof URL))
  || (options != null && typeof options === "object" && Object.keys(options).some((key) => !FIRST_CALL_OPTIONS.has(key)));

const statics = { connect: McpClient.connect, resume: McpClient.resume };
replace(McpClient, "connect", {
  connect(target, options) {
    const run = () => statics.connect.call(this, target, options);
    return needsRest(target, options) ? gated(run) : run();
  },
}.connect);
replace(McpClient, "resume", {
  resume(snapshot, options) { return gated(() => statics.resume.call(this, snapshot, options)); },
}.resume);

// Progress notifications are handled by the rest: a call that asks for them waits for it.
let afterCall;
const callTool = proto.callTool;
replace(proto, "callTool", {
  callTool(params, options) {
    const run = () => callTool.call(this, params, options);
    const result = options?.onprogress ? gated(run) : run();
    afterCall?.(result);
    return result;
  },
}.callTool);

/**
 * Where fetching the rest ahead of need pays (a browser), it starts once the first tool
 * call settles, when the page is idle: never before that call, whose bytes it would
 * otherwise compete with.
 */
export function prefetchAfterFirstCall() {
  const schedule = () => {
    if (__restReady()) return;
    const later = globalThis.requestIdleCallback ?? ((run) => setTimeout(run, 0));
    later(() => loadRest().catch(() => {})); // a failed fetch is tried again when something needs the rest
  };
  afterCall = (result) => {
    afterCall = undefined;
    result.then(schedule, schedule);
  };
}
