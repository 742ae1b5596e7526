// Browser helpers for the OAuth authorization-code flow, in plain JS: they only
// touch the page (popups, navigation, messages) or wrap connect, so they stay
// out of the wasm module. Types and docs: browser-auth.d.ts.
import { McpClient } from "./mcp_wasm.js";

const CHANNEL = "mcp-wasm-oauth";
const KIND = "mcp-wasm:oauth-callback";

export function popupAuthorizer(options) {
  const name = options?.name ?? "mcp-wasm-oauth";
  const features = options?.features ?? "popup,width=520,height=680";
  // The popup's code loads when a flow first needs it: a page that never signs in does not fetch
  // it. The user's gesture still counts then, since the flow has already waited on the network.
  return (url, context) => import("./popup-run.js").then(({ openPopup }) =>
    openPopup({ url, name, features, signal: context?.signal, channelName: CHANNEL, kind: KIND }));
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
