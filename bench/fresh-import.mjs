// One load in a fresh Chromium profile (no HTTP or compiled-code cache), from the
// pages bench/ serves: the time to `import()` a module and, with `wasmMemory`, the
// package's wasm linear memory right after; with `network`, over an emulated network.
// bench/run.mjs and bench/ab-load.mjs measure loading with it.
import { openBrowser, releaseBrowser } from "../tests/support/browser.mjs";

// Chrome DevTools' "Slow 4G" preset: what a phone on a mobile network sees, where the
// bytes decide the time, as they do not over loopback.
export const SLOW_NETWORK = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

export async function freshImport(specifier, { profilePrefix, wasmMemory = false, network }) {
  const session = {};
  try {
    const ctx = await openBrowser(session, { wwwDir: "bench", isolate: true, profilePrefix });
    const page = await ctx.newPage();
    await page.goto(`${session.origin}/page/blank.html`);
    if (network) await (await ctx.newCDPSession(page)).send("Network.emulateNetworkConditions", network);
    return await page.evaluate(async ([s, withMemory]) => {
      const start = performance.now();
      await import(s);
      const ms = performance.now() - start;
      if (!withMemory) return { ms };
      const { default: init } = await import("/pkg/mcp_wasm.js");
      return { ms, wasmMemory: (await init()).memory.buffer.byteLength };
    }, [specifier, wasmMemory]);
  } finally {
    await releaseBrowser(session);
  }
}
