// The "user" of the Node OAuth tests: given an authorization URL, it reads the real consent
// page of tests/peers/oauth-server.mjs (either authorization server) and presses a button,
// then hands the client the URL the server redirected back to.
import assert from "node:assert/strict";

/** `authorize` goes into `auth`; `pages` are the authorization URLs the user was shown. */
export function consentingUser(decision = "allow") {
  const pages = [];
  const authorize = async (url) => {
    pages.push(url);
    const page = await (await fetch(url)).text();
    const txn = page.match(/name="txn" value="([^"]+)"/)?.[1];
    const action = page.match(/<form method="post" action="([^"]+)"/)?.[1];
    assert.ok(txn && action, `the consent page carries its transaction and form: ${page.slice(0, 200)}`);
    const answer = await fetch(new URL(action, url), {
      method: "POST", redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ txn, decision }),
    });
    return answer.headers.get("location");
  };
  return { authorize, pages, scopes: () => pages.map((url) => new URL(url).searchParams.get("scope")) };
}

/** Connect options for the authorization-code flow with `user`; `auth` adds to or overrides them. */
export function codeFlow(user, auth = {}) {
  return { auth: { redirectUri: "http://127.0.0.1:38061/callback", clientName: "mcp-wasm node test", authorize: user.authorize, ...auth }, timeout: 10_000 };
}
