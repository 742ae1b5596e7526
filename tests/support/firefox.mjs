// Headless Firefox for the playwright-driven runners, through geckodriver (W3C WebDriver over
// HTTP). playwright-core cannot drive Debian's firefox-esr: its `firefox` type speaks Juggler,
// which only Playwright's own patched Firefox build has, and its WebDriver BiDi channel
// (`channel: "moz-firefox"`) sends commands firefox-esr does not know yet
// (emulation.setMediaFeaturesOverride). So this offers the few playwright calls the runners
// make (context: newPage, waitForEvent("page"), close; page: goto, evaluate, waitForFunction,
// waitForSelector, click, url, reload, waitForURL, textContent, close, isClosed,
// waitForEvent("close")) over one WebDriver session.
//
// WebDriver runs one command at a time and has one current window, so every page operation
// is queued, switches to its window first, and never waits inside the browser: `evaluate`
// starts the function in the page and polls for its outcome, which lets a page wait on a popup
// that another page operation (a click) completes.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const FIREFOX = process.env.FIREFOX || "/usr/bin/firefox-esr";
const POLL_MS = 100;
const DEFAULT_TIMEOUT_MS = 30_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class WebDriverError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

function startGeckodriver() {
  return new Promise((resolve, reject) => {
    const driver = spawn(process.env.GECKODRIVER || "geckodriver", ["--port", "0", "--host", "127.0.0.1"], { stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => reject(new Error("geckodriver did not start within 10 s")), 10_000);
    const lines = (d) => {
      const port = String(d).match(/Listening on 127\.0\.0\.1:(\d+)/)?.[1];
      if (port) { clearTimeout(timer); resolve({ driver, base: `http://127.0.0.1:${port}` }); }
    };
    driver.stdout.on("data", lines);
    driver.stderr.on("data", lines);
    driver.on("error", (e) => { clearTimeout(timer); reject(e); });
    driver.on("exit", (code) => { clearTimeout(timer); reject(new Error(`geckodriver exited with ${code}`)); });
  });
}

class Session {
  constructor(base) {
    this.base = base;
    this.queue = Promise.resolve();
  }

  async send(method, route, body) {
    const answer = await fetch(`${this.base}${route}`, {
      method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const { value } = await answer.json();
    if (!answer.ok) throw new WebDriverError(value?.error ?? `HTTP ${answer.status}`, value?.message ?? "");
    return value;
  }

  cmd(method, route, body) {
    return this.send(method, `/session/${this.id}${route}`, body);
  }

  /** Runs `task` alone: no other command may change the current window under it. */
  exclusive(task) {
    const run = this.queue.then(task);
    this.queue = run.catch(() => {});
    return run;
  }
}

class FirefoxPage {
  constructor(ctx, handle) {
    this.ctx = ctx;
    this.handle = handle;
    this.closed = false;
    this.timeout = DEFAULT_TIMEOUT_MS;
    this.calls = 0;
  }

  setDefaultTimeout(ms) { this.timeout = ms; }
  // Page errors are not reported over classic WebDriver; a failing page still fails its check.
  on() {}
  isClosed() { return this.closed; }

  in(task) {
    return this.ctx.session.exclusive(async () => {
      await this.ctx.session.cmd("POST", "/window", { handle: this.handle });
      return task(this.ctx.session);
    });
  }

  script(source, args = []) {
    return this.in((s) => s.cmd("POST", "/execute/sync", { script: source, args }));
  }

  async poll(probe, what, timeout = this.timeout) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${what}: nothing within ${timeout} ms`);
      await sleep(POLL_MS);
    }
  }

  goto(url) { return this.in((s) => s.cmd("POST", "/url", { url })); }
  reload() { return this.in((s) => s.cmd("POST", "/refresh", {})); }
  async url() { return this.in((s) => s.cmd("GET", "/url")); }

  /** Starts `fn(arg)` in the page and resolves with what it settles to, as playwright's evaluate does. */
  async evaluate(fn, arg) {
    const key = String((this.calls += 1));
    await this.script(`const [arg, key] = arguments;
      const outcomes = (window.__webdriverOutcomes ??= {});
      Promise.resolve().then(() => (${fn})(arg)).then(
        (value) => { outcomes[key] = { value: value === undefined ? null : value }; },
        (error) => { outcomes[key] = { error: String(error?.message ?? error) }; });`, [arg === undefined ? null : arg, key]);
    const outcome = await this.poll(async () => {
      const seen = await this.script("const o = window.__webdriverOutcomes; return o ? (o[arguments[0]] ?? 'pending') : 'gone';", [key]);
      if (seen === "gone") throw new Error("the page navigated away while a call was pending");
      return seen === "pending" ? undefined : seen;
    }, "evaluate");
    await this.script("delete window.__webdriverOutcomes[arguments[0]];", [key]).catch(() => {});
    if ("error" in outcome) throw new Error(outcome.error);
    return outcome.value;
  }

  waitForFunction(fn) {
    return this.poll(async () => ((await this.script(`return Boolean((${fn})());`)) ? true : undefined), "waitForFunction");
  }

  find(selector) {
    return this.in((s) => s.cmd("POST", "/element", { using: "css selector", value: selector }))
      .catch((e) => { if (e.code === "no such element") return undefined; throw e; });
  }

  waitForSelector(selector) { return this.poll(() => this.find(selector), `waitForSelector ${selector}`); }

  async click(selector) {
    const element = await this.waitForSelector(selector);
    const id = Object.values(element)[0];
    // A click that submits the consent form may end in the callback page closing this window.
    await this.in((s) => s.cmd("POST", `/element/${id}/click`, {})).catch((e) => { if (e.code !== "no such window") throw e; });
  }

  textContent(selector) { return this.script("return document.querySelector(arguments[0])?.textContent ?? null;", [selector]); }

  waitForURL(pattern) {
    return this.poll(async () => (pattern.test(await this.url()) ? true : undefined), `waitForURL ${pattern}`);
  }

  async close() {
    if (this.closed) return;
    await this.in((s) => s.cmd("DELETE", "/window")).catch((e) => { if (e.code !== "no such window") throw e; });
    this.closed = true;
  }

  async waitForEvent(name) {
    if (name !== "close") throw new Error(`FirefoxPage.waitForEvent: only "close" is offered, not ${name}`);
    await this.poll(async () => ((await this.ctx.handles()).includes(this.handle) ? undefined : true), "waitForEvent close");
    this.closed = true;
  }
}

class FirefoxContext {
  constructor(session, driver, profile) {
    this.session = session;
    this.driver = driver;
    this.profile = profile;
    this.claimed = new Set();
  }

  handles() { return this.session.exclusive(() => this.session.cmd("GET", "/window/handles")); }

  async newPage() {
    const { handle } = await this.session.exclusive(async () => {
      // A new window needs a current one that is still open: the last page used may be closed.
      await this.session.cmd("POST", "/window", { handle: this.home });
      return this.session.cmd("POST", "/window/new", { type: "tab" });
    });
    this.claimed.add(handle);
    return new FirefoxPage(this, handle);
  }

  /** Resolves with the next window opened after the call (a popup). */
  async waitForEvent(name, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
    if (name !== "page") throw new Error(`FirefoxContext.waitForEvent: only "page" is offered, not ${name}`);
    const before = new Set(await this.handles());
    const deadline = Date.now() + timeout;
    for (;;) {
      const fresh = (await this.handles()).find((h) => !before.has(h) && !this.claimed.has(h));
      if (fresh) {
        this.claimed.add(fresh);
        return new FirefoxPage(this, fresh);
      }
      if (Date.now() > deadline) throw new Error(`no new window within ${timeout} ms`);
      await sleep(POLL_MS);
    }
  }

  async close() {
    this.closed = true;
    if (this.session.id) await this.session.send("DELETE", `/session/${this.session.id}`).catch(() => {});
    if (this.driver.exitCode === null) this.driver.kill("SIGTERM");
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/** Starts geckodriver and a headless firefox-esr with a throw-away profile; resolves with the context. */
export async function launchFirefox({ profilePrefix }) {
  const { driver, base } = await startGeckodriver();
  const profile = mkdtempSync(path.join(os.tmpdir(), profilePrefix));
  const ctx = new FirefoxContext(new Session(base), driver, profile);
  try {
    const { sessionId, capabilities } = await ctx.session.send("POST", "/session", {
      capabilities: {
        alwaysMatch: {
          browserName: "firefox",
          "moz:firefoxOptions": {
            binary: FIREFOX,
            args: ["-headless", "-profile", profile],
            // playwright starts Chromium with --disable-popup-blocking; the same here: the popup
            // flows open their window from a script the runner starts, not from a user's click.
            prefs: { "dom.disable_open_during_load": false },
          },
          timeouts: { script: 30_000, pageLoad: 30_000 },
        },
      },
    });
    ctx.session.id = sessionId;
    ctx.browserVersion = `${capabilities.browserName} ${capabilities.browserVersion}`;
    // A runner that exits without closing (an uncaught error, a closed stdout) must not leave
    // Firefox and geckodriver behind; playwright's Chromium goes with its pipe, these would not.
    const firefoxPid = capabilities["moz:processID"];
    process.once("exit", () => {
      if (ctx.closed) return;
      try { if (firefoxPid) process.kill(firefoxPid); } catch { /* already gone */ }
      driver.kill();
    });
    // The session's first window stays open: closing a session's last window ends the session.
    [ctx.home] = await ctx.handles();
    ctx.claimed.add(ctx.home);
    return ctx;
  } catch (e) {
    await ctx.close();
    throw e;
  }
}
