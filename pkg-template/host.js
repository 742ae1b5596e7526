// McpHost: several MCP servers behind one registry (types: host.d.ts). This file is
// the class a page imports, its checks and its listeners; the registry itself
// (host-run.js: connections, re-listing, routing) loads with the host's first server,
// so a page that only calls tools does not fetch it before its first call. Until it
// is in, the synchronous members answer from the servers added so far, each of them
// still connecting; every other member returns a Promise already and waits for it.
import { McpClientError } from "./mcp_wasm.js";
import { qualifiedNames } from "./naming.js";

const SNAPSHOT_FORMAT = 1;

/** An event of {@link McpHost}: `server` says which server it concerns. */
export class McpHostEvent extends Event {
  constructor(type, detail) {
    super(type);
    Object.assign(this, detail);
  }
}

function invalid(message) {
  return new McpClientError("invalid-argument", message);
}

function checkName(name) {
  if (typeof name !== "string" || name.length === 0 || name.length > 64) {
    throw invalid("a server name must be a string of 1 to 64 characters");
  }
}

// The longest delay setTimeout keeps; a longer one fires at once.
const MAX_TIMER_MS = 2_147_483_647;

function milliseconds(options, name, least) {
  const value = options[name];
  if (value !== undefined && !(typeof value === "number" && value >= least && value <= MAX_TIMER_MS)) {
    throw invalid(`${name} must be a number of milliseconds from ${least} to ${MAX_TIMER_MS}`);
  }
}

function checkTarget(name, url) {
  if (typeof url !== "string" && !(url instanceof URL) && (url === null || typeof url !== "object")) {
    throw invalid(`server ${JSON.stringify(name)} needs a URL or a transport`);
  }
}

// The host's handlers, told which server asked (its name now: it can be
// renamed); a server's own handlers win.
function handlersFor(nameOf, shared = {}, own = {}) {
  const handlers = {};
  for (const kind of ["sampling", "elicitation", "roots"]) {
    const fn = own?.[kind] ?? shared?.[kind];
    if (fn == null) continue;
    if (typeof fn !== "function") throw invalid(`handlers.${kind} must be a function`);
    handlers[kind] = kind === "roots" ? (ctx) => fn({ ...ctx, server: nameOf() }) : (params, ctx) => fn(params, { ...ctx, server: nameOf() });
  }
  return handlers;
}

// A server's URL as the host reports it.
const urlOf = (url) => String(url instanceof URL ? url.href : typeof url === "string" ? url : "custom");

const SHARED = { McpHostEvent, qualifiedNames, handlersFor, checkName, invalid, urlOf, SNAPSHOT_FORMAT };

// One load for every host of the page; a failed load is tried again by the next host that needs it.
let loading;
function loadRegistry() {
  loading ??= import("./host-run.js").catch((error) => {
    loading = undefined;
    throw new McpClientError("network", `network error: McpHost's registry (host-run.js) could not be loaded: ${error?.message ?? error}`);
  });
  return loading;
}

/**
 * Several MCP servers behind one registry of tools, prompts, resources and
 * resource templates. See host.d.ts for the documentation of each member.
 */
export class McpHost {
  #options;
  #listeners = new Map();
  #registry;
  #loaded;
  // Servers added before the registry was in, in order: { name, url, options, settle }.
  #waiting = [];
  #closed = false;
  // Set once close() or suspend() has finished: nothing is dispatched after that.
  #deaf = false;

  constructor(options = {}) {
    if (options === null || typeof options !== "object") throw invalid("McpHost options must be an object");
    this.#options = { debounceMs: 100, ...options };
    milliseconds(this.#options, "debounceMs", 0);
    milliseconds(this.#options, "listTimeout", 1);
    // Fail now, not at the first registry build, on bad naming options.
    qualifiedNames([], this.#options.naming);
    handlersFor(() => "", this.#options.handlers);
    if (this.#options.trace != null && typeof this.#options.trace !== "function") throw invalid("trace must be a function");
  }

  /** Connects every server concurrently; resolves when all have settled. */
  static async connect(servers, options = {}) {
    if (servers === null || typeof servers !== "object") throw invalid("McpHost.connect needs an object of servers by name");
    // Every entry is checked before anything connects, so a bad one leaves no connection behind.
    const host = new McpHost(options);
    for (const [name, config] of Object.entries(servers)) {
      checkName(name);
      checkTarget(name, config?.url);
      handlersFor(() => name, host.#options.handlers, config.handlers);
    }
    return host.#whole(Object.entries(servers).map(([name, { url, ...rest }]) => host.addServer(name, url, rest)));
  }

  static async resume(snapshot, options = {}) {
    if (snapshot?.format !== SNAPSHOT_FORMAT || !Array.isArray(snapshot.servers)) {
      throw invalid(`not a host snapshot of format ${SNAPSHOT_FORMAT}`);
    }
    const names = new Set();
    for (const saved of snapshot.servers) {
      checkName(saved?.name);
      if (names.has(saved.name)) throw invalid(`the snapshot names ${JSON.stringify(saved.name)} twice`);
      names.add(saved.name);
      checkTarget(saved.name, saved.snapshot?.url ?? saved.url);
    }
    const host = new McpHost(options);
    for (const saved of snapshot.servers) handlersFor(() => saved.name, host.#options.handlers, options.servers?.[saved.name]?.handlers);
    const registry = await host.#load();
    const own = (saved) => options.servers?.[saved.name] ?? {};
    // A server saved while it was not connected (it had failed, say) connects again without holding
    // the resume: a Worker invocation would otherwise wait out its timeout each time. ready() and a
    // call that only its tools could route wait for it.
    const resuming = [];
    for (const saved of snapshot.servers) {
      if (saved.snapshot) resuming.push(registry.add(saved.name, saved.snapshot.url, own(saved), saved.snapshot));
      else host.addServer(saved.name, saved.url, own(saved)).catch(() => {});
    }
    return host.#whole(resuming);
  }

  // This host once every server in `adding` has settled; if one was refused, the host closes
  // (the others' connections with it) and the refusal is thrown: nobody else could close it.
  async #whole(adding) {
    try {
      await Promise.all(adding);
    } catch (error) {
      await this.close();
      throw error;
    }
    return this;
  }

  // The registry, made once its module is in; the servers added meanwhile are handed to it
  // in the same step, so no synchronous member sees them missing from both places.
  #load() {
    this.#loaded ??= loadRegistry().then(
      ({ registry }) => {
        this.#registry = registry(SHARED, this.#options, (event) => this.#dispatch(event));
        const waiting = this.#waiting;
        this.#waiting = [];
        for (const server of waiting) server.settle(this.#registry.add(server.name, server.url, server.options));
        // A host closed before it had a server did not wait for its registry.
        if (this.#closed && waiting.length === 0) this.#registry.close();
        return this.#registry;
      },
      (error) => {
        this.#loaded = undefined;
        const waiting = this.#waiting;
        this.#waiting = [];
        for (const server of waiting) server.settle(Promise.reject(error));
        throw error;
      },
    );
    return this.#loaded;
  }

  addServer(name, url, options = {}) {
    try {
      checkName(name);
      if (this.#closed) throw new McpClientError("closed", "the host is closed");
      const taken = this.#registry ? this.#registry.has(name) : this.#waiting.some((s) => s.name === name);
      if (taken) throw invalid(`a server named ${JSON.stringify(name)} is already added`);
      checkTarget(name, url);
      handlersFor(() => name, this.#options.handlers, options?.handlers);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#registry) return this.#registry.add(name, url, options);
    return new Promise((settle) => {
      this.#waiting.push({ name, url, options, settle });
      this.#load().catch(() => {}); // each waiting server is told of a failed load
    });
  }

  renameServer(name, newName) {
    if (this.#registry) return this.#registry.renameServer(name, newName);
    const server = this.#waiting.find((s) => s.name === name);
    if (!server) throw invalid(`no server named ${JSON.stringify(name)}`);
    checkName(newName);
    if (newName === name) return this.#waitingState(server);
    if (this.#waiting.some((s) => s.name === newName)) throw invalid(`a server named ${JSON.stringify(newName)} is already added`);
    server.name = newName;
    this.#dispatch(new McpHostEvent("change", { server: newName, reason: "renamed", previous: name }));
    return this.#waitingState(server);
  }

  #waitingState(server) {
    return { name: server.name, url: urlOf(server.url), status: "connecting" };
  }

  servers() {
    return this.#registry?.servers() ?? this.#waiting.map((s) => this.#waitingState(s));
  }

  client(name) {
    return this.#registry?.client(name);
  }

  get tools() { return this.#registry?.tools ?? []; }
  get prompts() { return this.#registry?.prompts ?? []; }
  get resources() { return this.#registry?.resources ?? []; }
  get resourceTemplates() { return this.#registry?.resourceTemplates ?? []; }

  // As a closed client's: a closed host has no sessions left to save, and a snapshot of
  // its URLs alone would overwrite the one its suspend() returned.
  snapshot() {
    if (this.#closed) throw new McpClientError("closed", "the host is closed");
    return this.#registry?.snapshot() ?? { format: SNAPSHOT_FORMAT, servers: this.#waiting.map((s) => ({ name: s.name, url: urlOf(s.url) })) };
  }

  // A member of the registry: at once when it is in, else once it has loaded. Run at once,
  // a member's synchronous part happens at the call, as it did before there was a registry
  // to load (reconnect's servers leave the registry at the call).
  #inRegistry(name, args) {
    return this.#registry ? this.#registry[name](...args) : this.#load().then((registry) => registry[name](...args));
  }

  // Closing marks the host at once, as the registry does, so that a server added
  // while the registry loads is refused.
  suspend() {
    if (this.#closed) return Promise.reject(new McpClientError("closed", "the host is closed"));
    this.#closed = true;
    return this.#inRegistry("suspend", []).finally(() => this.#letListenersGo());
  }

  close() {
    this.#closed = true;
    const closing = !this.#registry && this.#waiting.length === 0 ? Promise.resolve() : this.#inRegistry("close", []);
    return closing.finally(() => this.#letListenersGo());
  }

  // The last events have been dispatched: the listeners go, and with them their signals' hold on
  // this host, its registry and its servers' lists; later ones are not taken.
  #letListenersGo() {
    this.#deaf = true;
    for (const list of this.#listeners.values()) for (const record of list) record.signal?.removeEventListener("abort", record.stop);
    this.#listeners.clear();
  }

  addEventListener(type, listener, options) {
    if (this.#deaf || (typeof listener !== "function" && typeof listener?.handleEvent !== "function")) return;
    const list = this.#listeners.get(type) ?? [];
    if (list.some((l) => l.listener === listener) || options?.signal?.aborted) return;
    const record = { listener, once: Boolean(options?.once), signal: options?.signal };
    list.push(record);
    this.#listeners.set(type, list);
    if (record.signal) {
      // Let go of with the listener, so a long-lived signal does not keep one per listener added.
      record.stop = () => this.removeEventListener(type, listener);
      record.signal.addEventListener("abort", record.stop, { once: true });
    }
  }

  removeEventListener(type, listener) {
    const list = this.#listeners.get(type);
    if (!list) return;
    for (const record of list) if (record.listener === listener) record.signal?.removeEventListener("abort", record.stop);
    this.#listeners.set(type, list.filter((l) => l.listener !== listener));
  }

  // A listener that throws, or returns a promise it rejects, is reported as an `error` event and
  // never breaks the host (nor ends a Node process as an unhandled rejection).
  #dispatch(event) {
    const report = (error) => {
      if (event.type !== "error") this.#dispatch(new McpHostEvent("error", { server: event.server, error }));
    };
    for (const record of [...(this.#listeners.get(event.type) ?? [])]) {
      if (record.once) this.removeEventListener(event.type, record.listener);
      try {
        const returned = typeof record.listener === "function" ? record.listener.call(this, event) : record.listener.handleEvent(event);
        if (typeof returned?.then === "function") returned.then(undefined, report);
      } catch (error) {
        report(error);
      }
    }
  }

  [Symbol.asyncDispose]() {
    return this.close();
  }

  // Every other member runs in the registry, once it is in.
  static {
    for (const name of [
      "removeServer", "reconnect", "ready", "listAllTools", "listAllPrompts", "listAllResources",
      "listAllResourceTemplates", "toolServer", "callTool", "getPrompt", "complete", "readResource",
      "subscribeResource", "unsubscribeResource",
    ]) {
      const method = {
        [name](...args) {
          return this.#inRegistry(name, args);
        },
      }[name];
      Object.defineProperty(McpHost.prototype, name, { value: method, writable: true, configurable: true });
    }
  }
}
