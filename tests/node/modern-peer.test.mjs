// The 2026-07-28 scenarios of tests/modern-peer/scenarios.mjs under Node, through the built package:
// x-mcp-header on a number, skills, a -32022 answered once more, and logging a server does not
// declare. The modern peer and a fault proxy in front of it run on ports the OS picks; the same
// scenarios run in headless Chromium (tests/modern-peer/run-chromium.mjs).
import { after, before, describe, test } from "node:test";
import * as mcp from "mcp-wasm";
import { startPeer } from "../support/peer-process.mjs";
import { SCENARIOS } from "../modern-peer/scenarios.mjs";

describe("2026-07-28 against the modern peer", () => {
  let modern, proxy, urls;
  before(async () => {
    modern = await startPeer("tests/peers/modern-server.mjs", { args: ["modern"] });
    proxy = await startPeer("tests/peers/fault-proxy.mjs", { env: { UPSTREAM: modern.origin } });
    urls = {
      modern: `${modern.origin}/mcp`,
      loggingUndeclared: `${modern.origin}/logging-undeclared/mcp`,
      versionFault: `${proxy.origin}/unsupported-version/mcp`,
      listenDrop: `${proxy.origin}/drop-listen/mcp`,
      narrowAck: `${proxy.origin}/narrow-ack/mcp`,
      narrowReconnect: `${proxy.origin}/narrow-reconnect/mcp`,
    };
  });
  after(() => {
    proxy?.child.kill();
    modern?.child.kill();
  });

  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    test(name, { timeout: 30_000 }, async (t) => {
      for (const check of await scenario(mcp, urls)) t.diagnostic(check);
    });
  }
});
