// The browser OAuth flows that need a peer of their own, started on a port the OS picks (the
// shared peer's state and settings stay untouched): a server that moves to another authorization
// server, and DPoP with nonces, its key kept in IndexedDB across a reload. Each takes what the
// runner shares: the browser context, `openApp()`, and `check(ok, what, detail)`.
import { startPeer } from "../support/peer-process.mjs";

// offline_access is asked for because the authorization server advertises it.
const WHOAMI = /^client_id=(client-\S+) scopes=mcp:read( offline_access)?$/;

async function oauthPeer(env = {}) {
  const peer = await startPeer("tests/peers/oauth-server.mjs", { env });
  const stats = async () => (await fetch(`${peer.origin}/__stats`)).json();
  const control = async (route) => {
    const answer = await fetch(`${peer.origin}${route}`, { method: "POST" });
    if (!answer.ok) throw new Error(`${route}: HTTP ${answer.status}`);
  };
  return { ...peer, server: `${peer.origin}/mcp`, stats, control };
}

/** Opens the consent page `start()` leads to, checks it, and presses Allow; resolves with what `start` resolved with. */
async function consent(ctx, start, inspect = () => {}) {
  const opened = ctx.waitForEvent("page");
  const connected = start();
  const popup = await opened;
  await popup.waitForSelector("[data-testid=allow]");
  inspect(new URL(await popup.url()));
  await popup.click("[data-testid=allow]");
  return connected;
}

export async function issuerSwitch({ ctx, openApp, check }, peers) {
  const peer = await oauthPeer();
  peers.push(peer);
  const page = await openApp();
  const first = await consent(ctx, () => page.evaluate((server) => window.connectWithPopup({ server }), peer.server));
  check(WHOAMI.test(first), "issuer switch: signed in at the first authorization server", first);

  await peer.control("/__switch-as");
  const second = await consent(ctx, () => page.evaluate(() => window.callAgain()),
    (url) => check(url.pathname === "/as2/authorize", "the refused token leads to the new server's consent page", url.href));
  const s = await peer.stats();
  const secondClient = second.match(WHOAMI)?.[1];
  check(s.as2.issued.clientIds.includes(secondClient) && s.as2.registrations === 1,
    "the call goes on with a token of a client registered at the new server", second);
  const shown = ["clientIds", "secrets", "refreshTokens"].flatMap((kind) => s.as2.seen[kind].filter((v) => s.issued[kind].includes(v)));
  check(s.as2.seen.clientIds.length > 0 && shown.length === 0, "the new server was shown nothing the first one issued", JSON.stringify(s.as2.seen));
  check(s.refreshes === 0, "the first server's refresh token was not spent on the switch");
  await page.close();
}

/** Every CryptoKey pair the page's IndexedDB holds, described. */
function storedKeyPairs(page) {
  return page.evaluate(async () => {
    const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
    const pairs = [];
    for (const { name } of await indexedDB.databases()) {
      const db = await request(indexedDB.open(name));
      for (const store of db.objectStoreNames) {
        for (const value of await request(db.transaction(store).objectStore(store).getAll())) {
          if (value?.privateKey instanceof CryptoKey) {
            const { privateKey, publicKey } = value;
            pairs.push({ algorithm: `${privateKey.algorithm.name} ${privateKey.algorithm.namedCurve}`, privateExtractable: privateKey.extractable,
              usages: privateKey.usages.join(), publicKey: publicKey instanceof CryptoKey });
          }
        }
      }
      db.close();
    }
    return pairs;
  });
}

export async function dpopAcrossReload({ ctx, openApp, check }, peers) {
  const peer = await oauthPeer({ DPOP_NONCE: "both" });
  peers.push(peer);
  const page = await openApp();
  const identity = await consent(ctx, () => page.evaluate((server) => window.connectWithPopup({ server, dpop: true }), peer.server));
  check(WHOAMI.test(identity), "DPoP popup flow: connect resolves and the tool sees the token", identity);
  let s = await peer.stats();
  check(s.dpopGrants === 1 && s.mcp.dpop >= 1 && Object.keys(s.dpop.refused).length === 0,
    "the token is DPoP-bound, and every proof the page signed was accepted", JSON.stringify({ grants: s.dpopGrants, mcp: s.mcp, refused: s.dpop.refused }));
  check(s.dpop.nonceChallenges.as === 1, "the page read the cross-origin DPoP-Nonce and answered use_dpop_nonce once");
  const keys = await storedKeyPairs(page);
  check(keys.length === 1 && keys[0].algorithm === "ECDSA P-256" && keys[0].privateExtractable === false && keys[0].usages === "sign" && keys[0].publicKey,
    "IndexedDB holds one ES256 key pair whose private key cannot be exported", JSON.stringify(keys));
  const keysBefore = new Set(s.dpop.proofs.map((p) => p.jkt));

  await page.reload();
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready");
  const before = s;
  const again = await page.evaluate((server) => window.connectFromStorage({ server, dpop: true }), peer.server);
  s = await peer.stats();
  check(WHOAMI.test(again) && s.approvals === before.approvals && s.registrations === before.registrations &&
    s.grants.authorization_code === before.grants.authorization_code && s.mcp.dpop > before.mcp.dpop,
  "after a reload the DPoP token in sessionStorage is still usable: no consent, no new token", again);
  const keysAfter = new Set(s.dpop.proofs.map((p) => p.jkt));
  check(keysBefore.size === 1 && keysAfter.size === 1 && [...keysAfter][0] === [...keysBefore][0], "the proofs after the reload are signed by the same key");

  // The refresh token is bound to the key too, so a silent refresh after the reload needs it.
  await peer.control("/__expire");
  const refreshed = await page.evaluate(() => window.callAgain().catch((e) => `${e.name} ${e.kind}: ${e.message}`));
  s = await peer.stats();
  check(WHOAMI.test(refreshed) && s.refreshes === 1 && s.approvals === before.approvals,
    "after the reload an expired token is refreshed silently with the kept key", `${refreshed}; refreshes ${s.refreshes}`);
  await page.close();
}
