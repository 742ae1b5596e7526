// The soak benchmark, one command: memory under long use with faults. Starts
// server-everything and the fault proxy, runs bench/soak/drive.mjs in Node and in
// one headless Chromium page, judges whether memory stayed flat, prints a summary
// per runtime, and writes bench/soak-results.json and BENCHMARKS.md's Soak section.
//   node bench/soak.mjs                    # 100,000 calls per runtime
//   SOAK_CALLS=2000 node bench/soak.mjs    # a quick run (see bench/soak/options.mjs)
// Exits 1 when a runtime's verdict fails or it did not finish; what finished is
// written either way, so a crash late in a long run keeps the runtimes before it.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openBrowser, releaseBrowser } from "../tests/support/browser.mjs";
import { judge } from "./soak/judge.mjs";
import { soakOptions } from "./soak/options.mjs";
import { startSoakPeers, stopSoakPeers } from "./soak/peers.mjs";
import { soakSection, summary, withSoakSection } from "./soak/report.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const { runtimes: selected, ...options } = soakOptions(process.env);
const browser = {};

function node(proxy) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", path.join(here, "soak/node.mjs"), proxy], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`bench/soak/node.mjs exited with ${code}`))));
  });
}

async function chromium(proxy) {
  const ctx = await openBrowser(browser, { wwwDir: "bench", isolate: true, profilePrefix: "mcp-wasm-soak-", args: ["--js-flags=--expose-gc", "--enable-precise-memory-info"] });
  const page = await ctx.newPage();
  page.on("console", (m) => { if (m.type() === "log") console.error(m.text()); });
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  await page.goto(`${browser.origin}/soak/page/index.html`);
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready");
  page.setDefaultTimeout(0); // the run is bounded by its call count and each call's timeout
  return page.evaluate(([origin, o]) => window.runSoak(origin, o), [proxy, options]);
}

const RUNNERS = { node, chromium };
const unknown = selected.filter((name) => !(name in RUNNERS));
if (unknown.length) throw new Error(`SOAK_RUNTIMES: no runtime ${unknown.join(", ")} (there are ${Object.keys(RUNNERS).join(", ")})`);

let peers = { children: [] };
try {
  peers = await startSoakPeers();
  const runtimes = {};
  const errors = {};
  for (const name of selected) {
    try {
      runtimes[name] = await RUNNERS[name](peers.proxy);
    } catch (e) {
      errors[name] = String(e?.message ?? e).split("\n")[0];
      console.error(`soak: ${name} did not finish: ${errors[name]}`);
    }
  }
  const verdicts = Object.fromEntries(Object.entries(runtimes).map(([name, r]) => [name, judge(r)]));
  const settings = Object.entries(process.env).filter(([key]) => key.startsWith("SOAK_")).sort();
  const results = {
    date: new Date().toISOString(),
    command: [...settings.map(([key, value]) => `${key}=${value}`), "node bench/soak.mjs"].join(" "),
    machine: `${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    version: JSON.parse(readFileSync(path.join(repo, "pkg/package.json"), "utf8")).version,
    options,
    verdicts,
    errors,
    runtimes,
  };
  writeFileSync(path.join(here, "soak-results.json"), `${JSON.stringify(results, null, 2)}\n`);
  const benchmarks = path.join(repo, "BENCHMARKS.md");
  writeFileSync(benchmarks, withSoakSection(readFileSync(benchmarks, "utf8"), soakSection(results)));
  for (const [name, r] of Object.entries(runtimes)) console.log(summary(name, r, verdicts[name]));
  for (const [name, error] of Object.entries(errors)) console.log(`${name}: did not finish: ${error}`);
  console.log("soak: wrote bench/soak-results.json and the Soak section of BENCHMARKS.md");
  process.exitCode = Object.values(verdicts).every((v) => v.passed) && !Object.keys(errors).length ? 0 : 1;
} finally {
  await releaseBrowser(browser);
  stopSoakPeers(peers.children);
}
