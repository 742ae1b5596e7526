// How the Node entry sends requests. Node's fetch (undici) clones every request whose redirect mode
// is not "error" before sending it, teeing its body's stream: about 15 % of the CPU of a small call
// (bench/analysis.md, "Thirty-eighth round"). Here a request that leaves the mode to the default goes
// with "error" first; a URL that answers with a redirect is sent again as asked, and from then on
// (up to `REDIRECTED_MAX` URLs are remembered).
//
// Without the clone, undici follows the request's signal through a weak reference only, and loses an
// abort once a collection has taken its inner Request: the body it answered would go on streaming. So
// such a body is read through `HeededReader`, which cancels it when the signal aborts.
// The glue's module is named by scripts/build.sh.
import { setSender } from "./glue-snippet.js";

const REDIRECTED_MAX = 64;
const platformFetch = globalThis.fetch;
const redirected = new Set();
// A body → the signal of the request it answers.
const signals = new WeakMap();

async function send(url, init) {
  // Only undici as Node ships it: a fetch put in its place (a mock, an interceptor) gets the
  // request as the core made it.
  if (globalThis.fetch !== platformFetch || init.redirect !== undefined || redirected.has(url)) return globalThis.fetch(url, init);
  init.redirect = "error";
  let response;
  try {
    response = await platformFetch(url, init);
  } catch (error) {
    if (!/redirect/.test(error?.cause?.message) || init.signal?.aborted) throw error;
    if (redirected.size >= REDIRECTED_MAX) redirected.clear();
    redirected.add(url);
    init.redirect = undefined;
    return platformFetch(url, init);
  }
  if (init.signal && response.body) signals.set(response.body, init.signal);
  return response;
}

function reader(body) {
  const signal = signals.get(body);
  const plain = body.getReader();
  return signal === undefined ? plain : new HeededReader(plain, signal);
}

// A body's reader that ends when the request's signal aborts, as undici's own would: a pending read
// is woken (the stream is cancelled) and throws the signal's reason. It listens from the start until
// the body ends, fails or is cancelled.
class HeededReader {
  constructor(reader, signal) {
    this.reader = reader;
    this.signal = signal;
    this.wake = () => reader.cancel().catch(() => {});
    if (signal.aborted) this.wake();
    else signal.addEventListener("abort", this.wake, { once: true });
  }

  async read() {
    let chunk;
    try {
      chunk = await this.reader.read();
    } catch (error) {
      this.release();
      throw error;
    }
    if (this.signal.aborted) {
      this.release();
      throw this.signal.reason;
    }
    if (chunk.done) this.release();
    return chunk;
  }

  cancel(reason) {
    this.release();
    return this.reader.cancel(reason);
  }

  release() {
    this.signal.removeEventListener("abort", this.wake);
  }
}

if (typeof platformFetch === "function" && globalThis.process?.versions?.undici) setSender({ send, reader });
