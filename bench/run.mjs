// The benchmark run, one command (bench/run.sh does set-up and the build first):
// starts the benchmark server, bundles the SDKs, runs every metric in Node and
// in headless Chromium, and writes bench/results.json, BENCHMARKS.md and the chart.
//   node bench/run.mjs              # BENCH_SCALE=0.3 for a quick, noisier run
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleAll } from "./bundle.mjs";
import { freshImport } from "./fresh-import.mjs";
import { writeReport } from "./report.mjs";
import { openBrowser, releaseBrowser } from "../tests/support/browser.mjs";
import { startPeer } from "../tests/support/peer-process.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
let BASE; // the server's port is picked by the OS
const scale = Number(process.env.BENCH_SCALE ?? 1);
const children = [];
const browser = {};

const version = (file) => JSON.parse(readFileSync(path.join(repo, file), "utf8")).version;

// Starts a script on a free port; resolves with its base URL.
async function start(script) {
  const { child, origin } = await startPeer(script);
  children.push(child);
  return origin;
}

function node() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", path.join(here, "node.mjs"), BASE], { env: { ...process.env, BENCH_SCALE: String(scale) }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`bench/node.mjs exited with ${code}`))));
  });
}

async function chromium() {
  const ctx = await openBrowser(browser, { wwwDir: "bench", isolate: true, profilePrefix: "mcp-wasm-bench-", args: ["--js-flags=--expose-gc", "--enable-precise-memory-info"] });
  const page = await ctx.newPage();
  page.on("console", (m) => { if (m.type() === "log") console.error(m.text()); });
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  await page.goto(`${browser.origin}/page/index.html`);
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready");
  page.setDefaultTimeout(1_200_000);
  return page.evaluate(([base, s]) => window.runBenchmarks(base, s), [BASE, scale]);
}

// Loading in a fresh page: each trial a new browser profile (no HTTP or compiled-code
// cache), one contender per trial in rotation; medians, as one load on this machine
// varies by tens of milliseconds with the static server's timing. For mcp-wasm, also
// the wasm linear memory right after loading: the baseline a page starts from.
// 15: with 7, mcp-wasm's median moved by up to 30 ms between runs (bench/analysis.md, sixth round).
const LOAD_TRIALS = 15;
const SPECIFIERS = { "mcp-wasm": "/pkg/index.js", "sdk 1.x": "/page/dist/sdk1.js", "client 2.x": "/page/dist/sdk2.js" };

async function freshLoads() {
  const times = Object.fromEntries(Object.keys(SPECIFIERS).map((name) => [name, []]));
  const memory = [];
  for (let trial = 0; trial < LOAD_TRIALS; trial++) {
    const names = Object.keys(SPECIFIERS);
    for (const name of [...names.slice(trial % names.length), ...names.slice(0, trial % names.length)]) {
      const outcome = await freshImport(SPECIFIERS[name], { profilePrefix: "mcp-wasm-bench-load-", wasmMemory: name === "mcp-wasm" });
      times[name].push(outcome.ms);
      if (outcome.wasmMemory) memory.push(outcome.wasmMemory);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  return {
    trials: LOAD_TRIALS,
    load: Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)])),
    freshWasmMemory: median(memory),
  };
}

try {
  BASE = await start("bench/server.mjs");
  const sizes = await bundleAll();
  const nodeResults = await node();
  const chromiumResults = await chromium();
  const fresh = await freshLoads();
  chromiumResults.load = fresh.load;
  chromiumResults.loadTrials = fresh.trials;
  chromiumResults.freshWasmMemory = fresh.freshWasmMemory;
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const results = {
    date: new Date().toISOString(),
    command: "bash bench/run.sh",
    scale,
    machine: `${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    versions: {
      "mcp-wasm": version("pkg/package.json"),
      "sdk 1.x": version("node_modules/@modelcontextprotocol/sdk/package.json"),
      "client 2.x": version("node_modules/@modelcontextprotocol/client/package.json"),
    },
    sizes,
    node: nodeResults,
    chromium: chromiumResults,
  };
  writeFileSync(path.join(here, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeReport(results);
  console.log("bench: wrote bench/results.json, BENCHMARKS.md and bench/chart.svg");
} finally {
  await releaseBrowser(browser);
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
}
