// popupAuthorizer's flow, loaded when one first runs (browser-auth.js): opens the authorization
// page in a popup and waits for the callback page's answer, by message or BroadcastChannel.

const CLOSED_GRACE_MS = 1000;

// The `state` parameter of an authorization URL or a callback URL.
function stateOf(url) {
  try {
    return new URL(url).searchParams.get("state");
  } catch {
    return null;
  }
}

/**
 * Opens `url` in the popup window `name` and resolves with the callback URL that
 * completeAuthorization() posts (as a `kind` message, or on the BroadcastChannel `channelName`).
 */
export function openPopup({ url, name, features, signal, channelName, kind }) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const opened = globalThis.open?.(url, name, features);
    if (!opened) {
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
      settle(value);
    };
    // Only a same-origin callback page may answer (the redirect URI is ours), and only for this
    // flow: another one's popup, left open, answers with its own state.
    const state = stateOf(url);
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
    // The callback page posts its answer and then closes itself, and the opener can see the
    // popup closed before that message is delivered (seen under load): a closed popup is
    // a refusal only if no answer arrives within a grace period.
    let grace = null;
    const watch = setInterval(() => {
      if (!opened.closed || grace !== null) return;
      clearInterval(watch);
      grace = setTimeout(() => finish(reject, new Error("the authorization popup was closed before it finished")), CLOSED_GRACE_MS);
    }, 500);
  });
}
