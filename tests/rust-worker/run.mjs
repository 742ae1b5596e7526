// Rust Worker tier: builds examples/rust-worker (workers-rs + mcp-wasm's Rust API) with
// worker-build, runs it in miniflare (local workerd) and checks what it answers about a live
// server-everything, across three invocations: connect/list/echo, then echo and suspend,
// then resume the snapshot in a fresh invocation and echo again with no new handshake.
//
//   node tests/rust-worker/run.mjs                                  # its own server-everything
//   MCP_TEST_URL=http://127.0.0.1:38011/mcp node tests/rust-worker/run.mjs
//
// Needs worker-build (scripts/setup.sh installs it), wasm-bindgen-cli at the crate's pinned
// version, and the npm dev dependencies (miniflare, esbuild, binaryen's wasm-opt).
// Prints one `PASS rust-worker: …` or `FAIL rust-worker: …` line; exits 0 or 1.
//
// worker-build would download wasm-bindgen, wasm-opt and esbuild from the web; the *_BIN
// variables below point it at the ones this repository already installs instead.
// --no-panic-recovery: worker-build 0.8.7's default shim generator misreads the
// `export { McpClientError }` re-exports that mcp-wasm's JS binding adds to any wasm linking
// the crate (see examples/rust-worker/README.md); this flag takes its other, plain shim.
// The Worker reaches the server through a small recording proxy in this process, so the
// test sees every JSON-RPC method and HTTP verb each invocation sent.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Miniflare } from "miniflare";
import { startPeer } from "../support/peer-process.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CRATE = path.join(ROOT, "examples/rust-worker");
const BUILD = path.join(CRATE, "build");
const LOG = path.join(ROOT, "test-results/rust-worker-build.log");
const BIN = path.join(ROOT, "node_modules/.bin");
const COMPAT_DATE = "2025-09-01"; // as tests/workerd
const BUILD_TIMEOUT_MS = 20 * 60_000; // a cold release build with LTO on a slow machine
const DISPATCH_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 120_000; // everything after the build
const MESSAGE = "hello from a Rust Worker in workerd";

let mf;
let builder;
let proxy; // { server, origin, seen }
const children = [];
let done = false;

async function finish(ok, message, detail) {
  if (done) return;
  done = true;
  if (detail) console.error(detail);
  console.log(`${ok ? "PASS" : "FAIL"} rust-worker: ${message}`);
  if (builder && builder.exitCode === null) {
    try { process.kill(-builder.pid, "SIGKILL"); } catch {} // its own process group, see build()
  }
  if (mf) await mf.dispose().catch((e) => console.error("miniflare dispose:", e));
  proxy?.server.closeAllConnections();
  proxy?.server.close();
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(ok ? 0 : 1);
}
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => finish(false, `interrupted by ${sig}`));

function withTimeout(promise, ms, what) {
  let t;
  const timer = new Promise((_, reject) => { t = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); });
  return Promise.race([promise, timer]).finally(() => clearTimeout(t));
}

// worker-build fetches wasm-bindgen, wasm-opt and esbuild from the web unless *_BIN names
// them, and falls back to fetching when a *_BIN names nothing: check all three first.
function tools() {
  const cargoToml = readFileSync(path.join(ROOT, "Cargo.toml"), "utf8");
  const pinned = cargoToml.match(/^wasm-bindgen = "=([0-9.]+)"/m)?.[1];
  const wasmBindgen = spawnSync("wasm-bindgen", ["--version"], { encoding: "utf8" });
  if (wasmBindgen.status !== 0 || wasmBindgen.stdout.trim() !== `wasm-bindgen ${pinned}`) {
    throw new Error(`wasm-bindgen-cli ${pinned} is needed (found: ${wasmBindgen.stdout?.trim() || "none"}); run scripts/setup.sh`);
  }
  const bins = { WASM_BINDGEN_BIN: "wasm-bindgen", WASM_OPT_BIN: path.join(BIN, "wasm-opt"), ESBUILD_BIN: path.join(BIN, "esbuild") };
  for (const bin of [bins.WASM_OPT_BIN, bins.ESBUILD_BIN]) {
    if (!existsSync(bin)) throw new Error(`${path.relative(ROOT, bin)} is missing; run scripts/setup.sh (npm ci)`);
  }
  return bins;
}

// `worker-build --release` in the example crate. The crate is a workspace of its own: its
// target/ is examples/rust-worker/target, whatever CARGO_TARGET_DIR says.
function build() {
  const env = { ...process.env, ...tools(), CARGO_TARGET_DIR: path.join(CRATE, "target"), CARGO_TERM_COLOR: "never" };
  const [cmd, ...args] = ["worker-build", "--release", "--no-panic-recovery"];
  mkdirSync(path.dirname(LOG), { recursive: true });
  const log = createWriteStream(LOG);
  return new Promise((resolve, reject) => {
    let tail = "";
    let all = "";
    // detached: cargo and rustc are its children; on timeout the whole group goes.
    builder = spawn(cmd, args, { cwd: CRATE, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const take = (d) => { log.write(d); all += d; tail = (tail + d).slice(-4000); };
    builder.stdout.on("data", take);
    builder.stderr.on("data", take);
    const t = setTimeout(() => {
      try { process.kill(-builder.pid, "SIGKILL"); } catch {}
      reject(new Error(`worker-build timed out after ${BUILD_TIMEOUT_MS} ms (log: ${LOG})\n${tail}`));
    }, BUILD_TIMEOUT_MS);
    builder.on("error", (e) => {
      clearTimeout(t);
      reject(e.code === "ENOENT" ? new Error(`${cmd} not found; run scripts/setup.sh`) : e);
    });
    builder.on("exit", (code) => {
      clearTimeout(t);
      log.end();
      const fetched = all.split("\n").find((line) => /Downloading|falling back/.test(line));
      if (code !== 0) reject(new Error(`worker-build exited with ${code} (log: ${LOG})\n${tail}`));
      else if (fetched) reject(new Error(`worker-build fetched a tool instead of using the one given: ${fetched.trim()} (log: ${LOG})`));
      else resolve();
    });
  });
}

// A pass-through proxy in front of the MCP server that notes, per request, the HTTP verb,
// the Mcp-Session-Id and the JSON-RPC methods in the body. Responses stream through (SSE).
function startProxy(upstream) {
  const seen = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let methods = [];
      try { methods = [].concat(JSON.parse(body.toString() || "null") ?? []).map((m) => m?.method).filter(Boolean); } catch {}
      const entry = { verb: req.method, session: req.headers["mcp-session-id"] ?? null, methods, open: true };
      seen.push(entry);
      // Until the worker hangs up (or the answer ends): a stream still open after its
      // invocation answered is one that outlived the request.
      res.on("close", () => { entry.open = false; });
      const up = http.request(new URL(req.url, upstream), { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } }, (ur) => {
        res.writeHead(ur.statusCode, ur.headers);
        ur.pipe(res);
      });
      up.on("error", () => res.destroy());
      res.on("close", () => up.destroy());
      up.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}`, seen }));
  });
}

// A loopback port with nothing listening, for the error path.
function closedPort() {
  return new Promise((resolve) => {
    const s = http.createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

async function mcpServer() {
  if (process.env.MCP_TEST_URL) return process.env.MCP_TEST_URL;
  const peer = await startPeer("node_modules/@modelcontextprotocol/server-everything/dist/index.js", {
    args: ["streamableHttp"],
    nodeArgs: ["--import", new URL("../peers/loopback.mjs", import.meta.url).href, "--import", new URL("../peers/announce-port.mjs", import.meta.url).href],
  });
  children.push(peer.child);
  return `${peer.origin}/mcp`;
}

async function ask(method, url, body) {
  const res = await withTimeout(mf.dispatchFetch(`http://localhost${url}`, { method, body }), DISPATCH_TIMEOUT_MS, `${method} ${url.split("?")[0]}`);
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text) };
  } catch {
    throw new Error(`${method} ${url.split("?")[0]}: ${res.status} with non-JSON: ${text.slice(0, 500)}`);
  }
}

// The requests of an invocation that are still open once it answered: none may outlive it (a
// Worker's I/O belongs to its request). A hang-up takes a moment to reach the proxy.
async function leftOpen(from) {
  for (let waited = 0; waited < 2_000 && proxy.seen.slice(from).some((r) => r.open); waited += 50) await sleep(50);
  return proxy.seen.slice(from).filter((r) => r.open);
}

// The requests the proxy saw since `from`, as "VERB method,method".
const since = (from) => proxy.seen.slice(from);
const describe = (requests) => requests.map((r) => `${r.verb}${r.methods.length ? ` ${r.methods.join(",")}` : ""}`).join("; ");

async function main() {
  const target = await mcpServer();
  try {
    await fetch(target, { signal: AbortSignal.timeout(3_000) });
  } catch (e) {
    throw new Error(`MCP peer not reachable at ${target} (${e.cause?.code || e.message}); start it with scripts/peers.sh`);
  }

  const t0 = Date.now();
  await build();
  const buildMs = Date.now() - t0;
  const script = path.join(BUILD, "worker/shim.mjs");
  const wasm = path.join(BUILD, "worker/index.wasm");
  if (!existsSync(wasm) || !existsSync(script)) throw new Error(`worker-build left no build/worker/shim.mjs + index.wasm (log: ${LOG})`);
  console.log(`built in ${buildMs} ms; index.wasm ${statSync(wasm).size} bytes, shim.mjs ${statSync(script).size} bytes`);

  const runDeadline = setTimeout(() => finish(false, `timeout: ${RUN_TIMEOUT_MS} ms after the build`), RUN_TIMEOUT_MS);
  proxy = await startProxy(target);
  const viaProxy = `${proxy.origin}${new URL(target).pathname}`;

  mf = new Miniflare({
    modulesRoot: path.join(BUILD, "worker"),
    modules: [
      { type: "ESModule", path: script },
      { type: "CompiledWasm", path: wasm },
    ],
    compatibilityDate: COMPAT_DATE,
    host: "127.0.0.1",
    port: 0,
    cf: false, // a placeholder Request.cf: miniflare would fetch the real one from workers.cloudflare.com
  });
  await withTimeout(mf.ready, 30_000, "miniflare start");

  const problems = [];
  const q = (url, message) => `url=${encodeURIComponent(url)}&message=${encodeURIComponent(message)}`;

  // 1. One invocation: connect, list, echo, close.
  const first = await ask("GET", `/?${q(viaProxy, MESSAGE)}`);
  const r1 = first.json;
  if (first.status !== 200) throw new Error(`GET /: ${first.status} ${JSON.stringify(r1)}`);
  if (r1.era !== "legacy") problems.push(`era ${r1.era}, expected legacy`);
  if (typeof r1.protocolVersion !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(r1.protocolVersion)) problems.push(`protocolVersion ${r1.protocolVersion}`);
  if (!(r1.tools > 0)) problems.push(`tools ${r1.tools}, expected a count > 0`);
  if (r1.echo !== `Echo: ${MESSAGE}`) problems.push(`echo ${JSON.stringify(r1.echo)}`);
  const firstSeen = since(0);
  for (const open of await leftOpen(0)) problems.push(`GET / left a ${open.verb} ${open.methods.join(",")} open after it answered`);
  if (!firstSeen.some((r) => r.methods.includes("initialize")) || !firstSeen.some((r) => r.verb === "DELETE")) {
    problems.push(`GET / sent ${describe(firstSeen)}; expected an initialize and a closing DELETE`);
  }

  // 2. Another invocation: connect, echo, suspend; the snapshot comes back as the body.
  const mark2 = proxy.seen.length;
  const second = await ask("GET", `/suspend?${q(viaProxy, "before the snapshot")}`);
  const snapshot = second.json;
  if (second.status !== 200) throw new Error(`GET /suspend: ${second.status} ${JSON.stringify(snapshot)}`);
  if (snapshot.format !== 1 || snapshot.era !== "legacy" || !snapshot.sessionId || snapshot.url !== viaProxy) {
    problems.push(`snapshot ${JSON.stringify(snapshot)}`);
  }
  const suspendSeen = since(mark2);
  for (const open of await leftOpen(mark2)) problems.push(`GET /suspend left a ${open.verb} ${open.methods.join(",")} open after it answered`);
  if (!suspendSeen.some((r) => r.methods.includes("tools/call"))) problems.push(`GET /suspend sent ${describe(suspendSeen)}; expected a tools/call`);
  if (suspendSeen.some((r) => r.verb === "DELETE")) problems.push("suspend ended the session with a DELETE");
  // The snapshot's session is the one the server gave this invocation, not the first one's.
  if (!suspendSeen.some((r) => r.methods.includes("tools/call") && r.session === snapshot.sessionId)) {
    problems.push(`the snapshot's session ${snapshot.sessionId} is not the one GET /suspend called echo on`);
  }
  if (firstSeen.some((r) => r.session === snapshot.sessionId)) problems.push("GET /suspend reused the session GET / had closed");

  // 3. A fresh invocation resumes the snapshot: no initialize, the same session.
  const mark3 = proxy.seen.length;
  const third = await ask("POST", `/resume?message=${encodeURIComponent("after the snapshot")}`, JSON.stringify(snapshot));
  const r3 = third.json;
  if (third.status !== 200) throw new Error(`POST /resume: ${third.status} ${JSON.stringify(r3)}`);
  if (r3.echo !== "Echo: after the snapshot") problems.push(`echo after resume ${JSON.stringify(r3.echo)}`);
  if (r3.sessionId !== snapshot.sessionId) problems.push(`session ${r3.sessionId} after resume, expected ${snapshot.sessionId}`);
  if (r3.protocolVersion !== snapshot.protocolVersion) problems.push(`protocolVersion ${r3.protocolVersion} after resume, expected ${snapshot.protocolVersion}`);
  const resumeSeen = since(mark3);
  for (const open of await leftOpen(mark3)) problems.push(`POST /resume left a ${open.verb} ${open.methods.join(",")} open after it answered`);
  if (!resumeSeen.some((r) => r.verb === "DELETE" && r.session === snapshot.sessionId)) problems.push(`POST /resume sent ${describe(resumeSeen)}; expected a closing DELETE`);
  const calls = resumeSeen.filter((r) => r.methods.includes("tools/call"));
  const handshake = resumeSeen.filter((r) => r.methods.some((m) => m === "initialize" || m === "server/discover"));
  if (handshake.length) problems.push(`POST /resume sent a new handshake: ${describe(resumeSeen)}`);
  if (calls.length !== 1) problems.push(`POST /resume sent ${describe(resumeSeen)}; expected one tools/call`);
  const otherSession = resumeSeen.filter((r) => r.session !== snapshot.sessionId);
  if (otherSession.length) problems.push(`POST /resume sent requests without Mcp-Session-Id ${snapshot.sessionId}: ${otherSession.map((r) => `${r.verb} ${r.session}`).join(", ")}`);

  // 4. The error paths: nothing listening is a 502 of kind "network"; no ?url= is a 400.
  const down = await ask("GET", `/?url=${encodeURIComponent(`http://127.0.0.1:${await closedPort()}/mcp`)}`);
  if (down.status !== 502 || down.json.error?.kind !== "network") problems.push(`a closed port gave ${down.status} ${JSON.stringify(down.json)}`);
  const bad = await ask("GET", "/");
  if (bad.status !== 400 || bad.json.error?.kind !== "bad-request") problems.push(`no ?url= gave ${bad.status} ${JSON.stringify(bad.json)}`);
  const junk = await ask("POST", "/resume", JSON.stringify({ format: 99 }));
  if (junk.status !== 400 || junk.json.error?.kind !== "bad-request") problems.push(`a foreign snapshot gave ${junk.status} ${JSON.stringify(junk.json)}`);

  clearTimeout(runDeadline);
  if (problems.length) {
    throw new Error(`${problems.join("; ")}\nproxy saw: ${describe(proxy.seen)}`);
  }
  console.log(`GET /: ${r1.era} ${r1.protocolVersion}, ${r1.tools} tools, ${JSON.stringify(r1.echo)}; sent ${describe(firstSeen)}`);
  console.log(`GET /suspend: snapshot of session ${snapshot.sessionId} (${JSON.stringify(snapshot).length} bytes); sent ${describe(suspendSeen)}`);
  console.log(`POST /resume: ${JSON.stringify(r3.echo)} on session ${r3.sessionId}; sent ${describe(resumeSeen)}`);
  return `Rust Worker (worker-build, build ${(buildMs / 1000).toFixed(1)} s) in workerd: ${r1.era} ${r1.protocolVersion}, ` +
    `${r1.tools} tools, echo OK; suspended in one invocation, resumed in the next on the same session without initialize; ` +
    `errors as 502 network / 400`;
}

main().then(
  (msg) => finish(true, msg),
  (e) => finish(false, e.message.split("\n")[0], e.message.includes("\n") ? e.message : undefined),
);
