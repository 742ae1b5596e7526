// The parts the core loads on first use (src/js/lazy/, src/transport/parts.rs, the validator's
// module of the split core), against server-everything: what a failed load does, and that the
// next call loads again. The package's own loaders are replaced through the raw module's
// setPartLoaders and __setRestLoader; each test file runs in a process of its own, so this
// affects no other test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { McpClient } from "mcp-wasm";
import { __setRestLoader, __validatorReady, setPartLoaders } from "mcp-wasm/raw";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 30_000 };
const WEATHER = { name: "get-structured-content", arguments: { location: "Chicago" } };
const file = (name) => () => readFileSync(new URL(`../../pkg/${name}`, import.meta.url));

test("a validator module that fails to load fails the call with network, and the next call loads it", LIMIT, async () => {
  let attempts = 0;
  let offline = true;
  setPartLoaders({}); // no quick check: the validator's module decides every check
  __setRestLoader({ sync: file("mcp_wasm_rest_bg.wasm") }, { sync: file("mcp_wasm_oauth_bg.wasm") }, {
    sync: file("mcp_wasm_validator_bg.wasm"),
    async load() {
      attempts += 1;
      if (offline) throw new TypeError("fetch failed");
      return file("mcp_wasm_validator_bg.wasm")();
    },
  });
  const client = await McpClient.connect(URL_);
  try {
    await client.listTools();
    const echo = await client.callTool({ name: "echo", arguments: { message: "no schema" } });
    assert.equal(echo.content[0].text, "Echo: no schema");
    assert.equal(attempts, 0, "a tool without outputSchema loads no validator");
    assert.equal(__validatorReady(), false);

    const failed = await client.callTool(WEATHER).then(() => null, (e) => e);
    assert.equal(failed?.kind, "network", String(failed));
    assert.match(failed.message, /validator module could not be loaded: .*fetch failed/);

    offline = false;
    const weather = await client.callTool(WEATHER);
    assert.equal(typeof weather.structuredContent.temperature, "number");
    assert.equal(attempts, 2);
    assert.equal(__validatorReady(), true);
    assert.equal((await client.callTool({ name: "echo", arguments: { message: "still here" } })).content[0].text, "Echo: still here");
  } finally {
    await client.close();
  }
});

test("setPartLoaders: a loader that throws at once is tried again; one load is shared by concurrent calls and kept", LIMIT, async () => {
  let calls = 0;
  let fail = true;
  setPartLoaders({
    quickCheck: () => {
      calls += 1;
      if (fail) throw new TypeError("offline");
      return import("../../pkg/quick-check.js");
    },
  });
  const client = await McpClient.connect(URL_);
  try {
    await client.listTools();
    // Without the quick check, the validator decides: the call still answers, checked.
    assert.equal(typeof (await client.callTool(WEATHER)).structuredContent.temperature, "number");
    assert.equal(calls, 1);
    fail = false;
    const both = await Promise.all([client.callTool(WEATHER), client.callTool(WEATHER)]);
    assert.ok(both.every((r) => typeof r.structuredContent.temperature === "number"));
    assert.equal(calls, 2, "one failed load, then one load shared by both calls");
    await client.callTool(WEATHER);
    assert.equal(calls, 2, "the module is kept");
  } finally {
    await client.close();
  }
});

test("without the JS parts (the raw module by hand), structuredContent is still checked and auth still works", LIMIT, async () => {
  setPartLoaders(undefined);
  const client = await McpClient.connect(URL_);
  try {
    await client.listTools();
    const weather = await client.callTool(WEATHER);
    assert.equal(typeof weather.structuredContent.temperature, "number");
  } finally {
    await client.close();
  }
  // OAuth is a module of the core's (scripts/split), not a part: server-everything asks for no
  // authorization, so auth is configured, checked and unused.
  const authorized = await McpClient.connect(URL_, { auth: { clientId: "x", redirectUri: "http://127.0.0.1:1/cb", authorize: () => {} } });
  try {
    assert.equal((await authorized.callTool({ name: "echo", arguments: { message: "authorized" } })).content[0].text, "Echo: authorized");
  } finally {
    await authorized.close();
  }
  const refused = await McpClient.connect(URL_, { auth: "x" }).then(() => null, (e) => e);
  assert.equal(refused?.kind, "invalid-argument", String(refused));
  assert.match(refused.message, /auth must be an object/);
});
