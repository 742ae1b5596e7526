// Workers smoke test: bundle tests/workerd/worker.mjs the way a user's `wrangler deploy`
// would, run it in miniflare (local workerd) and check what it reports about a live MCP server.
//
//   MCP_TEST_URL=http://127.0.0.1:38011/mcp node tests/workerd/run.mjs
//
// Needs pkg/ built and node_modules/mcp-wasm -> ../pkg, plus a server-everything peer.
// Prints one `PASS workerd: …` or `FAIL workerd: …` line; exits 0 or 1.
//
// Why wrangler for bundling: it is what users run, it resolves the bare `mcp-wasm` import
// through the package's `workerd` export condition, and turns the `.wasm` import in
// pkg/workerd.js into a separate module that workerd loads as a compiled WebAssembly.Module
// (workerd refuses to compile wasm from bytes at run time). `deploy --dry-run --outdir`
// only bundles: no login, no network, about one second.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";

// Each peer, with the transport the client must choose for it by itself.
const TARGETS = [
  [process.env.MCP_TEST_URL || "http://127.0.0.1:38011/mcp", "streamable-http"],
  [process.env.MCP_SSE_TEST_URL || "http://127.0.0.1:38012/sse", "sse"],
];
const TARGET = TARGETS[0][0];
// The OAuth peer (tests/peers/oauth-server.mjs), for a machine client's client_credentials grant.
const OAUTH_TARGET = process.env.MCP_OAUTH_TEST_URL ? `${process.env.MCP_OAUTH_TEST_URL}/mcp` : "http://127.0.0.1:38060/mcp";
// A 2026-07-28 server (tests/peers/modern-server.mjs), for the persistence check.
const MODERN_TARGET = process.env.MCP_MODERN_TEST_URL || "http://127.0.0.1:38013/mcp";
const WORKER = fileURLToPath(new URL("./worker.mjs", import.meta.url));
const WRANGLER = path.join(path.dirname(createRequire(import.meta.url).resolve("wrangler/package.json")), "bin/wrangler.js");
const COMPAT_DATE = "2025-09-01";
const BUNDLE_TIMEOUT_MS = 60_000;
const DISPATCH_TIMEOUT_MS = 30_000;
const OVERALL_TIMEOUT_MS = 120_000;

const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-wasm-workerd-"));
let mf;
let bundler;
let done = false;

// One exit path, so miniflare (two workerd processes), the bundler and the temp dir are
// released whether we pass, fail, time out or get interrupted.
async function finish(ok, message, detail) {
  if (done) return;
  done = true;
  if (detail) console.error(detail);
  console.log(`${ok ? "PASS" : "FAIL"} workerd: ${message}`);
  if (bundler && bundler.exitCode === null) {
    try { process.kill(-bundler.pid, "SIGKILL"); } catch {} // its own process group, see bundle()
  }
  if (mf) await mf.dispose().catch((e) => console.error("miniflare dispose:", e));
  rmSync(tmp, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}
const overall = setTimeout(() => finish(false, `overall timeout after ${OVERALL_TIMEOUT_MS} ms`), OVERALL_TIMEOUT_MS);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => finish(false, `interrupted by ${sig}`));

function withTimeout(promise, ms, what) {
  let t;
  const timer = new Promise((_, reject) => { t = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); });
  return Promise.race([promise, timer]).finally(() => clearTimeout(t));
}

// Fail early with a clear message when the peer is down, rather than with a network error
// from inside the Worker. Any HTTP status means something is listening.
async function checkPeer() {
  try {
    await fetch(TARGET, { signal: AbortSignal.timeout(3_000) });
  } catch (e) {
    throw new Error(`MCP peer not reachable at ${TARGET} (${e.cause?.code || e.message}); start it with scripts/peers.sh`);
  }
}

function bundle(outdir) {
  // A generated config in the temp dir keeps wrangler's .wrangler/ scratch files out of the repo.
  const config = path.join(tmp, "wrangler.jsonc");
  writeFileSync(config, JSON.stringify({ name: "mcp-wasm-workerd-test", main: WORKER, compatibility_date: COMPAT_DATE }, null, 2));
  const env = {
    ...process.env,
    CI: "true", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG_PATH: path.join(tmp, "logs"), FORCE_COLOR: "0",
  };
  return new Promise((resolve, reject) => {
    let output = "";
    // detached: wrangler's bin script re-spawns node, so on timeout we kill the whole group.
    bundler = spawn(process.execPath, [WRANGLER, "deploy", "--dry-run", "--outdir", outdir, "--config", config],
      { cwd: tmp, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    bundler.stdout.on("data", (d) => (output += d));
    bundler.stderr.on("data", (d) => (output += d));
    const t = setTimeout(() => {
      try { process.kill(-bundler.pid, "SIGKILL"); } catch {}
      reject(new Error(`wrangler bundling timed out after ${BUNDLE_TIMEOUT_MS} ms\n${output}`));
    }, BUNDLE_TIMEOUT_MS);
    bundler.on("error", (e) => { clearTimeout(t); reject(e); });
    bundler.on("exit", (code) => {
      clearTimeout(t);
      code === 0 ? resolve(output) : reject(new Error(`wrangler exited with ${code}\n${output}`));
    });
  });
}

async function main() {
  await checkPeer();

  const outdir = path.join(tmp, "out");
  const t0 = Date.now();
  await bundle(outdir);
  const files = readdirSync(outdir);
  const script = files.find((f) => f.endsWith(".js"));
  const wasm = files.filter((f) => f.endsWith(".wasm"));
  // Without a .wasm module the bundle cannot have called initSync: the usual cause is the
  // bundler tree-shaking pkg/workerd.js because pkg/package.json claims "sideEffects": false.
  if (!script || wasm.length === 0 || !/^import\s+\w+\s+from\s*["']\.\/[^"']+\.wasm["']/m.test(readFileSync(path.join(outdir, script), "utf8"))) {
    throw new Error(`bundle has no .wasm module import (files: ${files.join(", ")}); ` +
      `is pkg/workerd.js tree-shaken? check "sideEffects" in pkg/package.json`);
  }
  console.log(`bundled ${script} + ${wasm.join(", ")} in ${Date.now() - t0} ms`);

  mf = new Miniflare({
    modulesRoot: outdir,
    modules: [
      { type: "ESModule", path: path.join(outdir, script) },
      ...wasm.map((f) => ({ type: "CompiledWasm", path: path.join(outdir, f) })),
    ],
    compatibilityDate: COMPAT_DATE,
    kvNamespaces: ["SESSIONS"],
    host: "127.0.0.1",
    port: 0,
    // Otherwise miniflare fetches request.cf data from the internet, waits 3 s and falls back.
    cf: false,
  });
  await withTimeout(mf.ready, 30_000, "miniflare start");

  const passed = [];
  for (const [target, transport] of TARGETS) passed.push(await exercise(target, transport));
  passed.push(await exerciseOAuth(OAUTH_TARGET));
  passed.push(await exercisePersistence());
  return passed.join("; ");
}

// One worker request against one peer, checked field by field.
async function exercise(target, transport) {
  const res = await withTimeout(
    mf.dispatchFetch(`http://localhost/?target=${encodeURIComponent(target)}`),
    DISPATCH_TIMEOUT_MS, "worker request");
  const body = await res.text();
  let report;
  try { report = JSON.parse(body); } catch { throw new Error(`worker answered ${res.status} with non-JSON: ${body.slice(0, 500)}`); }
  if (!report.ok) throw new Error(`${target}: worker answered ${res.status}: ${JSON.stringify(report.error)}`);

  const text = (r) => (r?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
  const problems = [];
  if (!report.serverInfo?.name) problems.push("serverInfo.name missing");
  if (typeof report.protocolVersion !== "string" || !report.protocolVersion) problems.push("protocolVersion missing");
  if (report.transport !== transport) problems.push(`transport ${report.transport}, expected ${transport}`);
  for (const name of ["echo", "get-sum"]) if (!report.tools?.includes(name)) problems.push(`tool list lacks ${name}`);
  if (report.sum?.isError || !/\b5\b/.test(text(report.sum))) problems.push(`get-sum(2,3) gave ${JSON.stringify(report.sum)}`);
  if (report.echo?.isError || !text(report.echo).includes("hello from workerd")) problems.push(`echo gave ${JSON.stringify(report.echo)}`);
  if (typeof report.weather?.structuredContent?.temperature !== "number") problems.push(`get-structured-content gave ${JSON.stringify(report.weather)}`);
  if (!text(report.task).includes("Research Report") || report.taskStatuses?.at(-1) !== "completed") {
    problems.push(`callToolAsTask gave ${JSON.stringify(report.task)?.slice(0, 300)} after ${report.taskStatuses}`);
  }
  if (report.closed !== true) problems.push("close() did not complete");
  if (problems.length) throw new Error(`${target}: ${problems.join("; ")}\nreport: ${JSON.stringify(report)}`);

  console.log(`${target}: server ${report.serverInfo.name} ${report.serverInfo.version ?? ""}, ${report.transport}, protocol ${report.protocolVersion}, ` +
    `${report.tools.length} tools, get-sum: ${JSON.stringify(text(report.sum))}, echo: ${JSON.stringify(text(report.echo))}`);
  return `${report.serverInfo.name} over ${report.transport} via ${target}: listTools, callTool(get-sum, echo, get-structured-content), callToolAsTask, close OK`;
}

// client_credentials from inside workerd: discovery, the token request and the
// bearer on every MCP request all go through the Worker's fetch.
async function exerciseOAuth(target) {
  const res = await withTimeout(mf.dispatchFetch(`http://localhost/?oauth=${encodeURIComponent(target)}`), DISPATCH_TIMEOUT_MS, "worker request");
  const report = JSON.parse(await res.text());
  if (!report.ok) throw new Error(`${target}: worker answered ${res.status}: ${JSON.stringify(report.error)}`);
  if (report.whoami?.clientId !== "test-machine" || !report.whoami?.scopes?.includes("mcp:read")) {
    throw new Error(`${target}: whoami gave ${JSON.stringify(report.whoami)}`);
  }
  console.log(`${target}: client_credentials as ${report.whoami.clientId}, scopes ${report.whoami.scopes.join(" ")}, era ${report.era}`);
  return `OAuth client_credentials via ${target}: whoami as ${report.whoami.clientId}`;
}

// Two Worker invocations: the first connects a host (legacy server-everything and a
// modern server) and keeps its snapshot in KV; the second resumes it. The servers
// must see no second initialize and no second server/discover.
async function exercisePersistence() {
  const servers = { everything: TARGET, modern: MODERN_TARGET };
  const call = async (query) => {
    const res = await withTimeout(mf.dispatchFetch(`http://localhost/?${query}`), DISPATCH_TIMEOUT_MS, "worker request");
    const report = JSON.parse(await res.text());
    if (!report.ok) throw new Error(`persistence (${query.slice(0, 20)}): worker answered ${res.status}: ${JSON.stringify(report.error)}`);
    return report;
  };
  const text = (r) => (r?.content ?? []).map((c) => c.text).join("");
  const first = await call(`persist=start&servers=${encodeURIComponent(JSON.stringify(servers))}`);
  const second = await call("persist=resume");
  const problems = [];
  if (!first.methods.includes("initialize") || !first.methods.includes("server/discover")) problems.push(`first invocation sent ${first.methods}`);
  if (second.methods.includes("initialize") || second.methods.includes("server/discover")) problems.push(`second invocation sent ${second.methods}`);
  if (!first.sessions.everything || second.sessions.everything !== first.sessions.everything) problems.push(`sessions ${JSON.stringify(first.sessions)} -> ${JSON.stringify(second.sessions)}`);
  if (text(second.sum) !== "The sum of 4 and 5 is 9." || second.add?.structuredContent?.sum !== 42) problems.push(`results ${JSON.stringify([second.sum, second.add])}`);
  if (problems.length) throw new Error(`persistence: ${problems.join("; ")}`);
  console.log(`persistence: invocation 1 sent ${first.methods.join(",")}; snapshot ${first.snapshotBytes} bytes in KV; ` +
    `invocation 2 sent ${second.methods.join(",")} on session ${second.sessions.everything}`);
  return "McpHost snapshot in KV resumed by the next invocation without initialize or server/discover";
}

main().then(
  (msg) => { clearTimeout(overall); return finish(true, msg); },
  (e) => { clearTimeout(overall); return finish(false, e.message.split("\n")[0], e.message.includes("\n") ? e.message : undefined); },
);
