// The JavaScript that the crate's Rust code imports, in one module so that a
// page loads one file for it (wasm-bindgen emits each inline_js snippet as a
// module of its own, and each is a request before the wasm can start).

// Errors: McpError (the server refused) and McpClientError (everything else, with a kind).
export class McpError extends Error {
  constructor(code, message, data) {
    super(message);
    this.name = "McpError";
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}
export class McpClientError extends Error {
  constructor(kind, message, status) {
    super(message);
    this.name = "McpClientError";
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

// Events and async iteration.
export class McpNotificationEvent extends Event {
  constructor(type, notification) {
    super(type);
    this.notification = notification;
    this.params = notification.params;
  }
}
export class McpErrorEvent extends Event {
  constructor(error) {
    super("error");
    this.error = error;
  }
}
export function plainEvent(type) { return new Event(type); }
// What a thrown value says, for an error's text: an Error's message, a string itself, else its JSON
// (`undefined` and what JSON cannot hold, such as a symbol, as `String()` gives them). Here rather
// than through the binding's debug form of a value, which wraps every value in `JsValue(…)` and
// costs the glue a general printer of values.
export function thrownMessage(value) {
  try {
    const message = value?.message;
    if (typeof message === "string") return message;
    if (typeof value === "string") return value;
    return JSON.stringify(value) ?? String(value);
  } catch {
    // A proxy may refuse even this; the binding must get a string back whatever the value is.
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return typeof value;
    }
  }
}
export class McpConnectionEvent extends Event {
  constructor(type, detail) {
    super(type);
    Object.assign(this, detail);
  }
}

// A client's event listeners (src/js/events.rs), with DOM semantics for `once`, `signal` and
// `handleEvent`, and the same listener added once per type. Kept here rather than on an
// EventTarget: Node reports an exception thrown by an EventTarget listener as uncaught and may end
// the process. A listener that throws is reported as an `error` event instead, and dispatch goes on.
// Once cleared (the client closed), it takes no more: nothing would call them, and a listener's
// `signal` would hold it for as long as the signal lives.
export class Listeners {
  constructor() {
    this.list = [];
    this.cleared = false;
  }
  // Never throws, whatever the caller passes (a revoked proxy, a signal-like object without
  // removeEventListener): an exception here would unwind through the wasm that called it.
  add(type, callback, options) {
    try {
      const callable = typeof callback === "function" || typeof callback?.handleEvent === "function";
      if (this.cleared || !callable || this.list.some((l) => l.type === type && l.callback === callback)) return;
      const object = typeof options === "object" && options !== null;
      const given = object ? options.signal : undefined;
      const signal = typeof given?.addEventListener === "function" && typeof given.removeEventListener === "function" ? given : undefined;
      if (signal?.aborted) return;
      const entry = { type, callback, once: object && !!options.once };
      if (signal) {
        const onAbort = () => this.drop(entry);
        signal.addEventListener("abort", onAbort, { once: true });
        entry.stop = () => {
          try {
            signal.removeEventListener("abort", onAbort);
          } catch {
            // The signal forgets nothing; the listener is gone from the list all the same.
          }
        };
      }
      this.list.push(entry);
    } catch (thrown) {
      this.fail(type, thrown);
    }
  }
  remove(type, callback) {
    for (const entry of this.list.filter((l) => l.type === type && l.callback === callback)) this.drop(entry);
  }
  drop(entry) {
    const at = this.list.indexOf(entry);
    if (at < 0) return;
    this.list.splice(at, 1);
    entry.stop?.();
  }
  clear() {
    this.cleared = true;
    for (const entry of this.list.splice(0)) entry.stop?.();
  }
  hears(method) {
    return this.list.some((l) => l.type === method || l.type === "notification");
  }
  // As on an EventTarget: listeners added while it runs wait for the next event, and those removed
  // while it runs (by another listener, or their signal) are not called.
  dispatch(type, event) {
    for (const entry of this.list.filter((l) => l.type === type)) {
      if (!this.list.includes(entry)) continue;
      if (entry.once) this.drop(entry);
      try {
        this.heed(typeof entry.callback === "function" ? entry.callback.call(undefined, event) : entry.callback.handleEvent(event), type);
      } catch (thrown) {
        this.fail(type, thrown);
      }
    }
  }
  // What a callback of the caller's returned: a promise it rejects (an async callback that throws)
  // is reported as an `error` event too, rather than left to end a Node process as unhandled.
  heed(returned, type) {
    try {
      if (typeof returned?.then === "function") returned.then(undefined, (thrown) => this.fail(type, thrown));
    } catch (thrown) {
      this.fail(type, thrown);
    }
  }
  // What a listener of `type` threw or rejected, as an `error` event: not an error listener's own.
  fail(type, thrown) {
    if (type !== "error") this.dispatch("error", new McpErrorEvent(thrown));
  }
  notify(method, message) {
    this.dispatch(method, new McpNotificationEvent(method, message));
    this.dispatch("notification", new McpNotificationEvent("notification", message));
  }
  // notifications(): an async iterator fed by a listener of its own, which it removes when it ends;
  // when the listener is removed otherwise (the client closed), the iterator ends once read.
  notifications(method, capacity, signal) {
    const entry = { type: method ?? "notification", once: false };
    const stream = notificationStream(capacity, signal, () => this.drop(entry));
    entry.callback = stream.listener;
    entry.stop = stream.end;
    // An iterator whose signal has already aborted rejects its first next() and hears nothing.
    if (!signal?.aborted) this.list.push(entry);
    return stream.iterator;
  }
}

// A notifications() iterator. It keeps at most `capacity` notifications its reader has not taken;
// one more and it unsubscribes, and once the reader has taken what it kept, next() rejects with
// `lagged`. `end` says no more will come (what was kept is still read); return() and the reader's
// `signal` end it at once.
function notificationStream(capacity, signal, unsubscribe) {
  // Taken from `head` on: shift() copies what is left of a long array each time, so a reader
  // draining a buffer of 100,000 took 5.6 s. What was taken is dropped once it is half the array.
  let kept = [];
  let head = 0;
  const take = () => {
    const value = kept[head++];
    if (head > 1024 && head * 2 > kept.length) {
      kept = kept.slice(head);
      head = 0;
    }
    return value;
  };
  const waiting = [];
  let ended = false;
  let lagged = false;
  let finished = false;
  const done = () => ({ done: true, value: undefined });
  const settle = () => {
    while (waiting.length && (kept.length > head || ended || finished)) {
      const { resolve, reject } = waiting.shift();
      if (kept.length > head) resolve({ done: false, value: take() });
      else if (lagged && !finished) {
        finished = true;
        reject(new McpClientError("lagged", `the notification subscriber lagged more than ${capacity} notifications behind`));
      } else resolve(done());
    }
  };
  // Ends the iteration now: what was kept is dropped, pending next() calls settle.
  const finish = (reason) => {
    if (finished) return;
    finished = true;
    kept = [];
    head = 0;
    if (reason !== undefined) for (const { reject } of waiting.splice(0)) reject(reason);
    settle();
    signal?.removeEventListener("abort", onAbort);
    unsubscribe();
  };
  const onAbort = () => finish(signal.reason);
  if (!signal?.aborted) signal?.addEventListener("abort", onAbort, { once: true });
  const listener = (event) => {
    if (ended || finished) return;
    if (waiting.length === 0 && kept.length - head >= capacity) {
      ended = lagged = true;
      unsubscribe();
    } else kept.push({ ...event.notification });
    settle();
  };
  // Every pending next() settles now, and a later one does not wait: the signal has nothing left to end.
  const end = () => {
    ended = true;
    settle();
    signal?.removeEventListener("abort", onAbort);
  };
  const iterator = {
    next() {
      if (finished) return Promise.resolve(done());
      if (signal?.aborted) {
        const reason = signal.reason;
        finish();
        return Promise.reject(reason);
      }
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        settle();
      });
    },
    return() {
      finish();
      return Promise.resolve(done());
    },
    [Symbol.asyncIterator]() { return this; },
  };
  return { iterator, listener, end };
}

// Paginated lists as async generators.
export function pageItems(fetchPage, field) {
  return (async function* () {
    let cursor;
    do {
      const page = await fetchPage(cursor);
      yield* page[field];
      cursor = page.nextCursor;
    } while (cursor !== undefined && cursor !== null);
  })();
}

// The loaders `setPartLoaders` was given (src/transport/parts.rs), each made to run at most once at
// a time and to keep its module once loaded; a failed load is tried again by the next call that
// needs the part. A loader that throws at once fails the same way as one whose promise rejects.
export function onceEach(loaders) {
  const parts = {};
  for (const [name, load] of Object.entries(Object(loaders))) {
    if (typeof load !== "function") continue;
    let pending;
    parts[name] = () => (pending ??= Promise.resolve().then(load).catch((error) => {
      pending = undefined;
      throw error;
    }));
  }
  return parts;
}

// The modules of the split core that the core awaits before it runs their code (the validator's:
// src/js/lazy): the loader (scripts/split/rest-loader.js) sets `partGate`, which answers a
// Promise that resolves once the module is in, or undefined when it is in already or the core is
// not split.
let partGate;
export function setPartGate(gate) {
  partGate = gate;
}
export function partReady(name) {
  return partGate?.(name);
}

// The npm package's core is two modules (scripts/split): what a long body makes the core run (a
// result left in JS, src/transport/kept.rs) is in the rest, which a page fetches after its first
// call. Its loader sets `restGate`, which resolves once the rest is in (or at once), with the load's
// failure if it failed, and never rejects; a body of `keepFrom` bytes or more waits for it before it
// reaches the core, which so never has to load the rest synchronously in the middle of a call.
let restGate;
export function setRestGate(gate) {
  restGate = gate;
}

// How requests go out and their bodies are read: the platform's `fetch` and `getReader()`, unless
// an entry replaces them (the npm package's Node entry does: pkg-template/node-fetch.js).
let sender;
export function setSender(replacement) {
  sender = replacement;
}
export function sendRequest(url, init) {
  return sender ? sender.send(url, init) : fetch(url, init);
}
export function readerOf(body) {
  return sender ? sender.reader(body) : body.getReader();
}

// A response body read to its end in one promise, so that a body of many chunks costs wasm
// one crossing instead of one per chunk. Past `max` bytes the stream is cancelled and no
// chunk is kept. Resolves to [chunks, total], chunks null past `max`, total -1 for a chunk
// that is not bytes.
export async function readChunks(reader, max) {
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return [chunks, total];
    if (!(value instanceof Uint8Array)) return [null, -1];
    total += value.length;
    if (total > max) {
      reader.cancel().catch(() => {});
      return [null, total];
    }
    chunks.push(value);
  }
}

// A request's fetch and, for a 2xx JSON answer, its body, in one promise: the body is read as soon
// as the headers come (a browser gives the connection to the next request once it is), and the core
// wakes once for the exchange instead of twice. Resolves to [response] when the body is left to the
// core (not a JSON answer, or declared longer than `max`), [response, read] with read as readChunks
// gives it, or [response, undefined, error] if the stream broke or the rest of the core, which a
// body of `keepFrom` bytes or more needs, could not be loaded; to [] if what `fetch` resolved to is
// not a Response (duck-typed, as transport::fetch::as_response does: a polyfilled or cross-realm
// Response fails instanceof). `fetchFn` null is the global fetch.
// Which answers are JSON is read as transport::http::classify reads it; should they ever disagree, the
// core reads the body itself or lets it go, so a mismatch costs time, never a verdict.
export async function fetchAnswer(fetchFn, url, init, max, keepFrom) {
  const response = await (fetchFn ?? sendRequest)(url, init);
  if (typeof response !== "object" || response === null || !("status" in response) || !("headers" in response)) return [];
  const { status, headers } = response;
  if (!(status >= 200 && status < 300) || status === 202 || status === 204 || typeof headers?.get !== "function") return [response];
  const type = headers.get("content-type");
  if (typeof type !== "string" || type.split(";")[0].trim().toLowerCase() !== "application/json") return [response];
  const declared = Number(headers.get("content-length"));
  if (declared > max || typeof response.body?.getReader !== "function") return [response];
  // A body declared long enough has the rest load while it is read.
  const loading = declared >= keepFrom && restGate ? restGate() : undefined;
  let read;
  try {
    read = await readChunks(readerOf(response.body), max);
  } catch (error) {
    return [response, undefined, error];
  }
  const failure = read[0] !== null && read[1] >= keepFrom && restGate ? await (loading ?? restGate()) : undefined;
  return failure === undefined ? [response, read] : [response, undefined, failure];
}

// An event stream read to its end in one promise: each chunk goes to `onChunk` (the core's SSE
// parser) as it arrives, without a promise of its own crossing into wasm. `onChunk` answers false
// to stop, and the stream is then cancelled; one that throws (its owner is gone) stops it too.
// Once the stream has brought `keepFrom` bytes (0: never), the next chunk waits for the rest of the
// core (see `restGate`): an event that long may be left in JS. If the rest cannot be loaded, the
// chunk goes on regardless, and the core loads the rest synchronously when it needs it, as it
// would without the gate: breaking the stream instead would only take the core to its recovery
// from a broken stream, which is in the rest too.
export async function pumpChunks(reader, onChunk, keepFrom) {
  let brought = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    brought += value?.length ?? 0;
    if (keepFrom > 0 && brought >= keepFrom && restGate) {
      keepFrom = 0;
      await restGate();
    }
    let more = false;
    try {
      more = value instanceof Uint8Array && onChunk(value);
    } catch {
      more = false;
    }
    if (!more) {
      reader.cancel().catch(() => {});
      return value instanceof Uint8Array;
    }
  }
}

// A large JSON body or SSE event data that the core left here (src/transport/kept.rs): its result,
// parsed once. The core checked it without what its checks do not read; JSON.parse refuses anything
// that is not JSON, and a body's bytes that are not UTF-8 are refused too (`lossy` is an event's
// data, which the SSE standard decodes with U+FFFD). ASCII is latin1 to Node's faster Buffer, and
// Node's `isAscii` tells in a fifth of the time the core took to (5 MiB: 0.18 against 0.76 ms), so
// the core no longer asks. The chunks are joined before one decode: JSON.parse of a rope of latin1
// chunks, which it must flatten, took 1-4 ms longer on a 5 MiB read (bench/analysis.md,
// "Twenty-eighth round").
export function parseKept(chunks, total, lossy) {
  const bytes = joined(chunks, total);
  if (nodeIsAscii?.(bytes)) return parseAscii(bytes).result;
  return JSON.parse(new TextDecoder("utf-8", { fatal: !lossy }).decode(bytes)).result;
}

// The chunks of a kept body in one run of bytes, decoded at once and then let go. The run is written
// into the buffer the last body used when it is long enough: a new buffer for every body (fresh pages
// to fault in, and memory outside the heap that the collector counts against it) made the bench's
// 5 MiB read 0.6-3.3 ms slower, the two alternating in one process (bench/analysis.md, "Thirtieth
// round"). It is held through a WeakRef, so a collection takes it back once long bodies stop coming.
let lastJoin;
function joined(chunks, total) {
  if (chunks.length === 1) return chunks[0];
  let buffer = lastJoin?.deref();
  if (buffer === undefined || buffer.length < total) {
    buffer = new Uint8Array(total);
    lastJoin = typeof WeakRef === "function" ? new WeakRef(buffer) : undefined;
  }
  let at = 0;
  for (const chunk of chunks) {
    buffer.set(chunk, at);
    at += chunk.length;
  }
  return buffer.subarray(0, at);
}

// A large result's text that the core found to be ASCII, parsed. Node's Buffer decodes ASCII four to five
// times faster than TextDecoder (5 MiB: 1.3-1.6 against 6.7-7.6 ms); for ASCII, latin1 is the same text.
// Elsewhere (browsers, where TextDecoder holds its own) the core does not ask.
const nodeBuffer = globalThis.process?.versions?.node && typeof globalThis.Buffer?.from === "function" ? globalThis.Buffer : null;
// A runtime that only imitates Node (a Worker's compatibility layer) may lack it, or throw for the name.
const nodeIsAscii = (() => {
  try {
    const check = nodeBuffer && globalThis.process.getBuiltinModule?.("node:buffer")?.isAscii;
    return typeof check === "function" ? check : null;
  } catch {
    return null;
  }
})();
export function fastAscii() { return nodeBuffer !== null; }
export function parseAscii(bytes) {
  return JSON.parse(nodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1"));
}
