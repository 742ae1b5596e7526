// Authorization servers that change under the client: what one issuer handed out
// (client id, secret, code, tokens) must never reach another, credentials
// pinned to an issuer must not be offered elsewhere, and a request carrying
// credentials must not follow a redirect to another origin.
import { McpClient } from "mcp-wasm";
import { describe, expectEcho, expectFailure, settle } from "../expect.mjs";

// The "user" of the code flow: fetch follows the authorization server's 302 to
// the peer's /callback, whose URL carries code, state and iss.
const authorize = async (url) => (await fetch(url)).url;
const codeFlow = (peer) => ({ redirectUri: `${peer.origin}/callback`, authorize, storage: "memory" });
const echo = { name: "echo", arguments: { message: "still here" } };

/** What `from` handed out that appears anywhere in what `to` received. */
function leaked(stats, from, to) {
  const received = JSON.stringify(stats.received[to]);
  return stats.handedOut[from].filter(({ value }) => received.includes(value) || received.includes(encodeURIComponent(value)));
}
const kinds = (given) => new Set(given.map(({ kind }) => kind));

export async function issuerSwitch({ check, peer, track }) {
  const attack = "oauth-switch";
  const client = track(await McpClient.connect(peer.url(attack), { timeout: 5_000, auth: codeFlow(peer) }));
  await expectEcho(check, client, "a call with the first token");
  const before = await peer.stats(attack);
  const fromAs1 = kinds(before.handedOut.as1);
  check(before.accepted.at(-1)?.as === "as1" && ["client_id", "client_secret", "refresh_token"].every((k) => fromAs1.has(k)),
    "the first token comes from AS1, with a registration, a client secret and a refresh token", [...fromAs1].join(", "));

  await peer.control(attack, { authorizationServer: "as2" });
  await expectEcho(check, client, "after the metadata names AS2 and AS1's tokens are refused, the next call");
  const after = await peer.stats(attack);
  check(after.accepted.at(-1)?.as === "as2", "that call carries a token from AS2", JSON.stringify(after.accepted.at(-1)));
  check(after.received.as2.some((r) => r.method === "POST" && r.url.endsWith("/as2/register")), "the client registered anew at AS2");
  const leaks = leaked(after, "as1", "as2");
  check(leaks.length === 0, "AS2 never received AS1's client id, client secret, code, access token or refresh token",
    leaks.map((l) => l.kind).join(", "));
}

export async function pinnedIssuer({ check, peer, track }) {
  const attack = "oauth-pinned";
  const { client_id: clientId, client_secret: clientSecret } = (await peer.stats(attack)).preRegistered.as1;
  const options = { timeout: 5_000, auth: { grant: "client_credentials", clientId, clientSecret, issuer: peer.url(attack, "as1"), storage: "memory" } };

  await peer.control(attack, { authorizationServer: "as2" });
  await expectFailure(check, "connect with client credentials pinned to AS1 while the metadata names AS2",
    McpClient.connect(peer.url(attack), options), "auth");
  await peer.control(attack, { authorizationServer: "as1" });
  const client = track(await McpClient.connect(peer.url(attack), options));
  await expectEcho(check, client, "with the metadata naming AS1, a call");
  await peer.control(attack, { authorizationServer: "as2" });
  await expectFailure(check, "when the metadata switches to AS2, the next call", client.callTool(echo), "auth");

  const { received } = await peer.stats(attack);
  check(received.as2.every((r) => r.method === "GET" && r.authorization === null), "AS2 only had its metadata read: no registration, no token request",
    received.as2.map((r) => `${r.method} ${r.url}`).join(", "));
  check(!JSON.stringify(received.as2).includes(clientSecret), "AS2 never received the pinned client secret");
  await peer.control(attack, { authorizationServer: "as1" });
  await expectEcho(check, client, "back on AS1, the next call on the same client");
}

export async function credentialRedirect({ check, peer, track }) {
  const attack = "oauth-redirect";
  const client = track(await McpClient.connect(peer.url(attack), { timeout: 5_000, auth: codeFlow(peer) }));
  await expectEcho(check, client, "a call with the first token");
  await peer.control(attack, { tokenRedirect: true, expireAccessTokens: true });
  const refused = await expectFailure(check, "a call whose token expired, when the token endpoint answers 307 to another origin",
    client.callTool(echo), "auth");
  const stats = await peer.stats(attack);
  check(stats.redirectsServed > 0, "the token endpoint did answer with the redirect", `${stats.redirectsServed} redirects`);
  check(stats.otherOrigin.length === 0, "the other origin never received a request", JSON.stringify(stats.otherOrigin).slice(0, 300));
  await peer.control(attack, { tokenRedirect: false });
  await expectEcho(check, client, "with the token endpoint answering again, the next call on the same client");
  // Advice to route the request through a CORS proxy would send the credentials to one that follows redirects.
  check(!/CORS|corsProxy/i.test(refused.message), "the error names the refused redirect, not CORS or a proxy", refused.message);
}

/** A Web-Storage-shaped object over a Map, so that a test can count what the client keeps. */
function countedStorage() {
  const items = new Map();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
  };
}

// A server naming a new authorization server at every 401: the client registers at each, but keeps
// the registrations and tokens of the last 8 only.
export async function issuerChurn({ check, peer, track }) {
  const attack = "oauth-churn";
  const storage = countedStorage();
  const client = track(await McpClient.connect(peer.url(attack), { timeout: 5_000, auth: { ...codeFlow(peer), storage } }));
  await expectEcho(check, client, "a call with AS1's token");
  for (let n = 2; n <= 21; n += 1) {
    await peer.control(attack, { authorizationServer: `as${n}` });
    await expectEcho(check, client, `after the metadata names AS${n}, the next call`);
  }
  const stats = await peer.stats(attack);
  check(stats.accepted.at(-1)?.as === "as21" && stats.received.as21.some((r) => r.url.endsWith("/register")),
    "the last call carries a token from AS21, where the client registered", JSON.stringify(stats.accepted.at(-1)));
  const keys = [...storage.items.keys()];
  const issuersKept = new Set(keys.map((key) => /\/(as\d+):(client|tokens)$/.exec(key)?.[1]).filter(Boolean));
  check(issuersKept.size === 8 && [14, 21].every((n) => issuersKept.has(`as${n}`)) && !issuersKept.has("as13"),
    "the storage keeps the registrations and tokens of the last 8 authorization servers only", [...issuersKept].join(", "));
  check(keys.length <= 8 * 2 + 2, "… in at most 18 keys", `${keys.length} keys: ${keys.join(", ").slice(0, 400)}`);
  await peer.control(attack, { authorizationServer: "as1" });
  await expectEcho(check, client, "back on AS1, whose registration was forgotten, the next call");
  const registeredAgain = (await peer.stats(attack)).received.as1.filter((r) => r.url.endsWith("/register")).length;
  check(registeredAgain === 2, "the client registered at AS1 again", `${registeredAgain} registrations`);
}

/** An access token with a line break, which no Authorization header can carry: refused when issued. */
export async function brokenToken({ check, peer, track }) {
  const attack = "oauth-pinned";
  const { client_id: clientId, client_secret: clientSecret } = (await peer.stats(attack)).preRegistered.as1;
  const options = { timeout: 5_000, auth: { grant: "client_credentials", clientId, clientSecret, issuer: peer.url(attack, "as1"), storage: "memory" } };
  await peer.control(attack, { brokenTokens: true });
  const refused = await expectFailure(check, "connect when the token endpoint issues an access token with a line break",
    McpClient.connect(peer.url(attack), options).then(track), "auth");
  check(/access_token/.test(refused?.message ?? ""), "… says the access token is what is wrong", refused?.message);
  await peer.control(attack, { brokenTokens: false });
  const client = track(await McpClient.connect(peer.url(attack), options));
  await expectEcho(check, client, "once it issues usable tokens, a call");
}

/**
 * A token endpoint that never answers, met by a call once the access token expired: close() fails
 * the call with closed at once, and hangs up on the token request, though it is no MCP request.
 */
export async function heldTokenRequest({ check, peer, track }) {
  const attack = "oauth-held";
  const { client_id: clientId, client_secret: clientSecret } = (await peer.stats(attack)).preRegistered.as1;
  const options = { timeout: 30_000, auth: { grant: "client_credentials", clientId, clientSecret, issuer: peer.url(attack, "as1"), storage: "memory" } };
  const client = track(await McpClient.connect(peer.url(attack), options));
  await peer.control(attack, { expireAccessTokens: true, holdTokens: true });
  const call = settle(client.callTool(echo), 3_000);
  let stats = await peer.stats(attack);
  for (let waited = 0; stats.tokensHeld < 1 && waited < 2_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    stats = await peer.stats(attack);
  }
  check(stats.tokensHeld === 1, "a call once the access token expired asks for a new one, which is held", JSON.stringify(stats.tokensHeld));
  await client.close();
  const { error, hung } = await call;
  check(!hung && error?.name === "McpClientError" && error.kind === "closed", "close() fails that call with closed",
    hung ? "it hung" : describe(error));
  for (let waited = 0; stats.tokensLetGo < 1 && waited < 1_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    stats = await peer.stats(attack);
  }
  check(stats.tokensLetGo === 1, "… and hangs up on the token request", JSON.stringify(stats.tokensLetGo));
}
