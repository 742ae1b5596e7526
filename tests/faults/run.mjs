// Runs the fault scenarios with the built package under Node, through the
// fault proxy in front of server-everything (scripts/peers.sh starts both).
// Prints one line per fault and `faults: N injected, M survived`; exits 1 if
// any fault was not injected or not survived.
import { McpClient } from "mcp-wasm";
import { runFaultSuite } from "./scenarios.js";

const BASE = process.env.MCP_FAULT_PROXY ?? "http://127.0.0.1:38050";
const report = await runFaultSuite((url, options) => McpClient.connect(url, options), BASE, (r) => {
  console.log(`${r.survived ? "ok  " : "FAIL"} ${r.fault.padEnd(12)} ${r.what}${r.detail ? ` — ${r.detail}` : ""}`);
});
console.log(`faults: ${report.injected} injected, ${report.survived} survived (of ${report.total})`);
process.exit(report.injected === report.total && report.survived === report.total ? 0 : 1);
