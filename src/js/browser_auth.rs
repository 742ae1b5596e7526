//! Browser helpers for the authorization-code flow: an `authorize` function
//! that opens the consent page in a popup, one that navigates the whole page
//! to it, and the call a callback page makes to hand the result back.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
const CHANNEL = "mcp-wasm-oauth";
const KIND = "mcp-wasm:oauth-callback";

export function popup(options) {
  const name = options?.name ?? "mcp-wasm-oauth";
  const features = options?.features ?? "popup,width=520,height=680";
  return (url) => new Promise((resolve, reject) => {
    const opened = globalThis.open(url, name, features);
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
      globalThis.removeEventListener?.("message", onMessage);
      channel?.close();
      settle(value);
    };
    // Only a same-origin callback page may answer: the redirect URI is ours.
    const onMessage = (event) => {
      const data = event.data;
      if (data?.type === KIND && typeof data.url === "string" && event.origin === globalThis.location.origin) finish(resolve, data.url);
    };
    globalThis.addEventListener?.("message", onMessage);
    if (channel) channel.onmessage = onMessage;
    const watch = setInterval(() => {
      if (opened.closed) finish(reject, new Error("the authorization popup was closed before it finished"));
    }, 500);
  });
}

export function redirect() {
  return (url) => {
    globalThis.location.assign(url);
    // The page is leaving; connect() finishes on the callback page with callbackUrl.
    return new Promise(() => {});
  };
}

export function complete() {
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
"#)]
extern "C" {
    fn popup(options: &JsValue) -> JsValue;
    fn redirect() -> JsValue;
    fn complete() -> bool;
}

/// An `authorize` function for {@link AuthOptions} that opens the consent page
/// in a popup and resolves when the callback page calls
/// {@link completeAuthorization}. Call `connect` from a user gesture, or the
/// browser may block the popup (which rejects with a clear `auth` error).
#[wasm_bindgen(js_name = popupAuthorizer, unchecked_return_type = "(authorizationUrl: string) => Promise<string>")]
pub fn popup_authorizer(
    #[wasm_bindgen(unchecked_optional_param_type = "{ name?: string; features?: string }")] options: JsValue,
) -> JsValue {
    popup(&options)
}

/// An `authorize` function that sends the whole page to the consent page. The
/// pending authorization waits in `auth.storage`; on the callback page, call
/// `connect` again with `auth.callbackUrl: location.href` to finish.
#[wasm_bindgen(js_name = redirectAuthorizer, unchecked_return_type = "(authorizationUrl: string) => Promise<string>")]
pub fn redirect_authorizer() -> JsValue {
    redirect()
}

/// For the redirect URI's page in a popup flow: hands the callback URL to the
/// page that opened the popup (by `postMessage` and `BroadcastChannel`) and
/// closes the popup. Returns whether there was an opener.
#[wasm_bindgen(js_name = completeAuthorization)]
pub fn complete_authorization() -> bool {
    complete()
}
