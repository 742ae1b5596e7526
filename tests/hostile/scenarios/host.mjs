// What a server does to a McpHost's other servers: a handshake that never ends, a listing
// paged slowly for ever, a re-listing cut short by suspend(). Each must leave the host, and
// what waits on it, usable within its bounds; and an entry McpHost.connect refuses must not
// leave the others connected behind a host nobody can close.
import { McpHost } from "mcp-wasm";
import { describe, expectSuccess, settle } from "../expect.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(ms, 0)));

/**
 * A server whose handshake never ends (its initialized notification is held), removed or closed
 * while it connects: addServer settles at once, and the host hangs up on the handshake rather
 * than leave it to its 30 s timeout.
 */
export async function hostHeldConnect({ check, peer, track }) {
  const host = track(new McpHost());
  for (const [how, stop] of [["removeServer", () => host.removeServer("held")], ["close", () => host.close()]]) {
    const adding = settle(host.addServer("held", peer.url("initialized-held"), { timeout: 30_000 }));
    const held = await peer.statsWhen("initialized-held", (s) => s.initializedHeld >= (how === "close" ? 2 : 1), 2_000);
    check(held.initializedHeld >= 1, `${how}: the handshake is held`, JSON.stringify(held));
    await stop();
    const added = await adding;
    check(!added.hung, `${how} while the server connects: addServer settles within 2 s`, added.hung ? "still pending" : describe(added.error ?? added.value?.status));
    const letGo = await peer.statsWhen("initialized-held", (s) => s.initializedLetGo === held.initializedHeld, 1_000);
    check(letGo.initializedLetGo === held.initializedHeld, `… and the held handshake is hung up on`, JSON.stringify(letGo));
  }
}

/** An entry McpHost.connect refuses (a handler that is no function): nothing connects. */
export async function hostRefusedEntry({ check, peer, track }) {
  const refused = await settle(McpHost.connect({
    fine: { url: peer.url("plain") },
    wrong: { url: peer.url("plain"), handlers: { sampling: 42 } },
  }).then(track));
  check(refused.error?.kind === "invalid-argument", "McpHost.connect with a handler that is no function rejects with invalid-argument",
    describe(refused.error ?? "it resolved"));
  await sleep(300);
  const { initialize } = await peer.stats("plain");
  check(initialize === 0, "… before any server connects", JSON.stringify({ initialize }));
}

/**
 * A server that pages its tools for ever, 200 ms a page: the host's listing stops at its
 * listTimeout for all its pages, not for each, so adding the server and ready() end then.
 */
export async function hostSlowPages({ check, peer, track }) {
  const host = track(new McpHost({ listTimeout: 1_000 }));
  const errors = [];
  host.addEventListener("error", (event) => errors.push(event.error));
  const added = await settle(host.addServer("slow", peer.url("slow-pages")), 3_000);
  check(!added.hung && added.value?.status === "connected", "addServer of a server that pages for ever settles within 3 s",
    added.hung ? "still pending" : describe(added.error ?? added.value?.status));
  check(errors.some((e) => e?.kind === "timeout"), "… its listing ends in a timeout error event", errors.map(describe).join("; "));
  const ready = await settle(host.ready());
  check(!ready.hung, "ready() settles");
  const { pages } = await peer.stats("slow-pages");
  check(pages <= 7, "… after the pages of one second", JSON.stringify({ pages }));
}

/**
 * suspend() while a re-listing runs and another is scheduled: ready() then settles, rather than
 * wait for the scheduled one that suspend() cancelled.
 */
export async function hostSuspendMidListing({ check, peer, track }) {
  const host = track(await McpHost.connect({ slow: { url: peer.url("slow-list") } }, { debounceMs: 500 }));
  // The first change's re-listing begins 500 ms after it and takes 1.5 s; the second, 700 ms
  // after the first, is scheduled while that listing runs.
  await expectSuccess(check, "a call during which the server announces two changes, 700 ms apart",
    host.callTool("slow__announce", { count: 2, gapMs: 700 }));
  await host.suspend();
  const ready = await settle(host.ready(), 3_000);
  check(!ready.hung, "ready() after suspend() settles within 3 s", ready.hung ? "still pending" : describe(ready.error ?? "settled"));
}
