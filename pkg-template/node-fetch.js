// How the Node entry sends requests. Node's fetch (undici) clones every request whose redirect mode
// is not "error" before sending it, teeing its body's stream: about 10 % of the CPU of a small call
// (bench/analysis.md, "Thirty-eighth round"). Here a request that leaves the mode to the default goes
// with "error" first; a URL that answers with a redirect is sent again as asked, and from then on
// (up to `REDIRECTED_MAX` URLs are remembered). So the first request to a URL that redirects reaches
// it twice: once answered with the redirect, once followed.
//
// Without the clone, undici follows the request's signal through a weak reference only, and loses an
// abort once a collection has taken its inner Request: the body it answered would go on streaming. So
// the request's own signal cancels such a body, unread (`Held`) or while it is read (`HeededReader`).
// The glue's module, as mcp_wasm.js hands it over (scripts/fold-glue.mjs).
import { __glue } from "./mcp_wasm.js";

const REDIRECTED_MAX = 64;
const platformFetch = globalThis.fetch;
// Only the fetch Node ships: one a tool put in its place before this module loaded (a mock, an
// interceptor, an APM agent) gets requests as the core makes them, as a later replacement does.
const isNodes = typeof platformFetch === "function" && /internal\/deps\/undici/.test(Function.prototype.toString.call(platformFetch));
const redirected = new Set();
// A body → its `Held`.
const held = new WeakMap();

async function send(url, init) {
  if (globalThis.fetch !== platformFetch || init.redirect !== undefined || redirected.has(url)) return globalThis.fetch(url, init);
  init.redirect = "error";
  let response;
  try {
    response = await platformFetch(url, init);
  } catch (error) {
    if (error?.cause?.message !== "unexpected redirect" || init.signal?.aborted) throw error;
    if (redirected.size >= REDIRECTED_MAX) redirected.clear();
    redirected.add(url);
    init.redirect = undefined;
    return platformFetch(url, init);
  }
  if (init.signal && response.body) held.set(response.body, new Held(response.body, init.signal));
  return response;
}

function reader(body) {
  const plain = body.getReader();
  const hold = held.get(body);
  if (hold === undefined) return plain;
  hold.reader = plain;
  return new HeededReader(plain, hold);
}

// A body that its request's signal cancels when it aborts, through its reader once it has one. One
// listener per signal serves every request the signal goes with (a signal serves up to 32:
// src/transport/fetch.rs, `USES_MAX`), rather than one added and removed for each. A body leaves its
// signal's set once read to its end, failed or cancelled by its reader; one the core lets go of
// unread stays until the signal aborts or goes.
const bySignal = new WeakMap();
class Held {
  constructor(body, signal) {
    this.body = body;
    this.signal = signal;
    this.reader = undefined;
    if (signal.aborted) return void this.wake();
    let holds = bySignal.get(signal);
    if (holds === undefined) {
      const live = (holds = new Set());
      bySignal.set(signal, live);
      signal.addEventListener("abort", () => {
        for (const hold of live) hold.wake();
        live.clear();
      }, { once: true });
    }
    holds.add(this);
  }

  wake() {
    (this.reader ?? this.body).cancel().catch(() => {});
  }

  release() {
    bySignal.get(this.signal)?.delete(this);
  }
}

// A body's reader that ends when the request's signal aborts, as undici's own would: a pending read
// is woken (the stream is cancelled) and throws the signal's reason, never a plain end of the body.
// Rust calls only `cancel()` on it (transport::fetch::BodyReader), the glue `read()` too.
class HeededReader {
  constructor(reader, hold) {
    this.reader = reader;
    this.hold = hold;
  }

  async read() {
    const { signal } = this.hold;
    try {
      const chunk = await this.reader.read();
      if (signal.aborted) throw signal.reason;
      if (chunk.done) this.hold.release();
      return chunk;
    } catch (error) {
      this.hold.release();
      throw error;
    }
  }

  cancel(reason) {
    this.hold.release();
    return this.reader.cancel(reason);
  }
}

if (isNodes) __glue.setSender({ send, reader });
