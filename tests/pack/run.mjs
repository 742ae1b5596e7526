// The pack tier: mcp-wasm as users install it, not through the pkg/ symlink the other
// tiers import. It packs the built pkg/ with `npm pack`, checks the tarball holds what the
// entry points import plus the README, changelog and licenses and nothing else, installs
// the tarball into a fresh temporary project (offline: the package has no dependencies),
// and from that install
//   - imports it from a Node ESM program and calls echo on server-everything,
//   - bundles a page with esbuild and with Vite and calls echo from each bundle in
//     headless Chromium (the wasm fetched from the bundle's output, nothing from pkg/),
//   - has a fresh unbundled page's first call bring a result long enough to stay in JS,
//     for which the rest of the core is fetched first, off the page's thread,
// all through a recording proxy that shows the clientInfo each one sends. Then
// `cargo package` packs the crate and verifies it by building it for
// wasm32-unknown-unknown, and the crate's contents are checked the same way. The
// versions of Cargo.toml, Cargo.lock, pkg-template/package.json, the installed
// package.json, CHANGELOG.md's newest section and the clientInfo sent must all agree.
//
//   node tests/pack/run.mjs          # needs the built pkg/; MCP_TEST_URL picks the server,
//                                    # else it starts server-everything on a port the OS picks
//   PACK_KEEP=1 node tests/pack/run.mjs    # keep the temporary project and say where
//   CARGO_FLOCK=/tmp/cargo.lock …          # run cargo under flock on that file
//
// Prints `ok   <check>` per check, the tarball's and the crate's size and file count,
// and each step's time; exits 1 on the first failure.
import { spawn } from "node:child_process";
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build as esbuild } from "esbuild";
import { build as viteBuild } from "vite";
import { checkList, openBrowser, releaseBrowser } from "../support/browser.mjs";
import { startPeer } from "../support/peer-process.mjs";
import { PACKAGE_DOCUMENTS, crateReferences, packageClosure, unexpectedInCrate } from "./contents.mjs";
import { startRecordingProxy } from "./recording-proxy.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const OVERALL_TIMEOUT_MS = 20 * 60_000; // cargo may wait for its lock behind other builds
const PAGE_TIMEOUT_MS = 30_000;
const MESSAGE = "packed and installed";
const { check, count } = checkList();
const timings = [];
const cleanups = [];

const read = (file) => readFileSync(path.join(repo, file), "utf8");
const kib = (bytes) => `${bytes.toLocaleString("en")} bytes (${(bytes / 1024).toFixed(1)} KiB)`;

async function step(name, body) {
  const start = performance.now();
  try {
    return await body();
  } finally {
    timings.push([name, performance.now() - start]);
  }
}

/** Runs a command to its end; resolves with its stdout and stderr, rejects on a non-zero exit. */
function run(command, args, { cwd = repo, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${stdout}${stderr}`));
    });
  });
}

// npm run sets npm_config_* variables that would leak into the temporary project's npm.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("npm_") && k !== "NODE_PATH"));

function manifestVersions() {
  const toml = read("Cargo.toml");
  const section = toml.split(/^\[/m).find((s) => s.startsWith("package]")) ?? "";
  const field = (name) => section.match(new RegExp(`^${name}\\s*=\\s*"([^"]+)"`, "m"))?.[1];
  return {
    crate: field("version"),
    repository: field("repository"),
    lock: read("Cargo.lock").match(/\[\[package\]\]\nname = "mcp-wasm"\nversion = "([^"]+)"/)?.[1],
    template: JSON.parse(read("pkg-template/package.json")).version,
    changelog: read("CHANGELOG.md").match(/^## (\d+\.\d+\.\d+\S*)/m)?.[1],
  };
}

// "git+https://host/owner/name.git" and "https://host/owner/name" name the same repository.
const repositoryOf = (url) => String(url ?? "").replace(/^git\+/, "").replace(/\.git$/, "");

function filesUnder(dir, prefix = "") {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]);
}

const sameSet = (a, b) => a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

async function packTarball(tmp) {
  const destination = path.join(tmp, "tarball");
  mkdirSync(destination);
  const { stdout } = await run("npm", ["pack", path.join(repo, "pkg"), "--pack-destination", destination, "--json", "--ignore-scripts"], { env: cleanEnv });
  const [info] = JSON.parse(stdout);
  const file = path.join(destination, info.filename);
  return { file, info, files: info.files.map((f) => f.path), bytes: statSync(file).size };
}

function checkTarball(tarball, version, cargoRepository) {
  const manifest = JSON.parse(readFileSync(path.join(repo, "pkg/package.json"), "utf8"));
  const { reached, absent } = packageClosure(path.join(repo, "pkg"), manifest);
  check(absent.length === 0, "every file the entry points import is in pkg/", absent.join(", "));
  const expected = new Set([...reached, ...PACKAGE_DOCUMENTS]);
  const missing = [...expected].filter((f) => !tarball.files.includes(f));
  const unexpected = tarball.files.filter((f) => !expected.has(f));
  check(missing.length === 0, `the tarball holds the ${reached.size} files the entry points reach, README, CHANGELOG and both licenses`, `missing ${missing.join(", ")}`);
  check(unexpected.length === 0, "the tarball holds nothing else", `unexpected ${unexpected.join(", ")}`);
  check(tarball.info.name === "mcp-wasm" && tarball.info.version === version, `the tarball is mcp-wasm@${version}`, `${tarball.info.name}@${tarball.info.version}`);
  check(manifest.license === "MIT OR Apache-2.0", "package.json: license MIT OR Apache-2.0", manifest.license);
  check(repositoryOf(manifest.repository?.url) === cargoRepository, "package.json and Cargo.toml name the same repository", `${manifest.repository?.url} vs ${cargoRepository}`);
  check(typeof manifest.homepage === "string" && typeof manifest.bugs?.url === "string", "package.json: homepage and bugs");
}

async function install(tmp, tarball) {
  const app = path.join(tmp, "app");
  cpSync(path.join(here, "app"), app, { recursive: true });
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "mcp-wasm-pack-check", private: true, type: "module" }, null, 2));
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball.file], { cwd: app, env: cleanEnv });
  const installed = path.join(app, "node_modules/mcp-wasm");
  const stat = lstatSync(installed);
  check(stat.isDirectory() && !stat.isSymbolicLink(), "npm installed the tarball as a directory, not a link");
  check(sameSet(filesUnder(installed), tarball.files), "the installed files are the tarball's");
  return { app, installed };
}

async function upstreamServer() {
  if (process.env.MCP_TEST_URL) return { url: process.env.MCP_TEST_URL };
  const peer = await startPeer("node_modules/@modelcontextprotocol/server-everything/dist/index.js", {
    args: ["streamableHttp"],
    nodeArgs: ["--import", pathToFileURL(path.join(repo, "tests/peers/loopback.mjs")).href,
      "--import", pathToFileURL(path.join(repo, "tests/peers/announce-port.mjs")).href],
  });
  cleanups.push(() => peer.child.exitCode === null && peer.child.kill("SIGTERM"));
  return { url: `${peer.origin}/mcp` };
}

// The core's three modules (scripts/split: the primary, the rest, OAuth) and the validator module it loads on first use.
const WASM_MODULES = ["mcp_wasm_bg.wasm", "mcp_wasm_rest_bg.wasm", "mcp_wasm_oauth_bg.wasm", "mcp_wasm_validator_bg.wasm"];

async function bundleWithEsbuild(app, installed) {
  const out = path.join(app, "dist-esbuild");
  await esbuild({ absWorkingDir: app, entryPoints: ["page/main.js"], bundle: true, format: "esm", platform: "browser", target: "es2022", outdir: out, logLevel: "warning" });
  copyFileSync(path.join(app, "page/index.html"), path.join(out, "index.html"));
  // esbuild leaves `new URL("./mcp_wasm_bg.wasm", import.meta.url)` as it is, so the URL is
  // the bundle's: the wasm goes next to the bundle, copied from the installed package as an
  // esbuild user's build step would.
  for (const wasm of WASM_MODULES) copyFileSync(path.join(installed, wasm), path.join(out, wasm));
  const bundle = readFileSync(path.join(out, "main.js"), "utf8");
  check(!/from\s*["']mcp-wasm["']/.test(bundle) && bundle.includes("mcp_wasm_bg.wasm"), "esbuild bundled mcp-wasm into the page");
  return "dist-esbuild";
}

async function bundleWithVite(app, installed) {
  const out = path.join(app, "dist-vite");
  await viteBuild({ root: path.join(app, "page"), base: "./", configFile: false, logLevel: "warn", build: { outDir: out, emptyOutDir: true, target: "es2022" } });
  const wasm = filesUnder(out).filter((f) => f.endsWith(".wasm"));
  const emitted = (name) => wasm.some((f) => readFileSync(path.join(out, f)).equals(readFileSync(path.join(installed, name))));
  check(wasm.length === WASM_MODULES.length && WASM_MODULES.every(emitted), "Vite emitted the package's four wasm modules as assets", wasm.join(", "));
  return "dist-vite";
}

// `dist` is the folder of the page (a bundle's output, or `page` for the unbundled one),
// `html` its file, `pkg` where its copy of the package is served from.
async function callFromPage(ctx, origin, { dist, html = "index.html", pkg = `/${dist}/` }, proxy, label) {
  const page = await ctx.newPage();
  const requests = [];
  const errors = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  const query = new URLSearchParams({ mcp: `${proxy}/${label}/mcp`, message: MESSAGE });
  try {
    await page.goto(`${origin}/${dist}/${html}?${query}`);
    await page.waitForFunction(() => window.packResult !== undefined, null, { timeout: PAGE_TIMEOUT_MS })
      .catch((e) => { throw new Error(`${label}: the page never ran (${e.message}); page errors: ${errors.join(" | ")}`); });
    const outcome = await page.evaluate(() => window.packResult);
    check(outcome.ok && outcome.text === `Echo: ${MESSAGE}`, `${label}: the page called echo on server-everything in Chromium`, JSON.stringify(outcome));
    check(outcome.structured?.temperature !== undefined, `${label}: get-structured-content answered, its structuredContent checked`, JSON.stringify(outcome));
    const primary = outcome.wasmForEcho ?? [];
    check(primary.length === 1 && /mcp_wasm_bg[-.]/.test(primary[0]), `${label}: connect and echo fetched the core's primary half alone (${primary.join(", ")})`);
    const rest = (outcome.wasmAfterIdle ?? []).filter((p) => !primary.includes(p));
    check(rest.length === 1 && rest[0].includes("mcp_wasm_rest_bg"), `${label}: the core's rest was fetched once the first call had settled (${rest.join(", ")})`);
    const core = [...primary, ...rest];
    const structured = (outcome.wasmAfterStructured ?? []).filter((p) => !core.includes(p));
    check(structured.length === 0, `${label}: a plain outputSchema was checked by quick-check.js, without the validator module (${structured.join(", ")})`);
    check(/Name: pack/.test(outcome.elicited ?? ""), `${label}: the elicitation was answered, its content checked against the requestedSchema`, outcome.elicited);
    const elicited = (outcome.wasmAfterElicitation ?? []).filter((p) => !core.includes(p));
    check(elicited.length === 0, `${label}: a matching elicitation answer was checked by quick-check.js, without the validator module (${elicited.join(", ")})`);
    check(outcome.refused === true, `${label}: an elicitation answer outside the requestedSchema was refused`, JSON.stringify(outcome.refused));
    const later = (outcome.wasmAfterRefusal ?? []).filter((p) => !core.includes(p));
    check(later.length === 1 && later[0].includes("validator"), `${label}: the validator module was fetched when an answer first needed it (${later.join(", ")})`);
    if (dist === "page") {
      const renamed = await page.evaluate(() => window.renamedExports);
      check(Array.isArray(renamed) && renamed.length === 0, `${label}: every class and function the package exports keeps its name`, JSON.stringify(renamed));
    }
    const local = requests.filter((u) => u.startsWith(origin)).map((u) => new URL(u).pathname);
    const wasm = local.filter((p) => p.endsWith(".wasm"));
    check(wasm.length === 3 && wasm.every((p) => p.startsWith(pkg)), `${label}: the core's primary and rest and the validator came from ${pkg}, and not OAuth's (${wasm.join(", ")})`, wasm.join(", "));
    const elsewhere = local.filter((p) => !p.startsWith(`/${dist}/`) && !p.startsWith(pkg));
    check(elsewhere.length === 0, `${label}: the page loaded nothing outside ${dist === "page" ? "its page and the installed package" : "its bundle (no pkg/, no node_modules/)"}`, elsewhere.join(", "));
    return outcome;
  } finally {
    await page.close();
  }
}

// A fresh page whose first call brings a result long enough to stay in JS (src/glue.js's restGate).
async function longFromPage(ctx, origin, proxy) {
  const page = await ctx.newPage();
  const size = 300_000;
  try {
    await page.goto(`${origin}/page/unbundled.html?${new URLSearchParams({ mcp: `${proxy}/long/mcp`, long: String(size) })}`);
    await page.waitForFunction(() => window.packResult !== undefined, null, { timeout: PAGE_TIMEOUT_MS });
    const outcome = await page.evaluate(() => window.packResult);
    check(outcome.ok && outcome.length >= size, `long: a first call's ${size}-character result came back in Chromium`, JSON.stringify(outcome).slice(0, 300));
    check(JSON.stringify(outcome.rest) === JSON.stringify(["fetch"]), "long: the core's rest was fetched once, off the page's thread, before the core read the result", JSON.stringify(outcome.rest));
  } finally {
    await page.close();
  }
}

function checkClientInfo(proxy, label, version) {
  const seen = proxy.seen(label);
  const wrong = seen.filter(({ clientInfo }) => clientInfo?.name !== "mcp-wasm" || clientInfo?.version !== version);
  check(seen.length > 0 && wrong.length === 0, `${label}: the server saw clientInfo mcp-wasm ${version} (${seen.map((s) => s.method).join(", ")})`, JSON.stringify(seen));
}

async function packCrate(version) {
  const cargoPackage = (offline) => {
    const cargo = ["cargo", "package", "--allow-dirty", ...(offline ? ["--offline"] : []), "--target", "wasm32-unknown-unknown"];
    const [command, ...args] = process.env.CARGO_FLOCK ? ["flock", process.env.CARGO_FLOCK, ...cargo] : cargo;
    return run(command, args);
  };
  // The earlier tiers have fetched every dependency, so the local cache is enough; the
  // registry is asked only when it is not.
  const { stderr } = await cargoPackage(true).catch((error) => {
    if (!/offline/i.test(error.message)) throw error;
    console.log("     cargo: the local registry cache is not enough offline; packaging again with the registry");
    return cargoPackage(false);
  });
  // Test targets are left out of the crate on purpose (include = src/…); cargo says so once per test.
  const ignored = stderr.split("\n").filter((l) => /^warning: ignoring test `/.test(l));
  for (const line of stderr.split("\n")) {
    if (/^\s*(Packaging|Packaged|Verifying|Finished)\b/.test(line)) console.log(`     cargo: ${line.trim()}`);
    else if (/^(warning|error)/.test(line) && !ignored.includes(line)) console.log(`     cargo: ${line}`);
  }
  check(/Verifying mcp-wasm/.test(stderr) && /Finished/.test(stderr), `cargo package verified the crate by building it for wasm32-unknown-unknown (${ignored.length} test targets left out)`);
  const file = path.join(repo, `target/package/mcp-wasm-${version}.crate`);
  check(existsSync(file), `the crate is mcp-wasm-${version}.crate`);
  const { stdout } = await run("tar", ["tzf", file]);
  const prefix = `mcp-wasm-${version}/`;
  const listing = stdout.split("\n").filter((l) => l && !l.endsWith("/")).map((l) => l.slice(prefix.length));
  const references = crateReferences(repo);
  const missing = [...references, "LICENSE-MIT", "LICENSE-APACHE", "README.md", "CHANGELOG.md"].filter((f) => !listing.includes(f));
  check(missing.length === 0, `the crate holds src/, the ${references.size} files src/ includes at compile time, README, CHANGELOG and both licenses`, `missing ${missing.join(", ")}`);
  const unexpected = unexpectedInCrate(listing, references);
  check(unexpected.length === 0, "the crate holds nothing else (no www/, bench/, tests/, fuzz/, node_modules/)", unexpected.join(", "));
  return { bytes: statSync(file).size, files: listing.length };
}

async function main() {
  const versions = manifestVersions();
  const version = versions.crate;
  check(Boolean(version), `Cargo.toml's version is ${version}`);
  check(versions.template === version, "pkg-template/package.json has the same version", versions.template);
  check(versions.lock === version, "Cargo.lock has the same version", versions.lock);
  check(versions.changelog === version, "CHANGELOG.md's newest section is that version", versions.changelog);
  check(existsSync(path.join(repo, "pkg/mcp_wasm_bg.wasm")), "pkg/ is built");

  const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-wasm-pack-"));
  cleanups.push(() => (process.env.PACK_KEEP ? console.log(`kept ${tmp}`) : rmSync(tmp, { recursive: true, force: true })));

  const tarball = await step("npm pack", () => packTarball(tmp));
  checkTarball(tarball, version, repositoryOf(versions.repository));
  const { app, installed } = await step("npm install of the tarball", () => install(tmp, tarball));
  const installedVersion = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")).version;
  check(installedVersion === version, `the installed package.json's version is Cargo.toml's (${installedVersion})`);

  const upstream = await step("server-everything", upstreamServer);
  const proxy = await startRecordingProxy(upstream.url);
  cleanups.push(() => proxy.close());

  await step("Node ESM import and call", async () => {
    const { stdout } = await run(process.execPath, ["node-check.mjs", `${proxy.origin}/node/mcp`, MESSAGE], { cwd: app, env: cleanEnv });
    const outcome = JSON.parse(stdout.trim().split("\n").at(-1));
    check(outcome.resolved === pathToFileURL(path.join(installed, "node.js")).href, "node: import \"mcp-wasm\" resolves to the installed node.js");
    check(outcome.text === `Echo: ${MESSAGE}`, "node: called echo on server-everything", outcome.text);
    check(typeof outcome.structured?.temperature === "number", "node: get-structured-content answered through the validator module", JSON.stringify(outcome));
  });
  checkClientInfo(proxy, "node", version);

  const bundles = {};
  bundles.esbuild = await step("esbuild bundle", () => bundleWithEsbuild(app, installed));
  bundles.vite = await step("Vite build", () => bundleWithVite(app, installed));

  const browser = {};
  cleanups.push(() => releaseBrowser(browser));
  await step("Chromium pages", async () => {
    const ctx = await openBrowser(browser, { wwwDir: app, profilePrefix: "mcp-wasm-pack-chromium-" });
    for (const [label, dist] of Object.entries(bundles)) await callFromPage(ctx, browser.origin, { dist }, proxy.origin, label);
    // The installed files as they are: what connect and echo fetched is what scripts/size.mjs
    // counts as the first call (firstCallGzip), and no more.
    const pkg = "/node_modules/mcp-wasm/";
    const outcome = await callFromPage(ctx, browser.origin, { dist: "page", html: "unbundled.html", pkg }, proxy.origin, "unbundled");
    const fetchedFirst = outcome.filesForEcho.filter((p) => p.startsWith(pkg)).map((p) => p.slice(pkg.length)).sort();
    const { stdout } = await run(process.execPath, [path.join(repo, "scripts/size.mjs"), "--json"], { env: { ...cleanEnv, SIZE_PKG: installed } });
    const counted = JSON.parse(stdout).firstCall;
    check(JSON.stringify(fetchedFirst) === JSON.stringify(counted), `unbundled: connect and echo fetched what scripts/size.mjs counts as the first call (${counted.join(", ")})`, fetchedFirst.join(", "));
    await longFromPage(ctx, browser.origin, proxy.origin);
  });
  for (const label of [...Object.keys(bundles), "unbundled"]) checkClientInfo(proxy, label, version);

  const crate = await step("cargo package (verified for wasm32)", () => packCrate(version));

  console.log(`\npack: npm tarball ${path.basename(tarball.file)}: ${kib(tarball.bytes)}, ${tarball.files.length} files, ${kib(tarball.info.unpackedSize)} unpacked`);
  console.log(`pack: crate mcp-wasm-${version}.crate: ${kib(crate.bytes)}, ${crate.files} files`);
}

async function cleanUp() {
  for (const cleanup of cleanups.reverse()) await Promise.resolve().then(cleanup).catch(() => {});
}

const overall = setTimeout(async () => {
  console.log(`FAIL pack: overall timeout after ${OVERALL_TIMEOUT_MS} ms`);
  await cleanUp();
  process.exit(1);
}, OVERALL_TIMEOUT_MS);

let failure;
const started = performance.now();
try {
  await main();
} catch (error) {
  failure = error;
}
clearTimeout(overall);
await cleanUp();
for (const [name, ms] of timings) console.log(`time ${name}: ${(ms / 1000).toFixed(1)} s`);
console.log(`time total: ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (failure) console.log(`FAIL pack: ${failure.message}`);
console.log(`pack: ${count()} checks passed${failure ? ", 1 failed" : ""}`);
process.exit(failure ? 1 : 0);
