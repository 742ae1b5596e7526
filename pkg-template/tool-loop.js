// runToolLoop, the tool-use loop of a chat host (tool-loop-run.js), loaded the
// first time it runs: a page that only calls tools does not fetch it before
// its first call. Types: tool-loop.d.ts.
import { ToolBridge } from "./bridges.js";

export async function runToolLoop(options) {
  const { runToolLoop: run } = await import("./tool-loop-run.js");
  return run(ToolBridge, options);
}
