// The browser side of the benchmarks: each contender is loaded into this one
// page, then bench/metrics.mjs runs them in turns. Loading is timed apart, in
// fresh browser profiles (bench/run.mjs, freshLoads).
import { contenders } from "../contenders.mjs";
import { runMetrics } from "../metrics.mjs";

const status = document.querySelector("#status");


window.runBenchmarks = async (base, scale) => {
  // mcp-wasm's entry fetches, compiles and instantiates the wasm before it resolves.
  const wasmLoad = { module: await import("/pkg/index.js") };
  const sdk1 = { module: await import("./dist/sdk1.js") };
  const sdk2 = { module: await import("./dist/sdk2.js") };
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
  results.environment = {
    runtime: navigator.userAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    timerStepMs: timerStep(),
  };
  return results;
};
// The smallest step performance.now() takes here: 0.1 ms in a page that is not cross-origin
// isolated, which would quantise a 3 ms median (scripts/serve.mjs, ISOLATE).
function timerStep() {
  let step = Infinity;
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    let next = start;
    while (next === start) next = performance.now();
    step = Math.min(step, next - start);
  }
  return step;
}
status.textContent = "ready";
