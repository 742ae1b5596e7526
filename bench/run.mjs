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
  const ctx = await openBrowser(browser, { wwwDir: "bench", profilePrefix: "mcp-wasm-bench-", args: ["--js-flags=--expose-gc", "--enable-precise-memory-info"] });
  const page = await ctx.newPage();
  page.on("console", (m) => { if (m.type() === "log") console.error(m.text()); });
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  await page.goto(`${browser.origin}/page/index.html`);
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready");
  page.setDefaultTimeout(1_200_000);
  return page.evaluate(([base, s]) => window.runBenchmarks(base, s), [BASE, scale]);
}

try {
  BASE = await start("bench/server.mjs");
  const sizes = await bundleAll();
  const nodeResults = await node();
  const chromiumResults = await chromium();
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
