// Large results, which reach JS as the server's own JSON text (see
// jsonrpc::raw_result), against the benchmark server (the official SDK 1.x
// Server, bench/server.mjs, started here): the objects equal what a plain
// JSON.parse of the same answer gives, key order included, and checks still run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startPeer } from "../support/peer-process.mjs";
import { McpClient } from "mcp-wasm";
import { wasmMiB } from "../support/list-memory.mjs";
import { Floor } from "../../bench/floor.mjs";
import { glue } from "../support/glue.mjs";

let PORT; // picked by the OS: a fixed port can be taken by an outgoing connection
let URL_;
const LIMIT = { timeout: 60_000 };
let server;

before(async () => {
  let origin;
  ({ child: server, origin, port: PORT } = await startPeer("bench/server.mjs"));
  URL_ = `${origin}/mcp`;
});
after(() => server?.kill("SIGTERM"));

async function plain(method, params) {
  const floor = await new Floor(URL_).connect();
  const answer = JSON.parse(await floor.requestText(method, params)).result;
  await floor.close();
  return answer;
}

// wasm linear memory never shrinks (wasmMiB): its size shows the most any result ever took.

test("a 5 MiB result stays in JS, as a JSON body or an SSE event: the checks read it without its text, and wasm memory does not grow", LIMIT, async () => {
  // First in this file: no large result has been in wasm yet.
  const before = wasmMiB();
  const client = await McpClient.connect(URL_, { era: "legacy" });
  try {
    for (let i = 0; i < 3; i++) {
      const read = await client.readResource({ uri: "bench://big" });
      assert.deepEqual(read, await plain("resources/read", { uri: "bench://big" }));
    }
    // Before the body stayed in JS, a read copied its 5 MiB in, and memory ended 5 MiB higher.
    assert.ok(wasmMiB() - before < 1, `wasm memory grew from ${before} to ${wasmMiB()} MiB`);
  } finally {
    await client.close();
  }
  // The same as an SSE answer, the SDK server's default: the event's data stays in JS.
  const streamed = await McpClient.connect(`${URL_}-stream`, { era: "legacy" });
  try {
    const read = await streamed.readResource({ uri: "bench://big" });
    assert.deepEqual(read, await plain("resources/read", { uri: "bench://big" }));
    // The event's first 256 KiB wait in the parser's line until it is known to be that long.
    assert.ok(wasmMiB() - before < 2, `wasm memory grew from ${before} to ${wasmMiB()} MiB over SSE`);
  } finally {
    await streamed.close();
  }
});

test("a 2 MiB tools/list and a 652 KiB structured result stay in JS too: the checks read what they need, and wasm memory stays small", LIMIT, async () => {
  // Second in this file: only the reads above have been in wasm.
  const before = wasmMiB();
  // JSON bodies first, then SSE answers, whose parser holds an event's first 256 KiB in its line.
  for (const [path, most] of [["", 1], ["-stream", 2]]) {
    const client = await McpClient.connect(`${URL_}${path}`, { era: "legacy" });
    try {
      for (let i = 0; i < 3; i++) {
        const page = await client.listTools();
        assert.equal(page.tools.length, 2003);
        assert.equal(Object.keys(page.tools[10].inputSchema.properties).length > 0, true);
        const deep = await client.callTool({ name: "deep", arguments: {} });
        assert.equal(deep.structuredContent.items.length, 1500);
      }
      assert.equal((await client.listAllTools()).length, 2003);
    } finally {
      await client.close();
    }
    // Before a page stayed in JS, the list alone took wasm memory 2 to 5 MiB higher.
    assert.ok(wasmMiB() - before < most, `wasm memory grew from ${before} to ${wasmMiB()} MiB (${path || "JSON"})`);
  }
});

test("a 2 MiB tools/list equals the server's JSON, in its key order", LIMIT, async () => {
  const client = await McpClient.connect(URL_, { era: "legacy" });
  const page = await client.listTools();
  const expected = await plain("tools/list", {});
  assert.equal(page.tools.length, 2003);
  assert.deepEqual(page, expected);
  assert.deepEqual(Object.keys(page.tools[10].inputSchema.properties), Object.keys(expected.tools[10].inputSchema.properties));
  assert.deepEqual(Object.keys(page.tools[10]), ["name", "title", "description", "inputSchema", "annotations"]);
  // Every page at once: the same tools, in order and key order.
  const all = await client.listAllTools();
  assert.deepEqual(all, expected.tools);
  assert.deepEqual(Object.keys(all[10].inputSchema.properties), Object.keys(expected.tools[10].inputSchema.properties));
  await client.close();
});

test("a 5 MiB resource and a deep structured result arrive whole, still validated", LIMIT, async () => {
  const client = await McpClient.connect(URL_, { era: "legacy" });
  const read = await client.readResource({ uri: "bench://big" });
  assert.equal(read.contents[0].text.length, 5 * 1024 * 1024);
  await client.listTools(); // so that deep's outputSchema is known
  const deep = await client.callTool({ name: "deep", arguments: {} });
  assert.deepEqual(deep, await plain("tools/call", { name: "deep", arguments: {} }));
  assert.equal(deep.structuredContent.items.length, 1500);
  await client.close();
});

/** Each text comes back from the echo tool as the server wrote it, and as a plain JSON.parse reads it. */
async function echoesAsWritten(texts) {
  const client = await McpClient.connect(URL_, { era: "legacy" });
  try {
    for (const text of texts) {
      const result = await client.callTool({ name: "echo", arguments: { text } });
      assert.equal(result.content[0].text, text);
      assert.deepEqual(result, await plain("tools/call", { name: "echo", arguments: { text } }));
    }
  } finally {
    await client.close();
  }
}

test("large texts in every alphabet arrive as the server wrote them (ASCII ones decoded by Node's Buffer)", LIMIT, async () => {
  const texts = [
    "plain ascii with \u0001 control, DEL \u007f, tab\t and \"quotes\" ".repeat(400),
    "café, naïve, 日本語, emoji 😀, and a lone ascii run after it ".repeat(400),
    "\u00e9".repeat(9000),
    "ascii until the very end ".repeat(400) + "é",
  ];
  await echoesAsWritten(texts);
});

test("long tool texts in every alphabet stay in JS and arrive as the server wrote them", LIMIT, async () => {
  // Longest first: the shorter bodies after it are joined in the buffer it left (glue.js, `joined`),
  // and must read only their own bytes of it, whichever decoder reads them.
  const texts = [
    "plain ascii with \u0001 control, DEL \u007f, tab\t and \"quotes\" and \\ ".repeat(20000),
    "café, naïve, 日本語, emoji 😀, and a lone ascii run after it ".repeat(20000),
    "ascii until the very end ".repeat(45000) + "é",
  ];
  await echoesAsWritten(texts);
});

test("a kept body is decoded as latin1 when, and only when, every byte is ASCII (Node's isAscii)", LIMIT, async () => {
  const decode = Buffer.prototype.toString;
  let latin1 = 0;
  // Node decodes HTTP's own bytes as latin1 too: only a body's length counts.
  Buffer.prototype.toString = function (encoding, ...rest) {
    if (encoding === "latin1" && this.length >= 256 * 1024) latin1++;
    return decode.call(this, encoding, ...rest);
  };
  const client = await McpClient.connect(URL_, { era: "legacy" });
  try {
    const read = await client.readResource({ uri: "bench://big" });
    assert.equal(read.contents[0].text.length, 5 * 1024 * 1024);
    assert.equal(latin1, 1, "the 5 MiB ASCII body went to Buffer's latin1");
    const text = "ascii for a long while ".repeat(20000) + "and then café";
    const echoed = await client.callTool({ name: "echo", arguments: { text } });
    assert.equal(echoed.content[0].text, text);
    assert.equal(latin1, 1, "a body with one byte past ASCII went to TextDecoder");
    // What the glue is given directly: a split multi-byte character, and bytes that are not UTF-8.
    const bytes = new TextEncoder().encode('{"result":"naïve"}');
    const at = bytes.indexOf(0xc3) + 1;
    assert.equal(glue.parseKept([bytes.subarray(0, at), bytes.subarray(at)], bytes.length, false), "naïve");
    const broken = Uint8Array.of(...new TextEncoder().encode('{"result":"'), 0xff, ...new TextEncoder().encode('"}'));
    assert.throws(() => glue.parseKept([broken], broken.length, false), TypeError);
    assert.equal(glue.parseKept([broken], broken.length, true), "\ufffd");
  } finally {
    Buffer.prototype.toString = decode;
    await client.close();
  }
});

test("a trace sees a kept response whole", LIMIT, async () => {
  const seen = [];
  const client = await McpClient.connect(URL_, { era: "legacy", trace: (entry) => seen.push(entry) });
  const read = await client.readResource({ uri: "bench://big" });
  const answer = seen.find((entry) => entry.direction === "in" && entry.id === seen.at(-2)?.id);
  assert.ok(answer, "the response was traced");
  assert.ok(answer.bytes > 5 * 1024 * 1024, `the trace saw ${answer.bytes} bytes`);
  assert.deepEqual(JSON.parse(answer.json).result, read);
  await client.close();
});

test("the same over HTTP+SSE (2024-11-05)", LIMIT, async () => {
  const client = await McpClient.connect(`http://127.0.0.1:${PORT}/sse`, { transport: "sse" });
  assert.equal(client.transport, "sse");
  const page = await client.listTools();
  assert.deepEqual(page, await plain("tools/list", {}));
  const read = await client.readResource({ uri: "bench://big" });
  assert.equal(read.contents[0].text.length, 5 * 1024 * 1024);
  await client.close();
});

test("the same as SSE answers to each POST (the SDK server's default), gathered from many chunks", LIMIT, async () => {
  const client = await McpClient.connect(`http://127.0.0.1:${PORT}/mcp-stream`, { era: "legacy" });
  const page = await client.listTools();
  assert.deepEqual(page, await plain("tools/list", {}));
  const read = await client.readResource({ uri: "bench://big" });
  assert.deepEqual(read, await plain("resources/read", { uri: "bench://big" }));
  const deep = await client.callTool({ name: "deep", arguments: {} });
  assert.deepEqual(deep, await plain("tools/call", { name: "deep", arguments: {} }));
  await client.close();
});
