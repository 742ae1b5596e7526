// The hostile tier: a hostile MCP server (tests/peers/hostile-mcp.mjs, started
// here on OS-picked ports) attacks the built package, first in Node, then in
// headless Chromium (a page served by scripts/serve.mjs imports "mcp-wasm"
// through an import map). Each attack must settle within 2 s with a typed error,
// and the same client must answer the next call (tests/hostile/scenarios.mjs).
//
//   node tests/hostile/run.mjs      # needs the built pkg/
//
// Prints `ok   <runtime> <scenario>: <check>` per check, `FAIL …` for each scenario
// that failed, then `hostile: N passed, M failed`; exits 1 on any failure.
import { openBrowser, releaseBrowser } from "../support/browser.mjs";
import { startPeer } from "../support/peer-process.mjs";
import { runScenario, scenariosFor } from "./scenarios.mjs";

const SCENARIO_TIMEOUT_MS = 20_000;
const OVERALL_TIMEOUT_MS = 110_000;

const browser = {};
let peer;
let passed = 0;
let failed = 0;

function report(runtime, name, outcome) {
  for (const check of outcome.checks) {
    passed += 1;
    console.log(`ok   ${runtime.padEnd(8)} ${name}: ${check}`);
  }
  if (outcome.error) {
    failed += 1;
    console.log(`FAIL ${runtime.padEnd(8)} ${name}: ${outcome.error}`);
  }
}

// A scenario that hangs past its own 2 s bounds still ends here, as a failure.
function bounded(outcome, name) {
  let timer;
  const hang = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ checks: [], error: `did not finish within ${SCENARIO_TIMEOUT_MS} ms` }), SCENARIO_TIMEOUT_MS);
  });
  return Promise.race([outcome, hang]).finally(() => clearTimeout(timer));
}

async function finish(error) {
  if (error) {
    failed += 1;
    console.log(`FAIL hostile: ${error.message}`);
  }
  console.log(`hostile: ${passed} passed, ${failed} failed`);
  await releaseBrowser(browser);
  if (peer && peer.child.exitCode === null) peer.child.kill("SIGTERM");
  process.exit(failed === 0 ? 0 : 1);
}
const overall = setTimeout(() => finish(new Error(`overall timeout after ${OVERALL_TIMEOUT_MS} ms`)), OVERALL_TIMEOUT_MS);

try {
  peer = await startPeer("tests/peers/hostile-mcp.mjs");
  for (const name of scenariosFor("node")) report("node", name, await bounded(runScenario(name, peer.origin, "node"), name));

  const ctx = await openBrowser(browser, { wwwDir: "tests/hostile", profilePrefix: "mcp-wasm-hostile-" });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  await page.goto(`${browser.origin}/index.html`);
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready");
  for (const name of await page.evaluate(() => window.scenarioNames)) {
    const outcome = page.evaluate(([scenario, origin]) => window.runScenario(scenario, origin), [name, peer.origin]);
    report("chromium", name, await bounded(outcome, name));
  }
  clearTimeout(overall);
  await finish();
} catch (error) {
  clearTimeout(overall);
  await finish(error);
}
