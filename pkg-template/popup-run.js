// popupAuthorizer's flow, loaded when one first runs (browser-auth.js): opens the authorization
// page in a popup and waits for the callback page's answer, by message or BroadcastChannel.

// How long a popup that reads as closed is still waited on, unless the caller says otherwise.
// An authorization page sent with Cross-Origin-Opener-Policy (Microsoft's sign-in, Stripe's,
// Cognito's, Bluesky's) moves the popup out of reach: from then on it reads as closed while the
// user is still signing in there, and a closed window cannot be told apart from it. So a closed
// reading only starts this wait; the answer ends it whenever it comes, and so does the caller's
// signal (connect aborted, or timed out: the time the person takes is given back to its timeout,
// up to ten minutes).
const CLOSED_GRACE_MS = 120_000;
const WATCH_MS = 500;
const MAX_TIMER_MS = 2_147_483_647;

// Tells the callback page that its `state` belongs to a popup flow, so that it answers and closes
// even when the popup was cut off from its opener. localStorage, since the popup's copy of
// sessionStorage may not survive the move. The mark stays after a flow that failed (aborted, timed
// out, given up): a popup cut off from this page cannot be closed from here, and its callback page
// must still close without trading the code. Marks older than `life` ms (browser-auth.js's, which
// its callback page honours) are swept when a flow starts. Storage that throws (disabled,
// sandboxed) leaves only the opener to tell, as before.
function markFlow(prefix, state, life) {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return () => {};
    const now = Date.now();
    for (let i = storage.length - 1; i >= 0; i--) {
      const key = storage.key(i);
      if (key?.startsWith(prefix) && !(now - Number(storage.getItem(key)) < life)) storage.removeItem(key);
    }
    storage.setItem(prefix + state, String(now));
    return () => {
      try {
        storage.removeItem(prefix + state);
      } catch {
        // It expires in any case.
      }
    };
  } catch {
    return () => {};
  }
}

// closedGrace as a timer's delay, or null for none (Infinity: the caller's signal decides).
function graceMs(closedGrace, channel) {
  let ms = closedGrace == null ? CLOSED_GRACE_MS : Number(closedGrace);
  if (!(ms >= 0)) ms = 0;
  // Without a BroadcastChannel a popup cut off cannot answer at all: the wait is only for the
  // callback page's own closing (it posts, then closes, and the opener may see it closed first).
  if (!channel) return Math.min(ms, 1000);
  return ms === Infinity ? null : Math.min(ms, MAX_TIMER_MS);
}

/**
 * Opens `url` in the popup window `name` and resolves with the callback URL that
 * completeAuthorization() posts (as a `kind` message, or on the BroadcastChannel `channelName`)
 * for the same `state` as `url` (both read by browser-auth.js's `stateOf`). A popup that reads as closed is waited on for `closedGrace` ms more (default two minutes;
 * Infinity: until the answer or the signal).
 */
export function openPopup({ url, name, features, signal, channelName, kind, markPrefix, markLife, stateOf, closedGrace }) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const state = stateOf(url);
    const unmark = state ? markFlow(markPrefix, state, markLife) : () => {};
    const opened = globalThis.open?.(url, name, features);
    if (!opened) {
      unmark();
      reject(new Error("the browser blocked the authorization popup: connect from a user gesture, or use redirectAuthorizer()"));
      return;
    }
    const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(channelName) : null;
    let finished = false;
    const finish = (settle, value) => {
      if (finished) return;
      finished = true;
      clearInterval(watch);
      if (grace !== null) clearTimeout(grace);
      globalThis.removeEventListener?.("message", onMessage);
      signal?.removeEventListener("abort", onAbort);
      channel?.close();
      if (settle === resolve) unmark();
      settle(value);
    };
    // Only a same-origin callback page may answer (the redirect URI is ours), and only for this
    // flow: another one's popup, left open, answers with its own state.
    const onMessage = (event) => {
      const data = event.data;
      if (data?.type !== kind || typeof data.url !== "string" || event.origin !== globalThis.location.origin) return;
      if (stateOf(data.url) === state) finish(resolve, data.url);
    };
    // Nobody waits for the answer any more: the popup and its listeners go.
    const onAbort = () => {
      opened.close();
      finish(reject, signal.reason);
    };
    globalThis.addEventListener?.("message", onMessage);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (channel) channel.onmessage = onMessage;
    // A closed reading starts the grace, and the grace runs to its end: a popup cut off by its
    // page's Cross-Origin-Opener-Policy reads as closed for good.
    let grace = null;
    const wait = graceMs(closedGrace, channel);
    const watch = setInterval(() => {
      if (!opened.closed || grace !== null) return;
      clearInterval(watch);
      if (wait !== null) grace = setTimeout(() => finish(reject, new Error(closedMessage(wait))), wait);
    }, WATCH_MS);
  });
}

function closedMessage(wait) {
  const seconds = Math.round(wait / 1000);
  return `the authorization popup was closed before it finished (no answer came within ${seconds} s of the popup reading as closed, ` +
    "which it also does when the authorization page's Cross-Origin-Opener-Policy cuts it off from this page)";
}
