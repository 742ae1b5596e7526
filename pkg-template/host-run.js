// McpHost's registry (host.js is the class a page imports): several MCP servers,
// their connection state, re-listing and routing, in plain JS over McpClient. It
// loads with the first server a host adds, so a page that only calls tools does not
// fetch it before its first call. What host.js also needs (names, checks, the event
// class) comes in as `shared`, so the browser's bundled entry and this file use one
// copy of each. Types: host.d.ts.
import { McpClient, McpClientError, UriTemplate } from "./mcp_wasm.js";

const LIST_NOTIFICATIONS = new Map([
  ["notifications/tools/list_changed", ["tools"]],
  ["notifications/prompts/list_changed", ["prompts"]],
  ["notifications/resources/list_changed", ["resources", "resourceTemplates"]],
]);
// A server that never stops sending list_changed must not keep its re-listing, and ready(),
// waiting for ever: a burst is waited out for at most this many debounce periods (and at
// least 250 ms) after its first notification, and ready() waits for at most this many rounds
// of work that keeps coming.
const BURST_PERIODS = 4;
const READY_ROUNDS = 3;
// McpClient's default `timeout`: a re-listing's, all its pages together, unless told otherwise.
const DEFAULT_TIMEOUT_MS = 60_000;
const EMPTY_LISTS = () => ({ tools: [], prompts: [], resources: [], resourceTemplates: [] });

// Milliseconds that never go back, from a wall clock that may (the user or NTP setting it): a step
// back counts as no time. Else a burst's first notification would lie in the future, and a storm
// would put its re-listing off for as long as the clock went back. Not performance.now(): in a
// Worker it may count from each request, and a host outlives requests.
let lastWall;
let lastSteady;
function steadyNow() {
  const wall = Date.now();
  lastSteady = lastWall === undefined ? wall : lastSteady + Math.max(0, wall - lastWall);
  lastWall = wall;
  return lastSteady;
}

// Routing a URI by the servers' resource templates is work a server sets: a template built to
// backtrack, or thousands that each take nearly their step budget, would hold the page's thread
// (a step is about 0.2 µs). Each server's first ROUTED_TEMPLATES templates are tried with
// QUICK_STEPS each, more than a real template needs for a URI of a hundred characters; one that
// needs more (a long URI) is tried again from SLOW_STEPS that the server has for the whole read.
// Past those, or once one template runs out, the server's other templates are not tried: one read
// costs at most about 70 ms per server.
const ROUTED_TEMPLATES = 256;
const QUICK_STEPS = 1_000;
const SLOW_STEPS = 100_000;

const isLimit = (error) => error instanceof McpClientError && error.kind === "limit-exceeded";

// Whether `template` matches `uri` within `steps`: true, false, or the limit-exceeded error.
function matchWithin(template, uri, steps) {
  try {
    return template.match(uri, { maxSteps: steps }) !== null;
  } catch (error) {
    // A template the server got wrong matches nothing.
    return isLimit(error) ? error : false;
  }
}

// The servers but those in `skip` whose templates match `uri`; the first template that ran out of
// steps, and the servers with templates past ROUTED_TEMPLATES, for the error when none matches.
function routeByTemplates(templates, uri, skip) {
  const owners = new Set();
  const spent = new Map(); // server → { tried, slow, out }
  const crowded = new Set();
  let tooCostly;
  for (const t of templates) {
    if (skip.has(t.server)) continue;
    const budget = spent.get(t.server) ?? { tried: 0, slow: SLOW_STEPS, out: false };
    spent.set(t.server, budget);
    if (budget.out || owners.has(t.server)) continue;
    if (++budget.tried > ROUTED_TEMPLATES) {
      crowded.add(t.server);
      continue;
    }
    let template;
    try {
      template = new UriTemplate(t.uriTemplate);
    } catch {
      continue;
    }
    try {
      // A template that needs more than the quick steps is tried again with twice as many, each
      // try taken in full from the server's slow steps (what a match took is not known): at most
      // about four times what it needs.
      let steps = QUICK_STEPS;
      let matched = matchWithin(template, uri, steps);
      while (matched instanceof Error && Math.min(steps * 2, budget.slow) > steps) {
        steps = Math.min(steps * 2, budget.slow);
        budget.slow -= steps;
        matched = matchWithin(template, uri, steps);
      }
      if (matched instanceof Error) {
        tooCostly ??= matched;
        budget.out = true;
      } else if (matched) {
        owners.add(t.server);
      }
    } finally {
      template.free();
    }
  }
  // A server that matched is skipped before it is counted: none of the crowded matched.
  return { owners, tooCostly, crowded: [...crowded] };
}

// The first value among `promises` that is not undefined, or undefined once all have settled.
function firstFound(promises) {
  return new Promise((resolve) => {
    let left = promises.length;
    const one = (value) => {
      left -= 1;
      if (value !== undefined || left === 0) resolve(value);
    };
    if (left === 0) resolve(undefined);
    for (const promise of promises) promise.then(one, () => one(undefined));
  });
}

// Keeps `promise` among the entry's work in progress until it settles, for ready() to wait on.
function track(entry, promise) {
  const tracked = promise.finally(() => entry.work.delete(tracked));
  entry.work.add(tracked);
  return tracked;
}

// Stops the entry's connection in progress, if any: a server that is removed, reconnected or
// suspended, or whose host closes, must not keep its handshake (or an OAuth flow) going.
function stopConnecting(entry) {
  entry.connecting?.abort(new McpClientError("closed", `server ${entry.name} was removed, reconnected or closed while connecting`));
  entry.connecting = undefined;
}

// `signal` and `other` in one, or `other` alone.
const eitherSignal = (signal, other) => (signal ? AbortSignal.any([signal, other]) : other);

// Ends the wait for scheduled re-listings.
function settle(entry) {
  const resolve = entry.settle;
  entry.settle = undefined;
  resolve?.();
}

// Which lists a server offers, from its declared capabilities.
function offeredLists(client) {
  const caps = client.serverCapabilities ?? {};
  return {
    tools: Boolean(caps.tools),
    prompts: Boolean(caps.prompts),
    resources: Boolean(caps.resources),
    resourceTemplates: Boolean(caps.resources),
  };
}

const LISTERS = {
  tools: (c, o) => c.listAllTools(o),
  prompts: (c, o) => c.listAllPrompts(o),
  resources: (c, o) => c.listAllResources(o),
  resourceTemplates: (c, o) => c.listAllResourceTemplates(o),
};

// Set by the first registry made: host.js's copies.
let McpHostEvent, qualifiedNames, handlersFor, checkName, invalid, urlOf, SNAPSHOT_FORMAT;

/** A host's registry, for host.js: `options` are checked already, and events go to `dispatch`. */
export function registry(shared, options, dispatch) {
  ({ McpHostEvent, qualifiedNames, handlersFor, checkName, invalid, urlOf, SNAPSHOT_FORMAT } = shared);
  return new HostRegistry(options, dispatch);
}

/** The servers behind one McpHost; see host.d.ts for the documentation of each member. */
class HostRegistry {
  #servers = new Map();
  #options;
  #tell;
  #registry = { tools: [], prompts: [], resources: [], resourceTemplates: [], toolRoutes: new Map(), promptRoutes: new Map() };
  #closed = false;
  // The names of servers removed or renamed: with on-collision names, their prefixes stay out of the
  // bare names, so that a name a model still holds does not pass to a look-alike.
  #retired = new Set();

  constructor(options, dispatch) {
    this.#options = options;
    this.#tell = dispatch;
  }

  has(name) {
    return this.#servers.has(name);
  }

  // Adds a server host.js has checked; one of a host snapshot is taken over without a new
  // initialize when `snapshot` is its client's.
  async add(name, url, options, snapshot) {
    checkName(name);
    if (this.#servers.has(name)) throw invalid(`a server named ${JSON.stringify(name)} is already added`);
    const entry = { name, url: urlOf(url), target: url,
      options, status: "connecting", error: undefined, client: undefined, lists: EMPTY_LISTS(), listed: new Set(), timers: new Map(), bursts: new Map(), attempt: 0,
      work: new Set(), listing: {}, early: new Map(), tried: new Set() };
    this.#servers.set(name, entry);
    await track(entry, this.#open(entry, snapshot));
    return this.#state(entry);
  }

  // Whether `entry` is still the host's and `attempt` its latest connection.
  #current(entry, attempt) {
    return !this.#closed && this.#servers.get(entry.name) === entry && entry.attempt === attempt;
  }

  async #open(entry, snapshot) {
    const attempt = ++entry.attempt;
    this.#setStatus(entry, "connecting");
    const { handlers, ...own } = entry.options ?? {};
    let client;
    try {
      const options = { ...this.#options.clientOptions, ...own, handlers: handlersFor(() => entry.name, this.#options.handlers, handlers) };
      const hostTrace = this.#options.trace;
      if (hostTrace) {
        const serverTrace = options.trace;
        // Each entry is told the server's name as it is when the message passes.
        options.trace = (message) => {
          serverTrace?.(message);
          message.server = entry.name;
          hostTrace(message);
        };
      }
      stopConnecting(entry);
      const connecting = (entry.connecting = new AbortController());
      options.signal = eitherSignal(options.signal, connecting.signal);
      client = snapshot ? await McpClient.resume(snapshot, options) : await McpClient.connect(entry.target, options);
    } catch (error) {
      if (!this.#current(entry, attempt)) return;
      entry.error = error;
      this.#setStatus(entry, "failed");
      return;
    }
    if (!this.#current(entry, attempt)) {
      client.close();
      return;
    }
    entry.connecting = undefined;
    entry.client = client;
    entry.error = undefined;
    this.#watch(entry, client);
    this.#setStatus(entry, "connected");
    // A resumed server is listed when a list is first needed: a Worker that
    // only calls a tool should not pay for four list requests per server.
    if (!snapshot) await this.#relist(entry, Object.keys(LISTERS), "connected");
  }

  #watch(entry, client) {
    const current = () => entry.client === client && this.#servers.get(entry.name) === entry;
    client.addEventListener("notification", (event) => {
      if (!current()) return;
      this.#dispatch(new McpHostEvent("notification", { server: entry.name, notification: event.notification }));
      const kinds = LIST_NOTIFICATIONS.get(event.notification?.method);
      if (kinds) this.#schedule(entry, kinds);
    });
    // A new session or a re-opened stream may have missed list changes.
    for (const type of ["sessionrenewed", "reconnected"]) {
      client.addEventListener(type, () => current() && entry.listed.size > 0 && this.#schedule(entry, [...entry.listed], type));
    }
    client.addEventListener("error", (event) => current() && this.#dispatch(new McpHostEvent("error", { server: entry.name, error: event.error })));
    client.addEventListener("close", () => {
      if (!current() || entry.closing) return;
      entry.error = new McpClientError("closed", `the connection to ${entry.name} closed`);
      entry.client = undefined;
      this.#forget(entry);
      this.#setStatus(entry, "failed");
    });
  }

  // Takes a server's entries out of the registry (it disconnected, or is reconnecting).
  #forget(entry) {
    for (const timer of entry.timers.values()) clearTimeout(timer);
    entry.timers.clear();
    entry.bursts.clear();
    settle(entry);
    entry.lists = EMPTY_LISTS();
    entry.listed.clear();
    entry.tried.clear();
    this.#rebuild();
    this.#dispatch(new McpHostEvent("change", { server: entry.name, reason: "disconnected" }));
  }

  // Waits out a burst of notifications, then re-lists what they concern; a burst that goes
  // on is re-listed BURST_PERIODS debounce periods after it began, and again after as long.
  #schedule(entry, kinds, reason = "list_changed") {
    const debounce = this.#options.debounceMs;
    const longest = Math.max(250, BURST_PERIODS * debounce);
    const now = steadyNow();
    for (const kind of kinds) {
      clearTimeout(entry.timers.get(kind));
      const began = entry.bursts.get(kind) ?? now;
      entry.bursts.set(kind, began);
      entry.timers.set(kind, setTimeout(() => {
        entry.timers.delete(kind);
        entry.bursts.delete(kind);
        this.#relist(entry, [kind], reason).finally(() => {
          // What ready() waited for is done; what was scheduled since, it waits for anew.
          settle(entry);
          if (entry.timers.size > 0) this.#awaitScheduled(entry);
        });
      }, Math.max(0, Math.min(debounce, began + longest - now))));
    }
    this.#awaitScheduled(entry);
  }

  // Has ready() wait for the re-listings scheduled now.
  #awaitScheduled(entry) {
    if (!entry.settle) {
      track(entry, new Promise((resolve) => { entry.settle = resolve; }));
    }
  }

  async #relist(entry, kinds, reason) {
    const client = entry.client;
    if (!client) return;
    const offered = offeredLists(client);
    const work = kinds.map(async (kind) => {
      // A later listing of the same kind wins, whichever answer arrives first, and stops the one
      // it supersedes: a server that announces changes faster than it lists them would otherwise
      // have the host walk the same list several times at once.
      entry.listing[kind]?.abort();
      if (!offered[kind]) {
        delete entry.listing[kind];
        entry.lists[kind] = [];
        entry.listed.add(kind);
        return true;
      }
      const listing = (entry.listing[kind] = new AbortController());
      const superseded = () => entry.listing[kind] !== listing;
      try {
        // The whole listing within the time, however many pages the server cuts it into.
        const time = this.#options.listTimeout ?? entry.options?.timeout ?? this.#options.clientOptions?.timeout ?? DEFAULT_TIMEOUT_MS;
        const items = await LISTERS[kind](client, { timeout: time, maxTotalTimeout: time, signal: listing.signal });
        if (entry.client !== client || superseded()) return false;
        entry.lists[kind] = items;
        entry.listed.add(kind);
        entry.tried.delete(kind);
        return true;
      } catch (error) {
        if (superseded()) return false;
        // Tried, and not asked again for a read until the server tells of a change or reconnects.
        entry.tried.add(kind);
        if (entry.client === client) this.#dispatch(new McpHostEvent("error", { server: entry.name, error }));
        return true;
      } finally {
        if (!superseded()) delete entry.listing[kind];
      }
    });
    const outcomes = await track(entry, Promise.all(work));
    if (entry.client !== client || this.#servers.get(entry.name) !== entry) return;
    // A listing superseded by a newer one changed nothing: the newer one tells.
    const lists = kinds.filter((_, i) => outcomes[i] !== false);
    if (lists.length === 0) return;
    this.#rebuild();
    this.#dispatch(new McpHostEvent("change", { server: entry.name, reason, lists }));
  }

  #rebuild() {
    const live = [...this.#servers.values()].filter((e) => e.client);
    const named = (kind, routes) => {
      const items = live.flatMap((e) => e.lists[kind].map((item) => [e.name, item]));
      // Every server's prefix is kept from the bare names, a server not listed now (connecting,
      // failed, removed or renamed) included: a name it held must not pass to a look-alike.
      const known = [...this.#servers.keys(), ...this.#retired];
      const names = qualifiedNames(items.map(([server, item]) => [server, String(item.name)]), this.#options.naming, known);
      routes.clear();
      return items.map(([server, item], i) => {
        routes.set(names[i], { server, name: item.name });
        return { ...item, name: names[i], server, serverName: item.name };
      });
    };
    const registry = { toolRoutes: new Map(), promptRoutes: new Map() };
    registry.tools = named("tools", registry.toolRoutes);
    registry.prompts = named("prompts", registry.promptRoutes);
    registry.resources = live.flatMap((e) => e.lists.resources.map((r) => ({ ...r, server: e.name })));
    registry.resourceTemplates = live.flatMap((e) => e.lists.resourceTemplates.map((t) => ({ ...t, server: e.name })));
    this.#registry = registry;
  }

  #setStatus(entry, status) {
    if (entry.status === status && status !== "connecting") return;
    entry.status = status;
    this.#dispatch(new McpHostEvent("status", { server: entry.name, status, error: entry.error }));
  }

  #state(entry) {
    const client = entry.client;
    const state = { name: entry.name, url: entry.url, status: entry.status };
    if (entry.error !== undefined) state.error = entry.error;
    if (client) {
      Object.assign(state, { era: client.era, transport: client.transport, protocolVersion: client.protocolVersion, serverInfo: client.serverInfo });
      if (client.sessionId !== undefined) state.sessionId = client.sessionId;
    }
    return state;
  }

  // Waits for connections and re-listings in progress, so the registry is current, and for
  // the work they bring; work that a server keeps bringing, READY_ROUNDS rounds at most.
  async ready() {
    for (let round = 0; round < READY_ROUNDS; round++) {
      const waits = [...this.#servers.values()].flatMap((e) => [...e.work]);
      if (waits.length === 0) return;
      await Promise.all(waits);
    }
  }

  // Lists what `kinds` no connected server has listed yet (after a resume).
  async #need(kinds) {
    await this.ready();
    const work = [...this.#servers.values()].filter((e) => e.client).map((e) => {
      const offered = offeredLists(e.client);
      const missing = kinds.filter((k) => offered[k] && !e.listed.has(k));
      return missing.length > 0 && this.#relist(e, missing, "connected");
    }).filter(Boolean);
    await Promise.all(work);
  }

  async removeServer(name) {
    const entry = this.#servers.get(name);
    if (!entry) return false;
    this.#servers.delete(name);
    this.#retired.add(name);
    entry.attempt++;
    stopConnecting(entry);
    for (const timer of entry.timers.values()) clearTimeout(timer);
    // Nothing is scheduled any more: a re-listing that ends now must not wait for one.
    entry.timers.clear();
    entry.bursts.clear();
    settle(entry);
    const client = entry.client;
    entry.client = undefined;
    entry.closing = true;
    this.#rebuild();
    entry.status = "closed";
    this.#dispatch(new McpHostEvent("status", { server: name, status: "closed" }));
    this.#dispatch(new McpHostEvent("change", { server: name, reason: "removed" }));
    await client?.close();
    return true;
  }

  async reconnect(name) {
    if (this.#closed) throw new McpClientError("closed", "the host is closed");
    const entry = this.#servers.get(name);
    if (!entry) throw invalid(`no server named ${JSON.stringify(name)}`);
    const attempt = ++entry.attempt;
    stopConnecting(entry);
    const old = entry.client;
    entry.client = undefined;
    this.#forget(entry);
    if (old) {
      entry.closing = true;
      await old.close();
      entry.closing = false;
    }
    if (!this.#current(entry, attempt)) throw new McpClientError("closed", `server ${name} was removed or the host closed while reconnecting`);
    await track(entry, this.#open(entry, undefined));
    return this.#state(entry);
  }

  renameServer(name, newName) {
    if (name !== newName && this.#servers.has(name)) this.#retired.add(name);
    const entry = this.#servers.get(name);
    if (!entry) throw invalid(`no server named ${JSON.stringify(name)}`);
    checkName(newName);
    if (newName === name) return this.#state(entry);
    if (this.#servers.has(newName)) throw invalid(`a server named ${JSON.stringify(newName)} is already added`);
    // The same place in the order servers() reports.
    this.#servers = new Map([...this.#servers].map(([key, value]) => (key === name ? [newName, value] : [key, value])));
    entry.name = newName;
    this.#rebuild();
    this.#dispatch(new McpHostEvent("change", { server: newName, reason: "renamed", previous: name }));
    return this.#state(entry);
  }

  servers() {
    return [...this.#servers.values()].map((e) => this.#state(e));
  }

  client(name) {
    return this.#servers.get(name)?.client;
  }

  get tools() { return this.#registry.tools; }
  get prompts() { return this.#registry.prompts; }
  get resources() { return this.#registry.resources; }
  get resourceTemplates() { return this.#registry.resourceTemplates; }

  async listAllTools() { await this.#need(["tools"]); return this.#registry.tools; }
  async listAllPrompts() { await this.#need(["prompts"]); return this.#registry.prompts; }
  async listAllResources() { await this.#need(["resources"]); return this.#registry.resources; }
  async listAllResourceTemplates() { await this.#need(["resourceTemplates"]); return this.#registry.resourceTemplates; }

  // Where a qualified name leads now, listing first if a resumed host has not yet. Each connected
  // server that has not listed does so on its own (#listNow), and the route is taken as soon as one
  // shows it: a server still connecting (for up to its timeout) holds only a name no other server has.
  async #lookup(routes, name) {
    const found = () => this.#registry[routes].get(name);
    if (found()) return found();
    const kind = routes === "toolRoutes" ? "tools" : "prompts";
    // With on-collision names, a bare name is taken only once every server has listed: the first
    // one to answer could be a look-alike of a slower one, whose listing would make the name shared.
    if (this.#options.naming?.prefix !== "on-collision") {
      const unlisted = [...this.#servers.values()].filter((e) => e.client && !e.listed.has(kind));
      const route = await firstFound(unlisted.map((e) => this.#listNow(e, kind).then(found)));
      if (route) return route;
    }
    await this.#need([kind]);
    return found();
  }

  // `kind` listed on `e` now, or the listing in progress shared (a resumed host lists when first
  // needed): what a lookup or a read waits for, rather than every server's handshake.
  #listNow(e, kind) {
    let listing = e.early.get(kind);
    if (!listing && e.work.size === 0) {
      listing = this.#relist(e, [kind], "connected").finally(() => e.early.delete(kind));
      e.early.set(kind, listing);
    }
    return listing ?? Promise.all(e.work);
  }

  async #route(routes, name, what) {
    if (typeof name !== "string") throw invalid(`the ${what} name must be a string`);
    const route = await this.#lookup(routes, name);
    if (!route) throw invalid(`no connected server offers a ${what} named ${JSON.stringify(name)}`);
    const client = this.#servers.get(route.server)?.client;
    if (!client) throw new McpClientError("closed", `server ${route.server} is not connected`);
    return { client, route };
  }

  // The server callTool would send `name` to: what runToolLoop tells approve as ctx.server.
  async toolServer(name) {
    if (typeof name !== "string") return undefined;
    return (await this.#lookup("toolRoutes", name))?.server;
  }

  // callTool(name, args?, options?) or callTool({ name, arguments }, options?), as on McpClient.
  async callTool(nameOrParams, args, options) {
    const byName = typeof nameOrParams === "string";
    const params = byName ? (args === undefined ? { name: nameOrParams } : { name: nameOrParams, arguments: args }) : nameOrParams;
    const requestOptions = byName ? options : args;
    if (params === null || typeof params !== "object") throw invalid("callTool needs a tool name");
    const { server, ...call } = params;
    const { client, route } = await this.#route("toolRoutes", call.name, "tool");
    // `server` pins the call where the caller was told it would go (runToolLoop's approve): names
    // move when servers come, go or change their lists.
    if (server !== undefined && route.server !== server) {
      const was = server === null ? "no server's" : `${server}'s`;
      throw invalid(`the tool ${JSON.stringify(call.name)} is now server ${route.server}'s, not ${was}`);
    }
    return client.callTool({ ...call, name: route.name }, requestOptions);
  }

  async getPrompt(params, options) {
    if (params === null || typeof params !== "object") throw invalid("getPrompt needs { name, arguments }");
    const { client, route } = await this.#route("promptRoutes", params.name, "prompt");
    return client.getPrompt({ ...params, name: route.name }, options);
  }

  // The client of the one server in `servers`, if there is exactly one and it is connected.
  #sole(servers) {
    return servers.size === 1 ? this.#servers.get([...servers][0])?.client : undefined;
  }

  // The server that owns `uri`: the one given, the one that listed it, or the
  // one whose template matches; more than one candidate is ambiguous.
  async #owner(params) {
    if (params === null || typeof params !== "object" || typeof params.uri !== "string") throw invalid("a resource request needs { uri }");
    const { server, ...rest } = params;
    if (server !== undefined) {
      const client = this.#servers.get(server)?.client;
      if (!client) throw invalid(`no connected server named ${JSON.stringify(server)}`);
      return { client, rest };
    }
    // A URI that one connected server lists goes there at once, as a known tool's call does,
    // rather than wait on the handshake of a server still connecting; the rest wait for the
    // registry to be current.
    // A URI that one server lists and another's template matches is ambiguous too: otherwise a
    // server could list a URI that another serves by its template, and so see and answer its reads.
    const listers = () => new Set(this.#registry.resources.filter((r) => r.uri === params.uri).map((r) => r.server));
    const byTemplate = (listed) => routeByTemplates(this.#registry.resourceTemplates, params.uri, listed);
    // Only once every connected server has listed its templates (a resumed host has not yet), each
    // asked on its own: a server still connecting holds nothing, and one whose listing failed is not
    // asked again.
    const untold = () => [...this.#servers.values()].filter((e) =>
      e.client && offeredLists(e.client).resourceTemplates && !e.listed.has("resourceTemplates") && !e.tried.has("resourceTemplates"));
    if (this.#sole(listers())) {
      await Promise.all(untold().map((e) => this.#listNow(e, "resourceTemplates")));
      const first = listers();
      const sole = this.#sole(first);
      if (sole && untold().length === 0 && byTemplate(first).owners.size === 0) return { client: sole, rest };
    }
    await this.#need(["resources", "resourceTemplates"]);
    const listed = listers();
    const routing = byTemplate(listed);
    for (const server of routing.owners) listed.add(server);
    if (listed.size > 1) throw invalid(`${params.uri} is offered by ${[...listed].join(", ")}: pass { server }`);
    const [owner] = listed;
    const client = owner && this.#servers.get(owner)?.client;
    if (!client && routing.tooCostly) throw routing.tooCostly;
    if (!client && routing.crowded.length > 0) {
      throw invalid(`no server's first ${ROUTED_TEMPLATES} templates match ${params.uri}; ${routing.crowded.join(", ")} offer more: pass { server }`);
    }
    if (!client) throw invalid(`no connected server offers ${params.uri}`);
    return { client, rest };
  }

  // complete({ ref, argument, context? }): a prompt by its qualified name, a
  // template by the server that listed it (or `server`).
  async complete(params, options) {
    const ref = params?.ref;
    if (ref?.type === "ref/prompt") {
      const { client, route } = await this.#route("promptRoutes", ref.name, "prompt");
      return client.complete({ ...params, ref: { ...ref, name: route.name } }, options);
    }
    if (ref?.type !== "ref/resource" || typeof ref.uri !== "string") throw invalid("complete needs a ref of type ref/prompt or ref/resource");
    const { server, ...rest } = params;
    let owner = server;
    if (owner === undefined) {
      const listers = () => new Set(this.#registry.resourceTemplates.filter((t) => t.uriTemplate === ref.uri).map((t) => t.server));
      let owners = listers();
      // One connected server's template goes at once, as in #owner.
      if (!this.#sole(owners)) {
        await this.#need(["resourceTemplates"]);
        owners = listers();
      }
      if (owners.size > 1) throw invalid(`${ref.uri} is offered by ${[...owners].join(", ")}: pass { server }`);
      [owner] = owners;
    }
    const client = owner !== undefined && this.#servers.get(owner)?.client;
    if (!client) throw invalid(`no connected server offers the template ${ref.uri}`);
    return client.complete(rest, options);
  }

  async readResource(params, options) {
    const { client, rest } = await this.#owner(params);
    return client.readResource(rest, options);
  }

  async subscribeResource(params, options) {
    const { client, rest } = await this.#owner(params);
    return client.subscribeResource(rest, options);
  }

  async unsubscribeResource(params, options) {
    const { client, rest } = await this.#owner(params);
    return client.unsubscribeResource(rest, options);
  }

  snapshot() {
    const servers = [...this.#servers.values()].map((e) => {
      let snapshot;
      try {
        snapshot = e.client?.snapshot();
      } catch {
        // A custom transport cannot be saved, nor a server that declared too much to keep: the
        // server is kept by name (and URL), and connects anew when resumed.
      }
      return snapshot ? { name: e.name, snapshot } : { name: e.name, url: e.url };
    });
    return { format: SNAPSHOT_FORMAT, servers };
  }

  async suspend() {
    const snapshot = this.snapshot();
    this.#closed = true;
    await Promise.all([...this.#servers.values()].map((e) => {
      e.attempt++;
      stopConnecting(e);
      for (const timer of e.timers.values()) clearTimeout(timer);
      // Nothing is scheduled any more: a re-listing that ends now must not wait for one.
      e.timers.clear();
      e.bursts.clear();
      settle(e);
      e.closing = true;
      this.#setStatus(e, "closed");
      const client = e.client;
      e.client = undefined;
      const saved = snapshot.servers.some((s) => s.name === e.name && s.snapshot);
      return saved ? client.suspend() : client?.close();
    }));
    return snapshot;
  }

  async close() {
    if (this.#closed && this.#servers.size === 0) return;
    this.#closed = true;
    await Promise.all([...this.#servers.keys()].map((name) => this.removeServer(name)));
  }

  #dispatch(event) {
    this.#tell(event);
  }
}
