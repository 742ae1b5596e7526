// The core is two wasm modules (scripts/split): the primary, which each entry loads
// before handing out the API, holds what connecting and a first tool call run; the rest
// holds everything else and loads when a page first needs it. Each method below runs
// code of the rest, so it waits for the rest to load first. So do `connect` with an
// option a first call does not pass (handlers, auth, a cache…) and `callTool` with
// `onprogress`. What is not listed (connect, callTool, close, the getters, the
// listeners, snapshot, notifications, free) runs in the primary. Every one of them
// returns a Promise (or an async iterator) already; what one used to throw at once (a
// closed client's `suspend`, an iterator's bad options) still throws at once, and calls
// made on a client while one waits keep their order behind it. A call's signal and its
// timeout (else its connection's) end its wait as they would end its request; `close()`
// does not wait, and ends the client's calls still waiting with `closed`. Should a page
// reach the rest another way before it has loaded (`UriTemplate`, whose methods are
// synchronous, or a path no profile took), the core loads it synchronously (the
// entries' `sync` loaders); tests/node/split.test.mjs holds the lists to McpClient's
// methods.
import { McpClient, McpClientError, __oauthReady, __restReady, loadOAuth, loadRest } from "./mcp_wasm.js";

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
const replace = (target, name, value) => Object.defineProperty(target, name, { value, writable: true, configurable: true });

// The calls made while the rest loads all wait on this one promise, so they run in the
// order they were made: those that need the rest, and those of the primary made after
// one of them. It resolves when the load settles, with its failure if it failed.
let line = null;
const optionOf = (options, name) => (options !== null && typeof options === "object" ? options[name] : undefined);
const signalOf = (options) => optionOf(options, "signal");

// A call's wait for the rest counts against its timeout, as its request would: its own
// `timeout`, else its client's (connect's option), else the core's default.
const DEFAULT_TIMEOUT = 60_000;
const timeoutOf = new WeakMap();
const timeoutIn = (options) => {
  const ms = optionOf(options, "timeout");
  return ms > 0 && ms < 2 ** 31 ? ms : undefined;
};

// Ends a wait with `end`: with the signal's reason as soon as it aborts, or with `timeout`
// after `ms`. Returns what disarms both.
function bound(signal, ms = DEFAULT_TIMEOUT, end) {
  const abort = () => end(signal.reason);
  const timer = setTimeout(() => end(new McpClientError("timeout", `the rest of the core module could not be loaded within ${ms} ms`)), ms);
  signal?.addEventListener?.("abort", abort, { once: true });
  if (signal?.aborted) queueMicrotask(abort);
  return () => {
    clearTimeout(timer);
    signal?.removeEventListener?.("abort", abort);
  };
}

// `promise`, or the end of the wait that `options` bound.
const abortable = (promise, options) => new Promise((resolve, reject) => {
  promise.then(resolve, reject).finally(bound(signalOf(options), timeoutIn(options), reject));
});

// A client's calls that wait in the line, each a function that ends its wait with an error:
// close() ends them at once, as it ends a call in flight, rather than wait behind a load
// that may have stalled.
const waitingOf = new WeakMap();

function waitThen(run, needsRest, options, client) {
  if (__restReady() || (!needsRest && line === null)) return run();
  if (line === null) {
    const current = loadRest().then(() => null, (error) => error ?? new Error("failed"));
    line = current;
    current.then(() => { if (line === current) line = null; });
  }
  const waiting = client === undefined ? undefined : waitingOf.get(client) ?? waitingOf.set(client, new Set()).get(client);
  return new Promise((resolve, reject) => {
    let ended = false;
    // Ends the wait: with `error`, if one ends it.
    const end = (error) => {
      if (ended) return;
      ended = true;
      disarm();
      waiting?.delete(end);
      if (error !== undefined) reject(error);
    };
    // The call's signal and timeout end its wait as they would end its request.
    const disarm = bound(signalOf(options), timeoutIn(options) ?? timeoutOf.get(client), end);
    waiting?.add(end);
    line.then((failure) => {
      if (ended) return undefined;
      end();
      // As for the package's other parts, a failed load is a `network` error; a call of the
      // primary's runs anyway.
      if (needsRest && failure) {
        throw new McpClientError("network", `network error: the rest of the core module could not be loaded: ${failure.message ?? failure}`);
      }
      return run();
    }).then(resolve, reject);
  });
}
const gated = (run, options, client) => waitThen(run, true, options, client);
const inOrder = (run, options, client) => waitThen(run, false, options, client);

// Where a method's options are when it is not the last argument: the task methods call
// `request(method, params, options, tasks)`.
const OPTIONS_AT = { request: 2 };
// The clients that asked for their tools: only a listing tells which tools need a task (callTool).
const listedTools = new WeakSet();
const noteListing = (name, client) => name.endsWith("Tools") && listedTools.add(client);
for (const name of GATED_METHODS) {
  const method = proto[name];
  const at = OPTIONS_AT[name];
  replace(proto, name, { [name](...args) { noteListing(name, this); return gated(() => method.apply(this, args), args.at(at ?? -1), this); } }[name]);
}
// A closed client's suspend() throws at once: the check is snapshot()'s, in the primary.
const suspend = proto.suspend;
replace(proto, "suspend", {
  suspend() {
    if (!__restReady()) this.snapshot();
    return suspend.call(this);
  },
}.suspend);
// An iterator is made at once (its options checked, in the primary); its first page waits.
for (const name of GATED_ITERATORS) {
  const method = proto[name];
  replace(proto, name, {
    [name](options) {
      const pages = method.call(this, options);
      // Made is not listed: its first page is.
      const next = pages.next;
      pages.next = (...args) => (noteListing(name, this), next.apply(pages, args));
      if (__restReady()) return pages;
      const client = this;
      return (async function* () {
        await gated(() => undefined, options, client);
        yield* pages;
      })();
    },
  }[name]);
}
const close = proto.close;
replace(proto, "close", {
  close() {
    const waiting = waitingOf.get(this);
    waitingOf.delete(this);
    for (const end of waiting ?? []) end(new McpClientError("closed", "the client is closed"));
    return close.call(this);
  },
}.close);

// OAuth is a module of its own after the rest (scripts/split): a connection with `auth` loads
// it before it starts, once the rest is in; its signal aborts that wait too.
const hasAuth = (options) => options != null && typeof options === "object" && options.auth !== undefined;
const withOAuth = (run, options) => (!hasAuth(options) || __oauthReady() ? run : () => abortable(loadOAuth().catch((failure) => {
  throw new McpClientError("network", `network error: the core's OAuth module could not be loaded: ${failure?.message ?? failure}`);
}), options).then(run));

const needsRest = (target, options) =>
  (typeof target !== "string" && !(target instanceof URL))
  || (options != null && typeof options === "object" && Object.keys(options).some((key) => !FIRST_CALL_OPTIONS.has(key)));

// A client's requests default to its connection's `timeout`, and so do its waits for the rest.
// A client whose `listChanged` watcher lists its tools at each change has listed them (callTool).
const withTimeout = (client, options) => {
  const ms = timeoutIn(options);
  const watched = options?.listChanged?.tools;
  if (ms || watched) client.then((connected) => (ms && timeoutOf.set(connected, ms), watched && listedTools.add(connected)), () => {});
  return client;
};

let afterConnect;
const statics = { connect: McpClient.connect, resume: McpClient.resume };
replace(McpClient, "connect", {
  connect(target, options) {
    const run = withOAuth(() => statics.connect.call(this, target, options), options);
    const client = withTimeout(needsRest(target, options) ? gated(run, options) : run(), options);
    afterConnect?.(client);
    return client;
  },
}.connect);
replace(McpClient, "resume", {
  resume(snapshot, options) { return withTimeout(gated(withOAuth(() => statics.resume.call(this, snapshot, options), options), options), options); },
}.resume);

// Progress notifications are handled by the rest: a call that asks for them waits for it.
// A tool that the client's listing of its tools declared `taskSupport: "required"` runs only as a
// task (its server answers a plain call with an error), so it runs as one (tasks.js). Before a
// listing nothing is known, and the call goes out as asked without asking the core.
let afterCall;
const callTool = proto.callTool;
replace(proto, "callTool", {
  callTool(params, options) {
    if (listedTools.has(this) && __restReady() && this.__taskSupport(params?.name) === "required") return this.callToolAsTask(params, options);
    const run = () => callTool.call(this, params, options);
    const result = (options?.onprogress ? gated : inOrder)(run, options, this);
    afterCall?.(result);
    return result;
  },
}.callTool);

/**
 * Where fetching the rest ahead of need pays (a browser), it starts when the page is idle
 * once the first tool call has settled, never before that call, whose bytes it would
 * compete with; or, if a page connects and calls nothing, two seconds after connecting,
 * so that a path of the rest a connection takes later (a reconnection, a server's
 * request) finds it loaded rather than fetching it synchronously.
 */
export function prefetchAfterFirstCall() {
  let done = false;
  const prefetch = () => {
    if (done || __restReady()) return;
    done = true;
    afterCall = afterConnect = undefined;
    const later = globalThis.requestIdleCallback ?? ((run) => setTimeout(run, 0));
    later(() => loadRest().catch(() => {})); // a failed fetch is tried again when something needs the rest
  };
  afterCall = (result) => {
    afterCall = undefined;
    result.then(prefetch, prefetch);
  };
  afterConnect = (client) => {
    client.then(() => setTimeout(() => afterCall && prefetch(), 2_000), () => {});
  };
}
