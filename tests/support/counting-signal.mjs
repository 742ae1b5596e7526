// A stand-in for a page's long-lived AbortSignal that counts the listeners added to it and not
// removed: what a client or host that forgets to let go would leave behind.
export function countingSignal() {
  const held = new Set();
  const signal = {
    aborted: false,
    reason: undefined,
    addEventListener: (type, listener) => held.add(listener),
    removeEventListener: (type, listener) => held.delete(listener),
  };
  return { signal, held };
}
