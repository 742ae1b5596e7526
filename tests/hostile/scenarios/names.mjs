// A server that lists 100,000 tools under one name, reached through McpHost and a ToolBridge, which
// name every tool apart: in one pass over them, not a search per tool, which would take minutes.
import { McpHost, ToolBridge } from "mcp-wasm";
import { expectSuccess } from "../expect.mjs";

// The host names each copy apart (numbered), a ToolBridge offers them all, and the host still calls a
// tool afterwards.
export async function toolFlood({ check, peer, track }) {
  const host = track(await McpHost.connect({ flood: { url: peer.url("tool-flood"), timeout: 20_000 } }));
  const tools = await expectSuccess(check, "the host lists four pages of 25,000 tools named same", host.listAllTools());
  check(tools.length === 100_001, "… all of them, and echo", String(tools.length));
  check(new Set(tools.map((t) => t.name)).size === tools.length, "… each under a name of its own");
  check(tools.some((t) => t.name === "flood__echo"), "… echo keeps its plain name");
  const bridge = new ToolBridge("openai-chat", tools);
  check(bridge.definitions.length === tools.length, "a ToolBridge offers every one of them");
  await expectSuccess(check, "the host afterwards calls a tool", host.callTool("flood__echo", { message: "still here" }));
}
