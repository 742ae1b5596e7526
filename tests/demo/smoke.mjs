// Demo smoke test: headless Debian Chromium loads www/ (with the built pkg/), lets the page
// auto-connect to an MCP server, calls get-sum {a:2,b:3} through the UI and expects 5.
//
//   MCP_TEST_URL=http://127.0.0.1:38011/mcp node tests/demo/smoke.mjs
//   DEMO_URL=http://127.0.0.1:38031/ node tests/demo/smoke.mjs   # use an already running scripts/serve.mjs
//
// Writes test-results/demo/demo.png (and demo-narrow.png, a phone-sized view); prints one
// `PASS demo: …` or `FAIL demo: …` line; exits 0 or 1.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MCP_URL = process.env.MCP_TEST_URL || "http://127.0.0.1:38011/mcp";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const OUT_DIR = path.join(repo, "test-results/demo");
// peers-and-tooling.md §5.2; playwright adds the headless switch itself.
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const STEP_TIMEOUT_MS = 20_000;
const OVERALL_TIMEOUT_MS = 90_000;

let server; // our scripts/serve.mjs child, if we started one
let ctx;
let profile;
let done = false;

// One exit path, so the browser, the server and the profile go away on every outcome.
async function finish(ok, message) {
  if (done) return;
  done = true;
  console.log(`${ok ? "PASS" : "FAIL"} demo: ${message}`);
  if (ctx) await ctx.close().catch((e) => console.error("browser close:", e.message));
  if (server && server.exitCode === null) server.kill("SIGTERM");
  if (profile) rmSync(profile, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}
const overall = setTimeout(() => finish(false, `overall timeout after ${OVERALL_TIMEOUT_MS} ms`), OVERALL_TIMEOUT_MS);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => finish(false, `interrupted by ${sig}`));

// Start scripts/serve.mjs on a free port and wait for its `demo: <url>` line.
function startServer() {
  if (!existsSync(path.join(repo, "pkg/index.js"))) {
    throw new Error("pkg/index.js missing: build the package first");
  }
  return new Promise((resolve, reject) => {
    server = spawn(process.execPath, [path.join(repo, "scripts/serve.mjs")], {
      env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "inherit"],
    });
    const t = setTimeout(() => reject(new Error("scripts/serve.mjs did not start within 10 s")), 10_000);
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/demo: (http:\/\/\S+)/);
      if (m) { clearTimeout(t); resolve(m[1]); }
    });
    server.on("exit", (code) => { clearTimeout(t); reject(new Error(`scripts/serve.mjs exited with ${code}`)); });
  });
}

async function main() {
  const demo = process.env.DEMO_URL || await startServer();
  const pageUrl = new URL(demo);
  pageUrl.searchParams.set("server", MCP_URL);

  profile = mkdtempSync(path.join(os.tmpdir(), "mcp-wasm-demo-profile-"));
  ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 30_000,
    viewport: { width: 1280, height: 900 },
  });
  const page = ctx.pages()[0] ?? await ctx.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });

  const status = page.getByTestId("status");
  const why = async () => `status: ${JSON.stringify(await status.textContent().catch(() => "?"))}` +
    (pageErrors.length ? `; page errors: ${pageErrors.join(" | ")}` : "");

  try {
    await page.goto(pageUrl.href, { waitUntil: "load" });
    // Done as soon as both tools are listed, or the page reports an error: no need to sit
    // out the whole timeout when the connection already failed.
    await page.waitForFunction(() => {
      const state = document.querySelector('[data-testid="status"]')?.dataset.state;
      const names = [...document.querySelectorAll('[data-testid="tool-item"]')].map((li) => li.dataset.name);
      return state === "error" || (names.includes("echo") && names.includes("get-sum"));
    }, null, { timeout: STEP_TIMEOUT_MS });
    if (await status.getAttribute("data-state") === "error") throw new Error("the page reported an error");

    const info = {
      server: await page.getByTestId("info-server").textContent(),
      protocol: await page.getByTestId("info-protocol").textContent(),
      session: await page.getByTestId("info-session").textContent(),
      tools: await page.getByTestId("tool-item").count(),
    };

    await page.locator('[data-testid="tool-item"][data-name="get-sum"] button').click();
    await page.getByTestId("args").fill('{"a":2,"b":3}');
    await page.getByTestId("call").click();
    const result = page.getByTestId("result");
    await page.waitForFunction(() => ["ok", "tool-error", "error"]
      .includes(document.querySelector('[data-testid="result"]')?.dataset.state), null, { timeout: STEP_TIMEOUT_MS });
    const text = (await result.innerText()).trim();
    const state = await result.getAttribute("data-state");
    if (state !== "ok" || !/\b5\b/.test(text)) throw new Error(`get-sum result (${state}): ${JSON.stringify(text.slice(0, 300))}`);

    await screenshots(page);
    return `${info.server}, protocol ${info.protocol}, session ${info.session}, ${info.tools} tools; ` +
      `get-sum(2,3) -> ${JSON.stringify(text.split("\n")[0])}; screenshot ${path.relative(repo, OUT_DIR)}/demo.png`;
  } catch (e) {
    await screenshots(page).catch(() => {}); // the failure state is the most useful picture
    throw new Error(`${e.message.split("\n")[0]} (${await why()})`);
  }
}

async function screenshots(page) {
  mkdirSync(OUT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(OUT_DIR, "demo.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(OUT_DIR, "demo-narrow.png"), fullPage: true });
}

main().then(
  (msg) => { clearTimeout(overall); return finish(true, msg); },
  (e) => { clearTimeout(overall); return finish(false, e.message); },
);
