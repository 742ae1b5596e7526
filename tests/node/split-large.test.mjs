// A first tool call whose result is long enough to stay in JS (256 KiB and more: src/transport/kept.rs),
// against server-everything. That code is in the rest of the core (scripts/split), which the page
// has not loaded yet: the glue loads it before the body reaches the core (`restGate` in src/glue.js),
// so the core does not load it synchronously in the middle of the call. Its own process, so that
// the rest is not loaded when it starts; the tests run in order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { McpClient, McpClientError } from "mcp-wasm";
import { __restReady } from "mcp-wasm/raw";
import { REST, assertPrimaryAlone, loadWith, needs } from "../support/primary-alone.mjs";
import { jsonAnswersFetch } from "../../scripts/split/scenarios.js";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 30_000 };
const LONG = 300_000;

// server-everything answers each call with an event stream; this `fetch` hands a POST's answer
// over as one JSON body, as servers with JSON responses send it (the GET stream stays a stream).
const asJson = jsonAnswersFetch((input, init) => fetch(input, init));

test("a long JSON body fails with a network error while the rest cannot load, and the client goes on", LIMIT, async () => {
  const loader = loadWith(() => {
    throw new Error("offline");
  });
  const client = await McpClient.connect(URL_, { fetch: asJson });
  const long = client.callTool({ name: "echo", arguments: { message: "x".repeat(LONG) } });
  await assert.rejects(long, (e) => e instanceof McpClientError && e.kind === "network" && /offline/.test(e.message));
  const short = await client.callTool({ name: "echo", arguments: { message: "still here" } });
  assert.match(short.content[0].text, /still here/);
  await client.close();
  assert.equal(loader.loads, 1, "the long body asked for the rest");
  assertPrimaryAlone("a long JSON body while the rest could not load");
});

test("a long result in an event stream loads the rest before the core reads it", LIMIT, async () => {
  const loader = loadWith(() => readFileSync(REST));
  const client = await McpClient.connect(URL_);
  assertPrimaryAlone("connecting");
  const streamed = await client.callTool({ name: "echo", arguments: { message: "s".repeat(LONG) } });
  assert.ok(streamed.content[0].text.includes("s".repeat(LONG)), "the whole text came back");
  assert.equal(needs.length, 0, `the primary needed the rest at\n${needs[0]}`);
  assert.equal(__restReady(), true, "the long answer loaded the rest");
  assert.equal(loader.loads, 1);
  await client.close();
});

test("with the rest in, a long JSON body goes straight to the core", LIMIT, async () => {
  const client = await McpClient.connect(URL_, { fetch: asJson });
  const whole = await client.callTool({ name: "echo", arguments: { message: "j".repeat(LONG) } });
  assert.ok(whole.content[0].text.includes("j".repeat(LONG)));
  assert.equal(needs.length, 0);
  await client.close();
});
