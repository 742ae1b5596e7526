// popupAuthorizer's flow, loaded when one first runs (browser-auth.js): opens the authorization
// page in a popup and waits for the callback page's answer, by message or BroadcastChannel.

// How long a popup that reads as closed is still waited on, unless the caller says otherwise.
// An authorization page sent with Cross-Origin-Opener-Policy (Microsoft's sign-in, Stripe's,
// Cognito's, Bluesky's) moves the popup out of reach: from then on it reads as closed while the
// user is still signing in there, and a closed window cannot be told apart from it. So a closed
// reading only starts this wait, long enough for a sign-in with a second factor; the answer ends
// it whenever it comes, and the caller's signal (connect's timeout) at any time.
const CLOSED_GRACE_MS = 120_000;
const WATCH_MS = 500;

// The `state` parameter of an authorization URL or a callback URL.
function stateOf(url) {
  try {
    return new URL(url).searchParams.get("state");
  } catch {
    return null;
  }
}

// Tells the callback page that its `state` belongs to a popup flow, so that it answers and closes
// even when the popup was cut off from its opener. localStorage, since the popup's copy of
// sessionStorage may not survive the move. Storage that throws (disabled, sandboxed) leaves only
// the opener to tell, as before.
function markFlow(key) {
  try {
    globalThis.localStorage?.setItem(key, String(Date.now()));
    return () => {
      try {
        globalThis.localStorage?.removeItem(key);
      } catch {
        // The mark outlives the flow: it names one state, which no other flow will have.
      }
    };
  } catch {
    return () => {};
  }
}

/**
 * Opens `url` in the popup window `name` and resolves with the callback URL that
 * completeAuthorization() posts (as a `kind` message, or on the BroadcastChannel `channelName`).
 * A popup that reads as closed is waited on for `closedGrace` ms more (default two minutes).
 */
export function openPopup({ url, name, features, signal, channelName, kind, markPrefix, closedGrace = CLOSED_GRACE_MS }) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const state = stateOf(url);
    const unmark = state ? markFlow(markPrefix + state) : () => {};
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
      unmark();
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
    // page's Cross-Origin-Opener-Policy reads as closed for good. Without a BroadcastChannel a
    // popup cut off cannot answer at all, and the wait is only the callback page's own closing
    // (it posts, then closes, and the opener may see it closed before the message arrives).
    let grace = null;
    const wait = channel ? Math.max(0, Number(closedGrace) || 0) : Math.min(1000, Math.max(0, Number(closedGrace) || 0));
    const watch = setInterval(() => {
      if (!opened.closed || grace !== null) return;
      clearInterval(watch);
      grace = setTimeout(() => finish(reject, new Error(closedMessage(wait))), wait);
    }, WATCH_MS);
  });
}

function closedMessage(wait) {
  const seconds = Math.round(wait / 1000);
  return `the authorization popup was closed before it finished (no answer came within ${seconds} s of the popup reading as closed, ` +
    "which it also does when the authorization page's Cross-Origin-Opener-Policy cuts it off from this page)";
}
