// The examples in examples/ run as their READMEs say, against a server-everything
// and the scripted OpenAI-compatible model (tests/peers/scripted-llm.mjs), both
// started here on ports the OS picks:
//   node-script        `node main.mjs URL`; its output checked line by line
//   cloudflare-worker  bundled by wrangler from its own wrangler.toml, run in workerd
//                      through miniflare with a KV namespace; three requests share one
//                      MCP session, suspended to KV and resumed
//   vite-chat          `tsc --noEmit` and `vite build`; the built page, served
//                      statically, driven in headless Chromium: connect, the tools,
//                      a question, the model's tool call, approval, the real result,
//                      the answer; then a refused call
//
//   node tests/examples/run.mjs        # needs pkg/ built (scripts/build.sh)
//
// Nothing is installed in the examples: `mcp-wasm` resolves from them, as from any
// folder of this repository, to node_modules/mcp-wasm, the link scripts/build.sh makes
// to pkg/ (checked first), and vite, wrangler and typescript are the repository's own.
// Prints `ok <check>` per check and `examples: N checks passed`; exits 0 or 1.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Miniflare } from "miniflare";
import { checkList, openBrowser, releaseBrowser } from "../support/browser.mjs";
import { startPeer } from "../support/peer-process.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const examples = path.join(repo, "examples");
const require = createRequire(import.meta.url);
const bin = (pkg, file) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
const OUT = path.join(repo, "test-results/examples");
const STEP_TIMEOUT_MS = 20_000;
const OVERALL_TIMEOUT_MS = 240_000;

const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-wasm-examples-"));
const children = [];
const browser = {};
let mf;
let done = false;
const { check, count } = checkList();

async function finish(error) {
  if (done) return;
  done = true;
  if (error) console.log(`FAIL examples: ${error.stack ?? error}`);
  else console.log(`examples: ${count()} checks passed`);
  await releaseBrowser(browser);
  if (mf) await mf.dispose().catch(() => {});
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  rmSync(tmp, { recursive: true, force: true });
  process.exit(error ? 1 : 0);
}
setTimeout(() => finish(new Error(`overall timeout after ${OVERALL_TIMEOUT_MS} ms`)), OVERALL_TIMEOUT_MS).unref();
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => finish(new Error(`interrupted by ${sig}`)));

// Runs a command to its end; resolves with its output, rejects on a non-zero exit or a timeout.
function run(command, args, { cwd, env = {}, timeoutMs = 60_000 }) {
  return new Promise((resolve, reject) => {
    // detached: wrangler re-spawns node, so a timeout kills the whole group.
    const child = spawn(command, args, { cwd, env: { ...process.env, FORCE_COLOR: "0", ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      try { process.kill(-child.pid, "SIGKILL"); } catch {}
      reject(new Error(`${path.basename(args[0] ?? command)} timed out after ${timeoutMs} ms\n${stdout}${stderr}`));
    }, timeoutMs);
    child.on("error", (e) => { clearTimeout(timer); reject(e); });
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${[command, ...args].join(" ")} exited with ${code}\n${stdout}${stderr}`));
    });
  });
}

function checkResolution() {
  const pkg = realpathSync(path.join(repo, "pkg"));
  for (const name of ["node-script", "cloudflare-worker", "vite-chat"]) {
    const manifest = JSON.parse(readFileSync(path.join(examples, name, "package.json"), "utf8"));
    let resolved;
    try {
      resolved = realpathSync(createRequire(path.join(examples, name, "package.json")).resolve("mcp-wasm"));
    } catch (e) {
      throw new Error(`${name}: mcp-wasm does not resolve (${e.code}); scripts/build.sh links node_modules/mcp-wasm to pkg/`);
    }
    check(manifest.dependencies?.["mcp-wasm"] === "file:../../pkg" && resolved.startsWith(pkg + path.sep),
      `${name}: mcp-wasm is file:../../pkg and resolves to this repository's pkg/`, `${manifest.dependencies?.["mcp-wasm"]} -> ${resolved}`);
  }
}

async function nodeScript(mcpUrl) {
  const { stdout } = await run(process.execPath, ["main.mjs", mcpUrl], { cwd: path.join(examples, "node-script") });
  const lines = stdout.trim().split("\n");
  check(/^connected to \S+ \S+ over streamable-http, protocol \d{4}-\d{2}-\d{2}$/.test(lines[0] ?? ""), "node-script: connected over Streamable HTTP", lines[0]);
  const tools = lines.find((l) => /^\d+ tools: /.test(l)) ?? "";
  check(["echo", "get-sum", "trigger-long-running-operation"].every((t) => tools.split(/[:,] /).includes(t)), "node-script: listed the tools", tools);
  const progress = lines.filter((l) => l.startsWith("progress "));
  check(progress.join("|") === "progress 1/4|progress 2/4|progress 3/4|progress 4/4", "node-script: printed the tool's four progress updates", progress.join("|"));
  check(lines.includes("trigger-long-running-operation: Long running operation completed. Duration: 2 seconds, Steps: 4."),
    "node-script: printed the tool's result", stdout);
  const resource = lines.find((l) => l.startsWith("resource ")) ?? "";
  check(/^resource \S+:\/\/\S+ \(\S+\), [1-9]\d* characters: \S/.test(resource), "node-script: read a resource", resource);
  check(lines.at(-1) === "closed", "node-script: closed the session last", lines.at(-1));
}

async function cloudflareWorker(mcpUrl) {
  const dir = path.join(examples, "cloudflare-worker");
  const config = path.join(dir, "wrangler.toml");
  // wrangler keeps scratch files in .wrangler/ next to the config (ignored by git); remove ours.
  const scratch = path.join(dir, ".wrangler");
  const hadScratch = existsSync(scratch);
  const outdir = path.join(tmp, "worker");
  try {
    await run(process.execPath, [bin("wrangler", "bin/wrangler.js"), "deploy", "--dry-run", "--outdir", outdir, "--config", config], {
      cwd: dir, env: { CI: "true", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG_PATH: path.join(tmp, "wrangler-logs") },
    });
  } finally {
    if (!hadScratch) rmSync(scratch, { recursive: true, force: true });
  }
  const { unstable_readConfig } = await import("wrangler");
  const wrangler = unstable_readConfig({ config });
  const script = "index.js";
  const wasm = readdirSync(outdir).filter((f) => f.endsWith(".wasm"));
  // The core's three modules (the primary, the rest, OAuth), and the validator module it instantiates on first use.
  const modules = ["mcp_wasm_bg.wasm", "mcp_wasm_rest_bg.wasm", "mcp_wasm_oauth_bg.wasm", "mcp_wasm_validator_bg.wasm"];
  check(existsSync(path.join(outdir, script)) && wasm.length === modules.length && modules.every((m) => wasm.some((f) => f.endsWith(m))),
    "cloudflare-worker: wrangler bundled the Worker with the package's four wasm modules", wasm.join(","));

  mf = new Miniflare({
    modulesRoot: outdir,
    modules: [
      { type: "ESModule", path: path.join(outdir, script) },
      ...wasm.map((f) => ({ type: "CompiledWasm", path: path.join(outdir, f) })),
    ],
    compatibilityDate: wrangler.compatibility_date,
    kvNamespaces: wrangler.kv_namespaces.map((kv) => kv.binding),
    bindings: { ...wrangler.vars, MCP_URL: mcpUrl },
    cf: false, // a placeholder Request.cf: miniflare would fetch the real one from workers.cloudflare.com
    host: "127.0.0.1",
    port: 0,
  });
  const ask = async (pathname, body) => {
    const res = await mf.dispatchFetch(`http://localhost${pathname}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
    return { status: res.status, json: await res.json() };
  };
  const text = (result) => (result?.content ?? []).map((c) => c.text).join("");

  const list = await ask("/tools");
  const names = (list.json.tools ?? []).map((t) => t.name);
  check(list.status === 200 && list.json.resumed === false && typeof list.json.sessionId === "string" && names.includes("echo") && names.includes("get-sum"),
    "cloudflare-worker: GET /tools connected and listed the tools", JSON.stringify(list.json).slice(0, 300));
  const saved = await (await mf.getKVNamespace("SESSIONS")).get("mcp-session", "json");
  check(saved?.url === mcpUrl && saved.sessionId === list.json.sessionId && saved.transport === "streamable-http",
    "cloudflare-worker: the suspended session's snapshot is in KV", JSON.stringify(saved).slice(0, 300));
  const echo = await ask("/tools/echo", { message: "hello from the worker example" });
  check(echo.status === 200 && text(echo.json.result) === "Echo: hello from the worker example",
    "cloudflare-worker: POST /tools/echo answered with the server's echo", JSON.stringify(echo.json));
  check(echo.json.resumed === true && echo.json.sessionId === list.json.sessionId,
    "cloudflare-worker: the second request resumed the first one's session from KV", `${list.json.sessionId} -> ${JSON.stringify(echo.json)}`);
  const sum = await ask("/tools/get-sum", { a: 2, b: 3 });
  check(sum.status === 200 && sum.json.resumed === true && sum.json.sessionId === list.json.sessionId && text(sum.json.result) === "The sum of 2 and 3 is 5.",
    "cloudflare-worker: POST /tools/get-sum on the same session gave the server's sum", JSON.stringify(sum.json));
  const unknown = await ask("/tools/no-such-tool", {});
  check(unknown.status === 200 && unknown.json.result?.isError === true && text(unknown.json.result).includes("no-such-tool"),
    "cloudflare-worker: an unknown tool comes back as the server's error result", JSON.stringify(unknown.json));
  const wrong = await ask("/nowhere");
  check(wrong.status === 404, "cloudflare-worker: other paths get a 404 with the usage", JSON.stringify(wrong.json));
  await mf.dispose();
  mf = undefined;
}

async function viteChat(mcpUrl, llmOrigin) {
  const dir = path.join(examples, "vite-chat");
  await run(process.execPath, [bin("typescript", "bin/tsc"), "--noEmit", "-p", dir], { cwd: dir });
  check(true, "vite-chat: tsc --noEmit (strict) passed");
  const dist = path.join(tmp, "vite-chat");
  const { stdout } = await run(process.execPath, [bin("vite", "bin/vite.js"), "build", "--outDir", dist, "--emptyOutDir", "--logLevel", "warn"], { cwd: dir });
  const assets = readdirSync(path.join(dist, "assets"));
  check(assets.some((f) => f.endsWith(".wasm")) && assets.some((f) => f.endsWith(".js")), "vite-chat: vite build emitted the page, its script and the wasm module", `${assets.join(", ")} ${stdout}`);

  const ctx = await openBrowser(browser, { wwwDir: dist, profilePrefix: "mcp-wasm-examples-", viewport: { width: 1100, height: 760 } });
  const page = await ctx.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // The tools/call requests that leave the browser for the MCP server.
  const sent = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url() === mcpUrl && request.postDataJSON()?.method === "tools/call") sent.push(request.postDataJSON().params.name);
  });
  await page.goto(`${browser.origin}/`);

  await page.fill("input[name=mcpUrl]", mcpUrl);
  await page.click("#connect button");
  await page.waitForFunction(() => ["connected", "error"].includes(document.querySelector("#status")?.dataset.state ?? ""));
  const status = await page.textContent("#status");
  check(await page.getAttribute("#status", "data-state") === "connected", "vite-chat: connected to server-everything", status);
  const tools = await page.locator("#tools li").allTextContents();
  check(tools.includes("echo") && tools.includes("get-sum") && tools.length >= 10, "vite-chat: the server's tools are listed", tools.join(", "));

  await page.fill("input[name=baseUrl]", `${llmOrigin}/v1`);
  await page.fill("input[name=apiKey]", "sk-example-test");
  await page.fill("input[name=model]", "scripted-1");
  await page.fill("input[name=prompt]", "What is 2 + 3?");
  await page.click("#ask button:not(#stop)");

  await page.waitForSelector("#approval[open]");
  check(await page.textContent("#approval-tool") === "get-sum" && JSON.parse(await page.textContent("#approval-args") ?? "null")?.a === 2,
    "vite-chat: approval is asked for the model's get-sum call with its arguments", await page.textContent("#approval"));
  const call = await page.locator("#transcript li.call").allTextContents();
  check(call.length === 1 && call[0].startsWith("get-sum(") && call[0].includes('"a":2'), "vite-chat: the model's tool call is shown", call.join(" | "));
  check(sent.length === 0, "vite-chat: nothing reached the server before the approval", sent.join(","));
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: path.join(OUT, "vite-chat-approval.png") });
  await page.click("#approval button[value=allow]");

  await page.waitForSelector("#transcript li.assistant");
  const result = await page.locator("#transcript li.result").allTextContents();
  check(result.length === 1 && result[0] === "get-sum → The sum of 2 and 3 is 5.", "vite-chat: the tool's real result is shown", result.join(" | "));
  check(sent.join(",") === "get-sum", "vite-chat: the approved call reached the server once", sent.join(","));
  const answer = await page.locator("#transcript li.assistant").allTextContents();
  check(answer.length === 1 && answer[0] === "The tool says: The sum of 2 and 3 is 5.", "vite-chat: the model's final answer is shown", answer.join(" | "));
  await page.screenshot({ path: path.join(OUT, "vite-chat-answer.png") });

  const requests = await (await fetch(`${llmOrigin}/__requests`)).json();
  check(requests.length === 2 && requests.every((r) => r.authorization === "Bearer sk-example-test" && r.body.model === "scripted-1") &&
    requests[0].body.tools.some((t) => t.function.name === "get-sum") && requests[1].body.messages.at(-1).role === "tool",
    "vite-chat: the model got the key, the tools, and then the tool result", JSON.stringify(requests.map((r) => r.body.messages.length)));

  // A second question in the same conversation; this time the call is denied.
  await page.fill("input[name=prompt]", "And again?");
  await page.click("#ask button:not(#stop)");
  await page.waitForSelector("#approval[open]");
  await page.click("#approval button[value=deny]");
  await page.waitForSelector("#transcript li.error");
  const after = await page.locator("#transcript li").evaluateAll((items) => items.map((li) => `${li.className}: ${li.textContent}`));
  check(sent.join(",") === "get-sum", "vite-chat: a denied call never reaches the server", sent.join(","));
  check(after.at(-1) === "error: you refused get-sum; the model went on without it" &&
    after.at(-2) === "assistant: The tool says: The user refused this tool call, so it was not run.",
    "vite-chat: the model is told of the refusal and the page says so", after.slice(-4).join(" | "));
  const secondTurn = (await (await fetch(`${llmOrigin}/__requests`)).json())[2];
  check(secondTurn?.body.messages.length === 5, "vite-chat: the second question carries the first exchange", JSON.stringify(secondTurn?.body.messages.map((m) => m.role)));
  check(errors.length === 0, "vite-chat: no page errors", errors.join("; "));
}

async function main() {
  if (!existsSync(path.join(repo, "pkg/index.js"))) throw new Error("pkg/ is not built: run scripts/build.sh");
  checkResolution();
  const everything = await startPeer("node_modules/@modelcontextprotocol/server-everything/dist/index.js", {
    args: ["streamableHttp"],
    nodeArgs: ["loopback", "announce-port"].flatMap((preload) => ["--import", pathToFileURL(path.join(repo, `tests/peers/${preload}.mjs`)).href]),
  });
  children.push(everything.child);
  const llm = await startPeer("tests/peers/scripted-llm.mjs");
  children.push(llm.child);
  const mcpUrl = `${everything.origin}/mcp`;
  console.log(`server-everything at ${mcpUrl}, scripted model at ${llm.origin}/v1`);
  await nodeScript(mcpUrl);
  await cloudflareWorker(mcpUrl);
  await viteChat(mcpUrl, llm.origin);
}

main().then(() => finish(), finish);
