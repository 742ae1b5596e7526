// The browser side of the benchmarks: each contender is loaded into this one
// page (load and instantiation timed), then bench/metrics.mjs runs them in turns.
import { contenders } from "../contenders.mjs";
import { runMetrics } from "../metrics.mjs";

const status = document.querySelector("#status");

async function load(specifier) {
  const start = performance.now();
  const module = await import(specifier);
  return { module, ms: performance.now() - start };
}

window.runBenchmarks = async (base, scale) => {
  // mcp-wasm's entry fetches, compiles and instantiates the wasm before it resolves.
  const wasmLoad = await load("/pkg/index.js");
  const sdk1 = await load("./dist/sdk1.js");
  const sdk2 = await load("./dist/sdk2.js");
  const { default: init } = await import("/pkg/mcp_wasm.js");
  const wasm = await init(); // already instantiated: hands back the exports
  const results = await runMetrics({
    contenders: contenders({ McpClient: wasmLoad.module.McpClient, Sdk1: sdk1.module, Sdk2: sdk2.module }),
    url: `${base}/mcp`,
    streamUrl: `${base}/mcp-stream`,
    scale,
    hooks: {
      gc: () => window.gc?.(),
      heap: () => performance.memory?.usedJSHeapSize,
      wasmMemory: () => wasm.memory.buffer.byteLength,
    },
    log: (step) => { status.textContent = step; console.log(`chromium: ${step}`); },
  });
  results.load = { "mcp-wasm": wasmLoad.ms, "sdk 1.x": sdk1.ms, "client 2.x": sdk2.ms };
  results.environment = { runtime: navigator.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent };
  return results;
};
status.textContent = "ready";
