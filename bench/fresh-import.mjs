// One load in a fresh Chromium profile (no HTTP or compiled-code cache), from the
// pages bench/ serves: the time to `import()` a module and, with `wasmMemory`, the
// package's wasm linear memory right after. bench/run.mjs and bench/ab-load.mjs
// measure loading with it.
import { openBrowser, releaseBrowser } from "../tests/support/browser.mjs";

export async function freshImport(specifier, { profilePrefix, wasmMemory = false }) {
  const session = {};
  try {
    const ctx = await openBrowser(session, { wwwDir: "bench", profilePrefix });
    const page = await ctx.newPage();
    await page.goto(`${session.origin}/page/blank.html`);
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
