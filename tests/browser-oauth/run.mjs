// OAuth in a headless browser, the way a web app does it: the consent page opens
// in a popup (popupAuthorizer + completeAuthorization), then a full-page
// redirect (redirectAuthorizer + callbackUrl), against tests/peers/oauth-server.mjs
// (scripts/peers.sh names it in MCP_OAUTH_TEST_URL). A "user" (playwright in Chromium,
// WebDriver in Firefox) presses Allow on the real consent page.
// Then, on peers of their own (own-peers.mjs): a server that moves to another
// authorization server, and DPoP with nonces, its key kept across a reload.
//
//   node tests/browser-oauth/run.mjs [chromium|firefox]   # needs the built pkg/ and the oauth peer
//
// Prints one `ok …` line per check and `browser-oauth: N checks passed`; exits 0 or 1.
import http from "node:http";
import { checkList, openBrowser, releaseBrowser, servePages } from "../support/browser.mjs";
import { startPeer } from "../support/peer-process.mjs";
import { dpopAcrossReload, issuerSwitch } from "./own-peers.mjs";

const BROWSER = process.argv[2] ?? "chromium";
const AS = process.env.MCP_OAUTH_TEST_URL ?? "http://127.0.0.1:38060";
const STEP_TIMEOUT_MS = 20_000;
const OVERALL_TIMEOUT_MS = 120_000;
// offline_access is asked for because the authorization server advertises it.
const WHOAMI = /^client_id=client-\S+ scopes=mcp:read( offline_access)?$/;

const browser = {};
// The same pages, served cross-origin isolated (COOP same-origin, COEP require-corp) from another origin.
const isolated = {};
const ownPeers = [];
let ctx;
const { check, count } = checkList();

async function finish(error) {
  if (error) console.log(`FAIL browser-oauth (${BROWSER}): ${error.message}`);
  else console.log(`browser-oauth (${BROWSER}): ${count()} checks passed`);
  await releaseBrowser(browser);
  await releaseBrowser(isolated);
  if (noCorsPeer && noCorsPeer.child.exitCode === null) noCorsPeer.child.kill("SIGTERM");
  proxy?.close();
  for (const peer of ownPeers) peer.child.kill();
  process.exit(error ? 1 : 0);
}
const overall = setTimeout(() => finish(new Error(`overall timeout after ${OVERALL_TIMEOUT_MS} ms`)), OVERALL_TIMEOUT_MS);


// A second peer whose authorization server sends no CORS headers, and a proxy that adds them.
let noCorsPeer;
let proxy;
const stats = async () => (await fetch(`${AS}/__stats`)).json();
const control = (route) => fetch(`${AS}${route}`, { method: "POST" });

// The pages learn the peer from the query; app.html keeps it for callback.html after a redirect.
const appUrl = (origin = browser.origin) => `${origin}/app.html?peer=${encodeURIComponent(`${AS}/mcp`)}`;

async function appReady(page) {
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready");
  return page;
}

async function openApp() {
  const page = await ctx.newPage();
  await page.goto(appUrl());
  return appReady(page);
}

async function popupFlow(page) {
  const before = await stats();
  const opened = ctx.waitForEvent("page");
  const connected = page.evaluate(() => window.connectWithPopup());
  const popup = await opened;
  await popup.waitForSelector("[data-testid=allow]");
  check(new URL(await popup.url()).searchParams.get("code_challenge_method") === "S256", "the popup shows the consent page of a PKCE request");
  const closed = popup.waitForEvent("close");
  await popup.click("[data-testid=allow]");
  const identity = await connected;
  check(WHOAMI.test(identity), "popup flow: connect resolves and the tool sees the token", identity);
  // The core's OAuth module (scripts/split) loads ahead of a connection with auth, not when
  // the primary first reaches it (a synchronous request).
  const loads = await page.evaluate(() => performance.getEntriesByType("resource")
    .filter((entry) => entry.name.includes("mcp_wasm_oauth_bg.wasm")).map((entry) => entry.initiatorType));
  check(loads.length === 1 && loads[0] === "fetch", "the core's OAuth module was fetched once, ahead of the connection", loads.join(", "));
  await closed;
  check(popup.isClosed(), "the callback page closed the popup");
  const after = await stats();
  check(after.approvals === before.approvals + 1 && after.grants.authorization_code === before.grants.authorization_code + 1,
    "one consent, one code exchanged");
}

async function silentRefresh(page) {
  const before = await stats();
  await control("/__expire");
  const identity = await page.evaluate(() => window.callAgain());
  const after = await stats();
  check(WHOAMI.test(identity) && after.refreshes === before.refreshes + 1 && after.approvals === before.approvals,
    "an expired access token is refreshed without asking the user", `refreshes ${before.refreshes} -> ${after.refreshes}`);
}

async function tokensSurviveReload(page) {
  const before = await stats();
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready");
  const identity = await page.evaluate(() => window.connectFromStorage());
  const after = await stats();
  check(WHOAMI.test(identity) && after.approvals === before.approvals && after.registrations === before.registrations,
    "after a reload the tokens in sessionStorage connect without a new consent or registration");
}

async function redirectFlow() {
  // A new tab has its own sessionStorage: nothing registered, nothing held.
  const page = await openApp();
  const before = await stats();
  await page.evaluate(() => window.connectWithRedirect());
  await page.waitForURL(/\/authorize\?/);
  await page.click("[data-testid=allow]");
  await page.waitForURL(/\/callback\.html\?/);
  await page.waitForFunction(() => document.querySelector("#result")?.textContent !== "pending");
  const identity = await page.textContent("#result");
  check(WHOAMI.test(identity), "redirect flow: the callback page finishes the authorization and calls the tool", identity);
  const after = await stats();
  check(after.registrations === before.registrations + 1 && after.grants.authorization_code === before.grants.authorization_code + 1,
    "the redirect flow registered once and exchanged one code");
  const pending = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.includes("pending")));
  check(pending.length === 0, "no pending authorization is left in storage", pending.join(", "));
}

// An app tab that another page opened with window.open keeps that opener through its whole redirect
// flow. Its callback page must still finish the flow itself, not take itself for a popup's, hand
// the code to the opener and close the tab.
async function redirectFlowWithOpener() {
  const launcher = await openApp();
  const opened = ctx.waitForEvent("page");
  await launcher.evaluate((url) => { window.open(url, "_blank"); }, appUrl());
  const page = await appReady(await opened);
  check(await page.evaluate(() => window.opener !== null), "an app tab opened by another page's window.open has an opener");
  const before = await stats();
  await page.evaluate(() => window.connectWithRedirect());
  await page.waitForURL(/\/authorize\?/);
  await page.click("[data-testid=allow]");
  const closed = page.waitForEvent("close").then(() => "the callback page closed its tab");
  const answered = page.waitForURL(/\/callback\.html\?/)
    .then(() => page.waitForFunction(() => document.querySelector("#result")?.textContent !== "pending"))
    .then(() => page.textContent("#result"), (e) => `no result: ${e.message}`);
  const identity = await Promise.race([closed, answered]);
  check(WHOAMI.test(identity), "redirect flow in a tab with an opener: the callback page finishes it and calls the tool", identity);
  const after = await stats();
  check(after.grants.authorization_code === before.grants.authorization_code + 1, "… and exchanged the code once");
  await page.close();
  await launcher.close();
}

async function popupClosedByUser() {
  const page = await openApp(); // a fresh tab: no tokens, so a consent is needed
  const opened = ctx.waitForEvent("page");
  // A closed popup is waited on for closedGrace (two minutes by default), since one cut off by a
  // Cross-Origin-Opener-Policy reads as closed too (popupBehindCoop).
  const outcome = page.evaluate(() => window.connectWithPopup({ popup: { closedGrace: 1000 } }).then(
    () => "connected", (e) => `${e.name} ${e.kind}: ${e.message}`));
  const popup = await opened;
  await popup.waitForSelector("[data-testid=allow]");
  await popup.close();
  const message = await outcome;
  check(/^McpClientError auth: .*closed/.test(message), "closing the popup rejects connect with a typed auth error", message);
  await page.close();
}

// A popup flow from `page` whose popup `why` cuts off from the app: the popup has no opener, and
// `meanwhile` runs while its consent page is open. connect must resolve with the answer the callback
// page broadcast, the callback page close the popup, and only the app trade the code. Returns the
// flow's state.
async function cutOffPopupFlow(page, why, meanwhile = async () => {}) {
  const before = await stats();
  const opened = ctx.waitForEvent("page");
  const connected = page.evaluate(() => window.connectWithPopup().then(
    (identity) => identity, (e) => `${e.name} ${e.kind}: ${e.message}`));
  const popup = await opened;
  await popup.waitForSelector("[data-testid=allow]");
  check(await popup.evaluate(() => window.opener === null), `${why} cuts the popup off from the app`);
  const state = new URL(await popup.url()).searchParams.get("state");
  await meanwhile();
  const closed = popup.waitForEvent("close");
  await popup.click("[data-testid=allow]");
  const identity = await connected;
  check(WHOAMI.test(identity), `${why}: connect resolves with the answer the callback page broadcast`, identity);
  await closed;
  check(popup.isClosed(), "… the callback page knew itself for a popup's, and closed it");
  const after = await stats();
  check(after.approvals === before.approvals + 1 && after.grants.authorization_code === before.grants.authorization_code + 1,
    "… and only the app traded the code: one consent, one code exchanged");
  return state;
}

// The consent page is sent with Cross-Origin-Opener-Policy: same-origin, as Microsoft's, Stripe's or
// Cognito's sign-in pages are. The popup is then cut off from the app: it reads as closed there while
// the user is still on the consent page, and the callback page has no opener to answer.
async function popupBehindCoop() {
  await control("/__consent-coop?policy=same-origin");
  try {
    let page = await openApp(); // a fresh tab: no tokens, so a consent is needed
    const state = await cutOffPopupFlow(page, "a consent page sent with COOP same-origin", async () => {
      // Past the 1 s that a closed reading once allowed, and past the app's watch reading it.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      check(await page.evaluate(() => window.lastPopup?.closed === true), "… and to the app the open popup reads as closed");
    });
    // (A flow that failed, such as popupClosedByUser's, leaves its mark for an hour.)
    const marks = await page.evaluate(() => window.popupMarks());
    check(state && !marks.includes(`mcp-wasm-oauth-popup:${state}`), "… and left no mark of its flow in localStorage", marks.join(", "));
    await page.close();

    // connect() gives up while the user is still signing in: the app cannot close a popup cut off
    // from it, and when the user finishes there, the callback page must close it without trading the code.
    page = await openApp();
    const before = await stats();
    const opened = ctx.waitForEvent("page");
    const outcome = page.evaluate(() => {
      window.stopConnect = new AbortController();
      return window.connectWithPopup({ signal: window.stopConnect.signal }).then(() => "connected", (e) => String(e?.message ?? e));
    });
    const popup = await opened;
    await popup.waitForSelector("[data-testid=allow]");
    await page.evaluate(() => window.stopConnect.abort(new Error("the user went elsewhere")));
    const message = await outcome;
    check(message === "the user went elsewhere", "behind COOP: aborting connect rejects with the signal's reason", message);
    check(!popup.isClosed(), "… and the popup cut off from the app stays open");
    const closed = popup.waitForEvent("close");
    await popup.click("[data-testid=allow]");
    await closed;
    const after = await stats();
    check(after.approvals === before.approvals + 1 && after.grants.authorization_code === before.grants.authorization_code,
      "… a consent given there after all closes the popup, and nobody trades its code");
    await page.close();
  } finally {
    await control("/__consent-coop?policy=off");
  }
}

// A cross-origin-isolated app sends Cross-Origin-Opener-Policy itself: every popup it opens to another
// origin is cut off from it at once, whatever the consent page sends.
async function popupFromIsolatedApp() {
  const origin = await servePages(isolated, { wwwDir: "tests/browser-oauth", isolate: true });
  const page = await ctx.newPage();
  await page.goto(appUrl(origin));
  await appReady(page);
  check(await page.evaluate(() => window.crossOriginIsolated === true), "an app page served with COOP same-origin and COEP require-corp is cross-origin isolated");
  await cutOffPopupFlow(page, "a cross-origin-isolated app");
  await page.close();
}

async function popupAbandoned() {
  const page = await openApp(); // a fresh tab: no tokens, so a consent is needed
  const opened = ctx.waitForEvent("page");
  const outcome = page.evaluate(() => {
    window.stopConnect = new AbortController();
    return window.connectWithPopup({ signal: window.stopConnect.signal }).then(() => "connected", (e) => String(e?.message ?? e));
  });
  const popup = await opened;
  await popup.waitForSelector("[data-testid=allow]");
  const closed = popup.waitForEvent("close");
  await page.evaluate(() => window.stopConnect.abort(new Error("the user went elsewhere")));
  const message = await outcome;
  check(message === "the user went elsewhere", "aborting connect while the consent page is open rejects with the signal's reason", message);
  await closed;
  check(popup.isClosed(), "… and closes the popup");
  await page.close();
}

async function popupBlocked() {
  // A fresh tab whose window.open returns null, as it does when a popup blocker steps in.
  const page = await openApp();
  const message = await page.evaluate(() => {
    window.open = () => null;
    return window.connectWithPopup().then(() => "connected", (e) => `${e.name} ${e.kind}: ${e.message}`);
  });
  check(/^McpClientError auth: .*blocked the authorization popup/.test(message), "a blocked popup rejects connect with a typed auth error", message);
  await page.close();
}

async function startNoCorsPeer() {
  noCorsPeer = await startPeer("tests/peers/oauth-server.mjs", { env: { AS_CORS: "0" } });
  return noCorsPeer.origin;
}

// What a deployment would run as its CORS proxy: forwards /?url=<encoded> to the
// no-CORS peer (and nowhere else) and adds the headers the browser needs.
function startProxy(noCors) {
  const cors = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, POST, OPTIONS" };
  proxy = http.createServer(async (req, res) => {
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors, "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*" });
      return res.end();
    }
    const target = new URL(req.url, "http://proxy").searchParams.get("url") ?? "";
    if (!target.startsWith(`${noCors}/`)) { res.writeHead(403, cors); return res.end(); }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = {};
    for (const name of ["content-type", "accept", "authorization"]) if (req.headers[name]) headers[name] = req.headers[name];
    const answer = await fetch(target, { method: req.method, headers, body: req.method === "GET" ? undefined : Buffer.concat(chunks) });
    res.writeHead(answer.status, { ...cors, "content-type": answer.headers.get("content-type") ?? "application/octet-stream" });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return new Promise((resolve) => proxy.listen(0, "127.0.0.1", () => resolve(proxy.address().port)));
}

async function corsProxy() {
  const noCors = await startNoCorsPeer();
  const proxyPort = await startProxy(noCors);
  const server = `${noCors}/mcp`;
  const proxyPrefix = `http://127.0.0.1:${proxyPort}/?url=`;
  let page = await openApp();
  const refused = await page.evaluate((server) => window.connectWithPopup({ server }).then(
    () => "connected", (e) => `${e.name} ${e.kind}: ${e.message}`), server);
  check(/^McpClientError auth: .*likely CORS.*corsProxy/.test(refused),
    "an authorization server without CORS is a typed auth error that says so", refused.slice(0, 160));
  await page.close();
  page = await openApp();
  const opened = ctx.waitForEvent("page");
  const connected = page.evaluate(({ server, proxyPrefix }) => window.connectWithPopup({ server, corsProxy: proxyPrefix }), { server, proxyPrefix });
  const popup = await opened;
  await popup.click("[data-testid=allow]");
  const identity = await connected;
  check(WHOAMI.test(identity), "through auth.corsProxy the same server authorizes and the tool sees the token", identity);
  await page.close();
}

async function main() {
  const reset = await control("/__reset").catch(() => null);
  if (!reset?.ok) throw new Error(`the oauth peer is not answering on ${AS} (bash scripts/peers.sh start)`);
  ctx = await openBrowser(browser, { wwwDir: "tests/browser-oauth", profilePrefix: "mcp-wasm-oauth-profile-", browser: BROWSER });
  const page = await openApp();
  await popupFlow(page);
  await silentRefresh(page);
  await tokensSurviveReload(page);
  await popupClosedByUser();
  await popupBehindCoop();
  await popupFromIsolatedApp();
  await popupAbandoned();
  await popupBlocked();
  await corsProxy();
  await redirectFlow();
  await redirectFlowWithOpener();
  await issuerSwitch({ ctx, openApp, check }, ownPeers);
  await dpopAcrossReload({ ctx, openApp, check }, ownPeers);
}

main().then(() => { clearTimeout(overall); return finish(); }, (e) => { clearTimeout(overall); return finish(e); });
