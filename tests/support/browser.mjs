// What the playwright-driven browser tiers share: scripts/serve.mjs serving their
// pages from 127.0.0.1 (with the built package at /pkg/), and Debian's Chromium,
// headless, with a throw-away profile (or Debian's firefox-esr, through ./firefox.mjs).
// `releaseBrowser()` frees all of it and is safe to call at any point, even after a failed start.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { launchFirefox } from "./firefox.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

function serve(port, wwwDir, session, pkgDir = "pkg", isolate = false) {
  if (!existsSync(path.resolve(repo, pkgDir, "index.js"))) throw new Error(`${pkgDir}/index.js missing: build the package first`);
  return new Promise((resolve, reject) => {
    const server = spawn(process.execPath, [path.join(repo, "scripts/serve.mjs")], {
      env: { ...process.env, PORT: String(port), WWW_DIR: wwwDir, PKG_DIR: pkgDir, ISOLATE: isolate ? "1" : "" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    session.server = server;
    const timer = setTimeout(() => reject(new Error("scripts/serve.mjs did not start within 10 s")), 10_000);
    server.stdout.on("data", (d) => {
      const origin = String(d).match(/demo: (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
      if (origin) { clearTimeout(timer); resolve(origin); }
    });
    server.on("exit", (code) => { clearTimeout(timer); reject(new Error(`scripts/serve.mjs exited with ${code}`)); });
  });
}

/**
 * Serves `wwwDir` and launches Chromium (or, with `browser: "firefox"`, Firefox), recording both in
 * `session` (`session.origin` is the pages' origin; `pkgDir` puts another copy of the package at
 * /pkg/; `isolate` serves the pages cross-origin isolated, for fine timers); resolves with the browser context. Without a
 * `port` the OS picks one: a fixed port in the ephemeral range can be held by an outgoing connection
 * by the time a late tier starts.
 */
export async function openBrowser(session, { port = 0, wwwDir, pkgDir, isolate, profilePrefix, viewport, args = [], browser = "chromium" }) {
  session.origin = await serve(port, wwwDir, session, pkgDir, isolate);
  if (browser === "firefox") {
    session.ctx = await launchFirefox({ profilePrefix });
    return session.ctx;
  }
  if (browser !== "chromium") throw new Error(`openBrowser: no browser named ${browser}`);
  session.profile = mkdtempSync(path.join(os.tmpdir(), profilePrefix));
  session.ctx = await chromium.launchPersistentContext(session.profile, { executablePath: CHROMIUM, headless: true, args: [...FLAGS, ...args], timeout: 30_000, viewport });
  return session.ctx;
}

/**
 * Serves `wwwDir` once more, on an origin of its own, for a browser `openBrowser` already launched
 * (`isolate`: cross-origin isolated); resolves with the origin. `releaseBrowser(session)` stops it.
 */
export function servePages(session, { wwwDir, pkgDir, isolate }) {
  return serve(0, wwwDir, session, pkgDir, isolate);
}

/** Closes what `openBrowser` opened in `session`, whatever got that far. */
export async function releaseBrowser(session) {
  if (session.ctx) await session.ctx.close().catch(() => {});
  if (session.server && session.server.exitCode === null) session.server.kill("SIGTERM");
  if (session.profile) rmSync(session.profile, { recursive: true, force: true });
}

/**
 * The check list of a runner: `check(condition, what, detail?)` prints `ok   what` or
 * throws with the detail; `count()` says how many passed.
 */
export function checkList() {
  let passed = 0;
  return {
    check(condition, what, detail = "") {
      if (!condition) throw new Error(`${what}${detail ? `: ${detail}` : ""}`);
      passed += 1;
      console.log(`ok   ${what}`);
    },
    count: () => passed,
  };
}
