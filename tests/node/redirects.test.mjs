// Redirects of requests that carry credentials (an `Authorization` header), which the client
// follows by hand (src/transport/fetch.rs): only to the same origin, only with 307 or 308,
// at most five times; and of requests without, which fetch follows. Against server-everything
// behind a proxy that redirects some paths.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient, McpClientError } from "mcp-wasm";
import { startRecordingProxy } from "../pack/recording-proxy.mjs";

const EVERYTHING = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const credentials = { headers: { authorization: "Bearer redirect-test" }, era: "legacy", timeout: 10_000 };

async function withProxy(redirects, run) {
  const proxy = await startRecordingProxy(EVERYTHING, { redirects });
  try {
    await run(proxy);
  } finally {
    await proxy.close();
  }
}

test("a 307 or 308 to the same origin is followed, and the call goes through", async () => {
  await withProxy({ moved: [307, "/ok/mcp"], "moved-for-good": [308, "/kept/mcp"] }, async (proxy) => {
    for (const [label, landing] of [["moved", "ok"], ["moved-for-good", "kept"]]) {
      const client = await McpClient.connect(`${proxy.origin}/${label}/mcp`, credentials);
      const result = await client.callTool({ name: "echo", arguments: { message: "followed" } });
      assert.match(result.content[0].text, /followed/);
      assert.ok(proxy.seen(landing).some((s) => s.method === "initialize"), `${label}: initialize reached /${landing}`);
      await client.close();
    }
  });
});

test("without credentials, redirects are followed as fetch follows them", async () => {
  await withProxy({ moved: [307, "/ok/mcp"], "moved-for-good": [308, "/kept/mcp"] }, async (proxy) => {
    for (const [label, landing] of [["moved", "ok"], ["moved-for-good", "kept"]]) {
      const client = await McpClient.connect(`${proxy.origin}/${label}/mcp`, { era: "legacy", timeout: 10_000 });
      const result = await client.callTool({ name: "echo", arguments: { message: "followed" } });
      assert.match(result.content[0].text, /followed/);
      assert.ok(proxy.seen(landing).some((s) => s.method === "initialize"), `${label}: initialize reached /${landing}`);
      await client.close();
      // In Node the first request goes with redirect "error" and again once redirected; the client
      // remembers the URL, so every later one reaches it once (pkg-template/node-fetch.js).
      assert.equal(proxy.hits(label), proxy.hits(landing) + 1, `${label}: one request more than /${landing} got`);
    }
  });
});

test("a redirect to another origin, a 302, or a sixth redirect is refused with kind protocol", async () => {
  await withProxy({}, async (first) => {
    const elsewhere = first.origin.replace("127.0.0.1", "localhost");
    await withProxy({ away: [307, `${elsewhere}/ok/mcp`], found: [302, "/ok/mcp"], loop: [307, "/loop/mcp"] }, async (proxy) => {
      for (const [label, message] of [["away", /does not follow it/], ["found", /does not follow it/], ["loop", /more than 5 times/]]) {
        const refused = await McpClient.connect(`${proxy.origin}/${label}/mcp`, credentials).then(
          () => assert.fail(`${label}: connected`),
          (error) => error,
        );
        assert.ok(refused instanceof McpClientError, `${label}: ${refused}`);
        assert.equal(refused.kind, "protocol", `${label}: ${refused.message}`);
        assert.match(refused.message, message);
      }
      assert.equal(first.seen("ok").length, 0, "nothing reached the other origin");
    });
  });
});
