// Against server-everything: a plain outputSchema and a matching elicitation answer are checked
// by quick-check.js without the validator's module, which an answer outside its schema loads.
// In a process of its own, as every test file, so nothing loaded the validator's module before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "mcp-wasm";
import { __validatorReady, setPartLoaders } from "mcp-wasm/raw";

const URL_ = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";
const LIMIT = { timeout: 60_000 };

/** The package's quick check, counting its loads; and whether the validator's module is in. */
function countLoads() {
  const loads = { quickCheck: 0, get validator() { return __validatorReady() ? 1 : 0; } };
  setPartLoaders({
    quickCheck: async () => {
      loads.quickCheck += 1;
      return import("../../pkg/quick-check.js");
    },
  });
  return loads;
}

test("a plain outputSchema from server-everything is checked without the validator module", LIMIT, async () => {
  const loads = countLoads();
  const client = await McpClient.connect(URL_);
  try {
    await client.listTools();
    for (const location of ["Chicago", "New York"]) {
      const weather = await client.callTool({ name: "get-structured-content", arguments: { location } });
      assert.equal(typeof weather.structuredContent.temperature, "number");
    }
    assert.deepEqual({ ...loads }, { quickCheck: 1, validator: 0 });
  } finally {
    await client.close();
  }
});

test("an elicitation answer is checked without the validator module, unless it does not match", LIMIT, async () => {
  const loads = countLoads();
  // server-everything's form: strings with formats, bounded numbers, enums, and titled enums (a oneOf of constants).
  const answers = [
    { name: "Ada", integer: 7, number: 2.5, untitledMultipleSelectEnum: ["Piano"], titledSingleSelectEnum: "hero-2", titledMultipleSelectEnum: ["fish-1"] },
    { name: "Ada", integer: 500 },
  ];
  const problems = [];
  const client = await McpClient.connect(URL_, { handlers: { elicitation: () => ({ action: "accept", content: answers.shift() }) } });
  client.addEventListener("error", (event) => problems.push(event.error));
  try {
    const texts = async () => (await client.callTool({ name: "trigger-elicitation-request", arguments: {} })).content.map((block) => block.text).join("\n");
    const accepted = await texts();
    assert.match(accepted, /Name: Ada/);
    assert.match(accepted, /Favorite Integer: 7/);
    assert.deepEqual({ ...loads }, { quickCheck: 1, validator: 0 }, "a matching answer needs no validator module");
    await texts().catch(() => {});
    assert.equal(loads.validator, 1, "the answer outside its schema went to the validator module");
    assert.ok(problems.some((e) => e?.kind === "invalid-result" || /does not match the requested schema/.test(e?.message ?? "")), problems.map(String).join("; "));
  } finally {
    await client.close();
  }
});
