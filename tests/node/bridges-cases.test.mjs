// ToolBridge and qualifiedNames (plain JS in the package) against the cases that the Rust API's
// host::naming and host::bridges are held to (tests/fixtures/bridges.json, src/host/bridges_tests.rs):
// the two implementations give the same names, definitions, calls, messages and notes. Then what
// only the JS surface does: its argument checks and its typed errors.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { McpClientError, ToolBridge, qualifiedNames } from "mcp-wasm";

const cases = JSON.parse(readFileSync(new URL("../fixtures/bridges.json", import.meta.url), "utf8"));
const invalid = (pattern) => (e) => e instanceof McpClientError && e.kind === "invalid-argument" && pattern.test(e.message);

const offeredNames = {
  "openai-chat": (d) => d.map((t) => t.function.name),
  "openai-responses": (d) => d.map((t) => t.name),
  anthropic: (d) => d.map((t) => t.name),
  gemini: (d) => d[0].functionDeclarations.map((f) => f.name),
};

describe("the cases shared with the Rust API", () => {
  test("qualifiedNames", () => {
    assert.ok(cases.names.length >= 10);
    for (const { pairs, separator, rules, prefix, servers, names } of cases.names) {
      assert.deepEqual(qualifiedNames(pairs, { separator, rules, prefix }, servers), names, JSON.stringify(pairs));
      // The same entries in another order get the same names.
      const reversed = qualifiedNames([...pairs].reverse(), { separator, rules, prefix }, servers);
      assert.deepEqual([...reversed].sort(), [...names].sort());
    }
  });

  test("definitions, with each renamed tool noted first", () => {
    for (const { provider, tools, offered, definitions, notes } of cases.definitions) {
      const bridge = new ToolBridge(provider, tools);
      assert.deepEqual(bridge.definitions, definitions, provider);
      assert.deepEqual(offeredNames[provider](bridge.definitions), offered);
      const renamed = tools.flatMap((tool, i) =>
        tool.name === offered[i] ? [] : [`${tool.name}: offered as ${offered[i]}, a name the API accepts`]);
      assert.deepEqual(bridge.notes, [...renamed, ...notes], provider);
    }
  });

  test("tool calls parsed from each API's replies", () => {
    for (const { provider, reply, calls, error } of cases.calls) {
      // A bridge offering each tool the reply names, once.
      const names = new Set([...JSON.stringify(reply).matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]));
      const named = [...names].map((name) => ({ name, inputSchema: { type: "object" } }));
      const bridge = new ToolBridge(provider, named);
      if (error !== undefined) {
        assert.throws(() => bridge.parseToolCalls(reply), invalid(new RegExp(error)), JSON.stringify(reply));
        continue;
      }
      const parsed = bridge.parseToolCalls(reply);
      assert.deepEqual(parsed.map(({ id, offeredName, arguments: args }) => ({ id, name: offeredName, arguments: args })), calls);
      assert.deepEqual(parsed.map((call) => call.name), calls.map((call) => call.name), "the names are valid everywhere, so kept");
    }
  });

  test("tool results in each API's message shape, and their notes", () => {
    assert.ok(cases.results.some((c) => c.notes.length > 0));
    for (const { provider, call, result, message, notes } of cases.results) {
      const bridge = new ToolBridge(provider, []);
      assert.deepEqual(bridge.toolResultMessage(call, result), message, `${provider} ${call.name}`);
      assert.deepEqual(bridge.notes, notes);
    }
  });
});

describe("the JS surface", () => {
  test("the bridge copies what it is given and what it hands out", () => {
    const tools = [{ name: "echo", inputSchema: { type: "object" } }];
    const bridge = new ToolBridge("anthropic", tools);
    assert.equal(tools[0].inputSchema.properties, undefined, "the caller's schema is not touched");
    bridge.definitions[0].name = "changed";
    assert.equal(bridge.definitions[0].name, "echo");
    bridge.notes.push("changed");
    assert.equal(bridge.notes.length, 1);
    const [call] = bridge.parseToolCalls({ content: [{ type: "tool_use", id: "t1", name: "echo", input: { text: "hi" } }] });
    assert.deepEqual(call, { id: "t1", name: "echo", offeredName: "echo", arguments: { text: "hi" } });
    bridge.free();
    assert.deepEqual(bridge.parseToolCalls({ content: [] }), [], "free() releases nothing: the bridge is plain JS");
  });

  // A server can list this many tools in a few pages: naming them is one pass, not a search per pair
  // (which would take minutes; the timeout only keeps a regression from hanging the run).
  test("a hundred thousand entries are named in one pass", { timeout: 30_000 }, () => {
    const pairs = Array.from({ length: 50_000 }, (_, i) => [["a", `tool${i}`], ["b", `tool${i}`]]).flat();
    const names = qualifiedNames(pairs, { prefix: "on-collision" });
    assert.deepEqual(names.slice(0, 2), ["a__tool0", "b__tool0"]);
    const same = qualifiedNames(pairs.map(() => ["s", "same"]));
    assert.equal(new Set(same).size, same.length);
    assert.match(same.at(-1), /_99999$/);
  });

  test("a bridge keeps the last 1,000 lines of notes on tool results", () => {
    const bridge = new ToolBridge("openai-chat", [{ name: "shots", inputSchema: { type: "object", properties: {} } }]);
    const images = (n) => ({ content: Array.from({ length: n }, (_, i) => ({ type: "image", data: "", mimeType: `image/x-${i}` })) });
    for (let call = 0; call < 30; call++) bridge.toolResultMessage({ id: `c${call}`, name: "shots" }, images(100));
    assert.equal(bridge.notes.length, 1000);
    assert.match(bridge.notes.at(-1), /^shots: .*image/);
    const big = new ToolBridge("openai-chat", [{ name: "shots" }]);
    big.toolResultMessage({ id: "one", name: "shots" }, images(5000));
    assert.equal(big.notes.length, 1001, "the definitions' note, then the last 1,000 of the result's");
    assert.match(big.notes[0], /^shots: added an empty `properties`/);
  });

  test("numbers that listed tools already have are each tried once", { timeout: 30_000 }, () => {
    // 20,000 copies of one tool beside tools named as each copy's number would be: a search from 1
    // for each copy would be 200 million tries.
    const [base] = qualifiedNames([["s", "t"], ["s", "t"]]);
    const squatters = Array.from({ length: 20_000 }, (_, i) => ["s", `${base.slice(3)}_${i + 1}`]);
    const pairs = [...Array.from({ length: 20_000 }, () => ["s", "t"]), ...squatters];
    const names = qualifiedNames(pairs);
    assert.equal(new Set(names).size, pairs.length);
    assert.equal(names[1], `${base}_20001`);
  });

  test("bad arguments are McpClientError invalid-argument", () => {
    assert.throws(() => new ToolBridge("palm", []), invalid(/unknown provider "palm"/));
    assert.throws(() => new ToolBridge(["anthropic"], []), invalid(/unknown provider/));
    assert.throws(() => new ToolBridge("gemini", { tools: [] }), invalid(/tools must be an array/));
    assert.throws(() => new ToolBridge("gemini", [{ description: "nameless" }]), invalid(/every tool needs a name/));
    assert.throws(() => new ToolBridge("gemini", [{ name: "n", inputSchema: { default: 1n } }]), invalid(/tools is not JSON-compatible/));
    const bridge = new ToolBridge("openai-chat", [{ name: "echo" }]);
    const unknown = { tool_calls: [{ id: "c", function: { name: "rm", arguments: "{}" } }] };
    assert.throws(() => bridge.parseToolCalls(unknown), invalid(/called rm, which was not offered/));
    assert.throws(() => bridge.toolResultMessage({ name: "echo" }, () => {}), invalid(/result is not JSON-compatible/));
    assert.throws(() => qualifiedNames([["a"]]), invalid(/entries must be an array of \[server, name\] string pairs/));
    assert.throws(() => qualifiedNames("a__b"), invalid(/entries must be/));
    assert.throws(() => qualifiedNames([], "openai"), invalid(/naming must be an object/));
    assert.throws(() => qualifiedNames([], { rules: "palm" }), invalid(/naming.rules/));
    assert.throws(() => qualifiedNames([], { rules: ["openai"] }), invalid(/naming.rules/));
    assert.throws(() => qualifiedNames([], { separator: "→→→" }), invalid(/naming.separator/), "nine bytes of UTF-8");
    assert.throws(() => qualifiedNames([], { prefix: "never" }), invalid(/naming.prefix/));
    assert.deepEqual(qualifiedNames([["a", "b"]], { rules: null, separator: null, prefix: null }), ["a__b"], "null means the default");
  });
});
