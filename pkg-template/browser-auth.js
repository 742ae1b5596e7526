// Browser helpers for the OAuth authorization-code flow, in plain JS: they only
// touch the page (popups, navigation, messages) or wrap connect, so they stay
// out of the wasm module. Types and docs: browser-auth.d.ts.
import { McpClient } from "./mcp_wasm.js";

const CHANNEL = "mcp-wasm-oauth";
const KIND = "mcp-wasm:oauth-callback";
const CLOSED_GRACE_MS = 1000;

// The `state` parameter of an authorization URL or a callback URL.
function stateOf(url) {
  try {
    return new URL(url).searchParams.get("state");
  } catch {
    return null;
  }
}

export function popupAuthorizer(options) {
  const name = options?.name ?? "mcp-wasm-oauth";
  const features = options?.features ?? "popup,width=520,height=680";
  return (url, context) => new Promise((resolve, reject) => {
    const signal = context?.signal;
    if (signal?.aborted) return reject(signal.reason);
    const opened = globalThis.open?.(url, name, features);
    if (!opened) {
      reject(new Error("the browser blocked the authorization popup: connect from a user gesture, or use redirectAuthorizer()"));
      return;
    }
    const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
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
      if (data?.type !== KIND || typeof data.url !== "string" || event.origin !== globalThis.location.origin) return;
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

export function redirectAuthorizer() {
  return (url) => {
    globalThis.location.assign(url);
    // The page is leaving; connect() finishes on the callback page with callbackUrl.
    return new Promise(() => {});
  };
}

export function completeAuthorization() {
  const message = { type: KIND, url: globalThis.location.href };
  const opener = globalThis.opener;
  if (opener && !opener.closed) opener.postMessage(message, globalThis.location.origin);
  if (typeof BroadcastChannel === "function") {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage(message);
    channel.close();
  }
  if (opener) globalThis.close();
  return Boolean(opener);
}

export function finishAuth(target, callbackUrl, options = {}) {
  return McpClient.connect(target, { ...options, auth: { ...options.auth, callbackUrl: String(callbackUrl) } });
}
