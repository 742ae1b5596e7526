// The 2026-07-28 scenarios (tests/modern-peer/scenarios.mjs) in headless Chromium (or Firefox): a page served
// from 127.0.0.1 imports the built package and runs them, cross-origin, against the modern peer
// (tests/peers/modern-server.mjs) and the fault proxy in front of it, both started here on ports
// the OS picks.
//
//   node tests/modern-peer/run-chromium.mjs [chromium|firefox]   # needs the built pkg/
//
// Prints `ok <scenario>: <check>` per check and `browser-modern: N checks passed`; exits 0 or 1.
import { checkList, openBrowser, releaseBrowser } from "../support/browser.mjs";
import { startPeer } from "../support/peer-process.mjs";

const SCENARIO_TIMEOUT_MS = 60_000;
const OVERALL_TIMEOUT_MS = 180_000;

const browser = {};
const peers = [];
const { check, count } = checkList();

async function finish(error) {
  if (error) console.log(`FAIL browser-modern: ${error.message}`);
  else console.log(`browser-modern: ${count()} checks passed`);
  await releaseBrowser(browser);
  for (const peer of peers) peer.child.kill();
  process.exit(error ? 1 : 0);
}
const overall = setTimeout(() => finish(new Error(`overall timeout after ${OVERALL_TIMEOUT_MS} ms`)), OVERALL_TIMEOUT_MS);

async function main() {
  const modern = await startPeer("tests/peers/modern-server.mjs", { args: ["modern"] });
  peers.push(modern);
  const proxy = await startPeer("tests/peers/fault-proxy.mjs", { env: { UPSTREAM: modern.origin } });
  peers.push(proxy);
  const urls = {
    modern: `${modern.origin}/mcp`,
    loggingUndeclared: `${modern.origin}/logging-undeclared/mcp`,
    versionFault: `${proxy.origin}/unsupported-version/mcp`,
    listenDrop: `${proxy.origin}/drop-listen/mcp`,
    narrowAck: `${proxy.origin}/narrow-ack/mcp`,
    narrowReconnect: `${proxy.origin}/narrow-reconnect/mcp`,
  };
  const ctx = await openBrowser(browser, { wwwDir: "tests/modern-peer", profilePrefix: "mcp-wasm-modern-peer-", browser: process.argv[2] });
  const page = await ctx.newPage();
  page.setDefaultTimeout(SCENARIO_TIMEOUT_MS);
  page.on("pageerror", (e) => console.error(`page error: ${e.message}`));
  await page.goto(`${browser.origin}/index.html`);
  await page.waitForFunction(() => document.querySelector("#status")?.textContent === "ready");
  for (const name of await page.evaluate(() => window.scenarioNames)) {
    const outcome = await page.evaluate(([n, u]) => window.runScenario(n, u), [name, urls]);
    if (outcome.error) throw new Error(`${name}: ${outcome.error}`);
    for (const what of outcome.checks) check(true, `${name}: ${what}`);
  }
}

main().then(() => { clearTimeout(overall); return finish(); }, (e) => { clearTimeout(overall); return finish(e); });
