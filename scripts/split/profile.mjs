// Runs scripts/split/scenarios.js with an instrumented copy of the package (its core
// from scripts/split/instrument.mjs, its glue from `glue.mjs profile`) in Node and in
// headless Chromium, against real servers started here on ports the OS picks
// (server-everything over Streamable HTTP and HTTP+SSE, and the 2026-07-28 servers of
// tests/peers/modern-server.mjs), and writes the ordinals of the functions either run
// entered (the garbage collector's finalizers included, in Node), which
// scripts/split/split.mjs keeps in the primary, and the bytes of static data they
// touched, whose objects stay there too.
//   node scripts/split/profile.mjs <instrumented package dir> <profile.json>
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { openBrowser, releaseBrowser } from "../../tests/support/browser.mjs";
import { collectGarbage } from "../../tests/support/gc.mjs";
import { startPeer } from "../../tests/support/peer-process.mjs";
import { dataSegments, readModule } from "./binaryen.mjs";
import { MARKS_FROM } from "./cover-marks.mjs";
import { runGuarded, runScenarios } from "./scenarios.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [pkgDir, output] = process.argv.slice(2);
if (!output) throw new Error("usage: node scripts/split/profile.mjs <instrumented package dir> <profile.json>");

const EVERYTHING = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
const PRELOADS = ["--import", path.join(repo, "tests/peers/loopback.mjs")];
const ANNOUNCE = ["--import", path.join(repo, "tests/peers/announce-port.mjs")];

// A port nothing listens on: taken from the OS, then let go.
function closedPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

const peers = [];
const session = {};
try {
  const start = async (script, args, nodeArgs = PRELOADS) => {
    const peer = await startPeer(script, { args, nodeArgs });
    peers.push(peer.child);
    return peer.origin;
  };
  const servers = {
    everything: `${await start(EVERYTHING, ["streamableHttp"], [...PRELOADS, ...ANNOUNCE])}/mcp`,
    everythingSse: `${await start(EVERYTHING, ["sse"], [...PRELOADS, ...ANNOUNCE])}/sse`,
    modern: `${await start("tests/peers/modern-server.mjs", ["modern"])}/mcp`,
    dual: `${await start("tests/peers/modern-server.mjs", ["dual"])}/mcp`,
    closedPort: `http://127.0.0.1:${await closedPort()}/mcp`,
  };

  // Where the static data lies: the bytes outside it are the stack's and the heap's.
  const range = [Infinity, 0];
  for (const { offset, data } of dataSegments(readModule(readFileSync(path.resolve(pkgDir, "mcp_wasm_bg.wasm"))))) {
    range[0] = Math.min(range[0], offset);
    range[1] = Math.max(range[1], offset + data.byteLength);
  }
  const inNode = { functions: new Set(), data: new Set() };
  globalThis.__mcpWasmProfile = { range, enter: (o) => inNode.functions.add(o), data: (b) => inNode.data.add(b) };
  const mcp = await import(pathToFileURL(path.resolve(pkgDir, "node.js")).href);
  // A path a race takes now and then (which answer comes first, where a chunk ends) is
  // entered in one run and not the next: three runs, so that the union holds it.
  for (let run = 0; run < 3; run++) await runScenarios(mcp, servers);
  // What the scenarios let go of (clients, iterators, the closures handed to JS) is freed by the
  // garbage collector's finalizers, which run code of their own: collect it, so a page's
  // collection never needs the rest.
  await collectGarbage();
  // The regions a page runs while the rest cannot load or has not yet (runGuarded), with the gate
  // of the glue's snippet set as the split glue sets it: outline.mjs leaves them where they are.
  // The functions these runs enter join the profile too, as their data does: a function that
  // ran only here (a chunk's cutting into windows, a Uint8Array's subarray) was left in the rest,
  // and a long first result in Chromium then loaded it synchronously. Past the gate the rest is
  // in, and what runs then is not recorded.
  const guard = new Set();
  let guarding = true;
  globalThis.__mcpWasmProfile.enter = (o) => guarding && (o >= MARKS_FROM ? guard.add(o) : inNode.functions.add(o));
  globalThis.__mcpWasmProfile.data = (b) => guarding && inNode.data.add(b);
  // The glue's snippet, under a path wasm-bindgen hashes.
  const snippet = `snippets/${readdirSync(path.resolve(pkgDir, "snippets"))[0]}/src/glue.js`;
  const { setRestGate } = await import(pathToFileURL(path.resolve(pkgDir, snippet)).href);
  await runGuarded(mcp, servers, setRestGate, (on) => (guarding = on));
  setRestGate(undefined);

  const ctx = await openBrowser(session, { wwwDir: "scripts/split", pkgDir, profilePrefix: "mcp-split-" });
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error));
  await page.goto(`${session.origin}/profile.html?${new URLSearchParams({ servers: JSON.stringify(servers), range: JSON.stringify(range), snippet })}`);
  const result = await page.waitForFunction(() => globalThis.profileResult, null, { timeout: 120_000 }).then((handle) => handle.jsonValue());
  if (result.error) throw new Error(`split profile in Chromium: ${result.error}`);
  if (errors.length) throw new Error(`split profile in Chromium: ${errors[0]}`);

  const union = (a, b) => [...new Set([...a, ...b])].sort((x, y) => x - y);
  const ordinals = union(inNode.functions, result.ordinals);
  const data = union(inNode.data, result.data);
  const guarded = union(guard, result.guard);
  writeFileSync(output, JSON.stringify({ node: inNode.functions.size, chromium: result.ordinals.length, ordinals, data, guard: guarded }) + "\n");
  console.log(`split profile: ${ordinals.length} functions and regions entered (Node ${inNode.functions.size}, Chromium ${result.ordinals.length}), ${data.length} bytes of static data touched; ${guarded.length} regions run while the rest cannot load`);
} finally {
  await releaseBrowser(session);
  for (const child of peers) child.kill("SIGTERM");
}
// The Node run leaves the module's timers and the servers' sockets behind.
process.exit(0);
