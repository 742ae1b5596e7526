// The McpHost scenarios (tests/host/scenarios.mjs) in headless Chromium (or Firefox): a page
// served from 127.0.0.1 imports the built package and runs a host over
// server-everything (Streamable HTTP and HTTP+SSE, the latter over EventSource)
// and a modern @modelcontextprotocol/server 2.x server, all started by
// scripts/peers.sh, which names them in MCP_TEST_URL, MCP_SSE_TEST_URL and MCP_MODERN_TEST_URL.
//
//   node tests/host/run-chromium.mjs [chromium|firefox]   # needs the built pkg/ and the peers
//
// Prints `ok <check>` per check and `browser-host: N checks passed`; exits 0 or 1.
import { openBrowser, releaseBrowser } from "../support/browser.mjs";

const SCENARIO_TIMEOUT_MS = 60_000;
const OVERALL_TIMEOUT_MS = 240_000;

const browser = {};
let checks = 0;

async function finish(error) {
  if (error) console.log(`FAIL browser-host: ${error.message}`);
  else console.log(`browser-host: ${checks} checks passed`);
  await releaseBrowser(browser);
  process.exit(error ? 1 : 0);
}
const overall = setTimeout(() => finish(new Error(`overall timeout after ${OVERALL_TIMEOUT_MS} ms`)), OVERALL_TIMEOUT_MS);

try {
  const ctx = await openBrowser(browser, { wwwDir: "tests/host", profilePrefix: "mcp-wasm-host-", browser: process.argv[2] });
  const page = await ctx.newPage();
  page.setDefaultTimeout(SCENARIO_TIMEOUT_MS);
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  const peers = new URLSearchParams(Object.entries(process.env).filter(([name]) => /^MCP_(SSE_|MODERN_)?TEST_URL$/.test(name)));
  await page.goto(`${browser.origin}/index.html?${peers}`);
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready");
  const transports = await page.evaluate(() => typeof EventSource);
  if (transports !== "function") throw new Error("the page has no EventSource");
  for (const name of await page.evaluate(() => window.scenarioNames)) {
    const outcome = await page.evaluate((n) => window.runScenario(n), name);
    if (outcome.error) throw new Error(`${name}: ${outcome.error}`);
    for (const check of outcome.checks) {
      checks += 1;
      console.log(`ok   ${name}: ${check}`);
    }
  }
  clearTimeout(overall);
  await finish();
} catch (error) {
  clearTimeout(overall);
  await finish(error);
}
