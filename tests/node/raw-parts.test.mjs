// `mcp-wasm/raw` initialised by hand: the validator's module given to initRestSync, the JS parts
// loaded as the package's own subpaths (`setPartLoaders` with mcp-wasm/quick-check.js and
// mcp-wasm/dpop.js). Without the validator's module a check fails with `network`; without DPoP's
// key storage a DPoP flow fails with `auth`. Against server-everything and
// tests/peers/oauth-server.mjs (started here), which verifies every proof. In a process of its
// own, as every test file, so nothing initialised the package before.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { McpClient, __validatorReady, initRestSync, initSync, setPartLoaders } from "mcp-wasm/raw";
import { codeFlow, consentingUser } from "../support/consenting-user.mjs";
import { startPeer } from "../support/peer-process.mjs";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 30_000 };
const packaged = (name) => readFileSync(new URL(import.meta.resolve(`mcp-wasm/${name}`)));
const loads = { quickCheck: 0, dpop: 0 };

let peer;
before(async () => {
  initSync({ module: packaged("mcp_wasm_bg.wasm") });
  initRestSync({ module: packaged("mcp_wasm_rest_bg.wasm"), oauth: packaged("mcp_wasm_oauth_bg.wasm") });
  peer = await startPeer("tests/peers/oauth-server.mjs");
});
after(() => peer?.child.kill());

const loaders = {
  quickCheck: () => {
    loads.quickCheck += 1;
    return import("mcp-wasm/quick-check.js");
  },
  dpop: () => {
    loads.dpop += 1;
    return import("mcp-wasm/dpop.js");
  },
};

const dpopFlow = () => McpClient.connect(`${peer.origin}/mcp`, codeFlow(consentingUser(), { dpop: true, storage: "memory" }));

test("without loaders, a DPoP flow fails with auth and names the missing key storage", LIMIT, async () => {
  const refused = await dpopFlow().then(() => null, (e) => e);
  assert.equal(refused?.kind, "auth", String(refused));
  assert.match(refused.message, /DPoP key: its storage \(mcp-wasm\/dpop\.js\) was not handed over \(setPartLoaders\)/);
});

test("with the validator's module and the package's parts, structuredContent is checked and a DPoP flow gets DPoP-bound tokens", LIMIT, async () => {
  const WEATHER = { name: "get-structured-content", arguments: { location: "Chicago" } };
  const client = await McpClient.connect(URL_);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.find((tool) => tool.name === WEATHER.name)?.outputSchema, "server-everything's structured tool declares an outputSchema");
    const unchecked = await client.callTool(WEATHER).then(() => null, (e) => e);
    assert.equal(unchecked?.kind, "network", String(unchecked));
    // Node's fetch reads no file: URL, so the module cannot come from beside the glue by itself.
    assert.match(unchecked.message, /validator module could not be loaded: .*mcp_wasm_validator_bg\.wasm could not be fetched from beside the glue \(with mcp-wasm\/raw, give it to initRestSync or initRest as `validator`\)/);
    initRestSync({ module: packaged("mcp_wasm_rest_bg.wasm"), validator: packaged("mcp_wasm_validator_bg.wasm") });
    assert.equal(__validatorReady(), true);
    assert.equal(typeof (await client.callTool(WEATHER)).structuredContent.temperature, "number");
    setPartLoaders(loaders);
    assert.equal(typeof (await client.callTool(WEATHER)).structuredContent.temperature, "number");
    assert.equal(loads.quickCheck, 1, "mcp-wasm/quick-check.js checked it next");
  } finally {
    await client.close();
  }
  await fetch(`${peer.origin}/__dpop-nonce?mode=off`, { method: "POST" });
  const authorized = await dpopFlow();
  try {
    assert.match((await authorized.callTool({ name: "whoami" })).content[0].text, /^client_id=client-/);
  } finally {
    await authorized.close();
  }
  const stats = await (await fetch(`${peer.origin}/__stats`)).json();
  assert.ok(stats.dpopGrants >= 1, "the token was bought with a DPoP proof");
  assert.deepEqual(stats.dpop.refused, {}, "the peer refused no proof");
  assert.equal(loads.dpop, 1, "DPoP's key storage loaded once");
});
