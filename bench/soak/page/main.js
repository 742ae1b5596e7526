// The browser side of the soak: the package as a page loads it, driven by the
// same bench/soak/drive.mjs as in Node.
import { McpClient } from "/pkg/index.js";
import init from "/pkg/mcp_wasm.js";
import { runSoak } from "../drive.mjs";

const status = document.querySelector("#status");

window.runSoak = async (proxy, options) => {
  if (typeof window.gc !== "function" || !performance.memory) {
    throw new Error("launch Chromium with --js-flags=--expose-gc and --enable-precise-memory-info");
  }
  // index.js instantiated the module on import; init hands back its exports.
  const wasm = await init();
  const results = await runSoak({
    McpClient,
    proxy,
    ...options,
    hooks: {
      gc: () => window.gc(),
      heap: () => performance.memory.usedJSHeapSize,
      wasmMemory: () => wasm.memory.buffer.byteLength,
    },
    log: (line) => { status.textContent = line; console.log(`chromium: ${line}`); },
  });
  results.runtime = navigator.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent;
  return results;
};
status.textContent = "ready";
