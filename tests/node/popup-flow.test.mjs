// popupAuthorizer and completeAuthorization at their edges, with the page faked in Node: a popup
// that reads as closed (as one cut off by a Cross-Origin-Opener-Policy does), closedGrace's extremes,
// the localStorage mark by which a callback page without an opener knows a popup flow's state, and the
// sessionStorage key by which a redirect flow's callback page knows itself though its tab has an opener.
// The flows themselves run in real browsers against the oauth peer (tests/browser-oauth).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { completeAuthorization, popupAuthorizer, redirectAuthorizer } from "mcp-wasm";

const MARK = "mcp-wasm-oauth-popup:";
const AUTHORIZE = (state) => `https://as.example/authorize?client_id=c&state=${state}`;
const CALLBACK = (state) => `https://app.example/callback?code=k&state=${state}`;

function fakeStorage(entries = {}) {
  const map = new Map(Object.entries(entries));
  return {
    get length() { return map.size; },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, String(v)),
    removeItem: (k) => map.delete(k),
    keys: () => [...map.keys()],
  };
}

const saved = {};
function page({ storage = fakeStorage(), session = fakeStorage(), opened = { closed: true, close() {} }, href = "https://app.example/", opener = null } = {}) {
  for (const name of ["localStorage", "sessionStorage", "location", "open", "opener", "close"]) saved[name] ??= Object.getOwnPropertyDescriptor(globalThis, name) ?? null;
  // Node's BroadcastChannel gives its messages an empty origin.
  globalThis.location = { href, origin: "", assign(url) { this.href = url; } };
  globalThis.localStorage = storage;
  globalThis.sessionStorage = session;
  globalThis.open = () => opened;
  globalThis.opener = opener;
  globalThis.close = () => { page.closedSelf = true; };
  page.closedSelf = false;
  return storage;
}
afterEach(() => {
  for (const [name, descriptor] of Object.entries(saved)) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete globalThis[name];
    delete saved[name];
  }
});

const settled = (promise) => promise.then((v) => ({ value: v }), (e) => ({ error: e }));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function broadcast(url) {
  const channel = new BroadcastChannel("mcp-wasm-oauth");
  channel.postMessage({ type: "mcp-wasm:oauth-callback", url });
  channel.close();
}

test("a popup that reads as closed is still waited on, and the broadcast answer resolves the flow and clears its mark", async () => {
  const storage = page();
  const flow = popupAuthorizer()(AUTHORIZE("s1"), { signal: new AbortController().signal });
  await sleep(1_600); // three reads of the closed popup, and past the 1 s the grace once was
  assert.deepEqual(storage.keys(), [`${MARK}s1`]);
  broadcast(CALLBACK("other"));
  broadcast(CALLBACK("s1"));
  assert.equal(await flow, CALLBACK("s1"));
  assert.deepEqual(storage.keys(), []);
});

test("closedGrace 0 rejects soon after the popup reads as closed, and the mark stays for a late callback", async () => {
  const storage = page();
  const outcome = await settled(popupAuthorizer({ closedGrace: 0 })(AUTHORIZE("s2"), { signal: new AbortController().signal }));
  assert.match(outcome.error?.message ?? "", /closed before it finished/);
  assert.deepEqual(storage.keys(), [`${MARK}s2`]);
});

for (const closedGrace of [Infinity, 2 ** 40]) {
  test(`closedGrace ${closedGrace} waits until the signal, never firing at once`, async () => {
    page();
    const stop = new AbortController();
    const flow = settled(popupAuthorizer({ closedGrace })(AUTHORIZE("s3"), { signal: stop.signal }));
    await sleep(1_200);
    stop.abort(new Error("gave up"));
    assert.equal((await flow).error?.message, "gave up");
  });
}

test("a flow sweeps marks older than an hour, and a blocked popup leaves none", async () => {
  const storage = page({ storage: fakeStorage({ [`${MARK}old`]: String(Date.now() - 3_700_000), [`${MARK}recent`]: String(Date.now()), other: "kept" }), opened: null });
  const outcome = await settled(popupAuthorizer()(AUTHORIZE("s4"), { signal: new AbortController().signal }));
  assert.match(outcome.error?.message ?? "", /blocked the authorization popup/);
  assert.deepEqual(storage.keys().sort(), [`${MARK}recent`, "other"]);
});

test("completeAuthorization without an opener: a marked state is a popup's, an unmarked or hour-old one is not", () => {
  page({ storage: fakeStorage({ [`${MARK}fresh`]: String(Date.now()), [`${MARK}stale`]: String(Date.now() - 3_700_000) }), href: CALLBACK("fresh") });
  assert.equal(completeAuthorization(), true);
  assert.equal(page.closedSelf, true);
  for (const state of ["stale", "unknown"]) {
    page({ storage: fakeStorage({ [`${MARK}stale`]: String(Date.now() - 3_700_000) }), href: CALLBACK(state) });
    assert.equal(completeAuthorization(), false, state);
    assert.equal(page.closedSelf, false, state);
  }
  // Storage that throws (disabled, sandboxed) leaves only the opener to tell.
  page({ storage: { getItem() { throw new Error("denied"); } }, href: CALLBACK("fresh") });
  assert.equal(completeAuthorization(), false);
  page({ storage: { getItem() { throw new Error("denied"); } }, href: CALLBACK("fresh"), opener: { closed: false, postMessage() {} } });
  assert.equal(completeAuthorization(), true);
});

test("a redirect flow's callback page finishes the flow itself even in a tab with an opener", () => {
  const posted = [];
  const opener = { closed: false, postMessage: (message) => posted.push(message) };
  const session = fakeStorage();
  page({ session, opener });
  redirectAuthorizer()(AUTHORIZE("r1"));
  assert.equal(globalThis.location.href, AUTHORIZE("r1"));
  // The callback page, in the same tab (the same sessionStorage, the same opener).
  page({ session, opener, href: CALLBACK("r1") });
  assert.equal(completeAuthorization(), false);
  assert.equal(page.closedSelf, false);
  assert.deepEqual(posted, []);
  // Reloaded, it still knows; a popup flow's callback (another state) in a tab with an opener answers it.
  assert.equal(completeAuthorization(), false);
  page({ session, opener, href: CALLBACK("p1") });
  assert.equal(completeAuthorization(), true);
  assert.equal(page.closedSelf, true);
  assert.equal(posted.length, 1);
});
