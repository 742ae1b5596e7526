// Browser helpers for the OAuth authorization-code flow, in plain JS: they only
// touch the page (popups, navigation, messages) or wrap connect, so they stay
// out of the wasm module. Types and docs: browser-auth.d.ts.
import { McpClient } from "./mcp_wasm.js";

const CHANNEL = "mcp-wasm-oauth";
const KIND = "mcp-wasm:oauth-callback";
// localStorage keys that mark a state as a popup flow's (popup-run.js), so that its callback page
// knows itself for a popup's even when the popup was cut off from its opener.
const MARK = "mcp-wasm-oauth-popup:";
// How long a mark counts (popup-run.js keeps it after a flow that failed, then sweeps it).
const MARK_LIFE_MS = 3_600_000;
// The sessionStorage key that holds the `state` of the redirect flow this tab left for: its
// callback page must finish the flow itself even when the tab has an opener (an app opened by
// another page's window.open), which would otherwise read as a popup's and close the tab.
const REDIRECT = "mcp-wasm-oauth-redirect";

export function popupAuthorizer(options) {
  const name = options?.name ?? "mcp-wasm-oauth";
  const features = options?.features ?? "popup,width=520,height=680";
  const closedGrace = options?.closedGrace;
  // The popup's code loads when a flow first needs it: a page that never signs in does not fetch
  // it. The user's gesture still counts then, since the flow has already waited on the network.
  return (url, context) => import("./popup-run.js").then(({ openPopup }) =>
    openPopup({ url, name, features, signal: context?.signal, channelName: CHANNEL, kind: KIND, markPrefix: MARK, markLife: MARK_LIFE_MS, stateOf, closedGrace }));
}

export function redirectAuthorizer() {
  return (url) => {
    try {
      const state = stateOf(url);
      if (state !== null) globalThis.sessionStorage?.setItem(REDIRECT, state);
    } catch {
      // Storage that throws leaves only the opener to tell, as before.
    }
    globalThis.location.assign(url);
    // The page is leaving; connect() finishes on the callback page with callbackUrl.
    return new Promise(() => {});
  };
}

export function completeAuthorization() {
  if (redirectedHere()) return false;
  // A popup whose authorization page had a Cross-Origin-Opener-Policy has no opener any more,
  // yet it must not finish the flow itself: its opener trades the code, which can be traded once.
  const opener = globalThis.opener;
  const popup = Boolean(opener) || markedPopup();
  const message = { type: KIND, url: globalThis.location.href };
  if (opener && !opener.closed) opener.postMessage(message, globalThis.location.origin);
  if (typeof BroadcastChannel === "function") {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage(message);
    channel.close();
  }
  if (popup) globalThis.close();
  return popup;
}

// Whether this tab left for the authorization page with this page's `state` (redirectAuthorizer).
// The key stays until the tab's next redirect flow, so that a reloaded callback page still knows.
function redirectedHere() {
  try {
    const state = stateOf(globalThis.location.href);
    return state !== null && globalThis.sessionStorage?.getItem(REDIRECT) === state;
  } catch {
    return false;
  }
}

// Whether popup-run.js marked this page's `state` as a popup flow's within the last hour.
function markedPopup() {
  try {
    const state = stateOf(globalThis.location.href);
    const marked = state === null ? null : globalThis.localStorage?.getItem(MARK + state);
    return marked != null && Date.now() - Number(marked) < MARK_LIFE_MS;
  } catch {
    return false;
  }
}

// The `state` parameter of an authorization URL or a callback URL (popup-run.js's too).
function stateOf(url) {
  try {
    return new URL(url).searchParams.get("state");
  } catch {
    return null;
  }
}

export function finishAuth(target, callbackUrl, options = {}) {
  return McpClient.connect(target, { ...options, auth: { ...options.auth, callbackUrl: String(callbackUrl) } });
}
