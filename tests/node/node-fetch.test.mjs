// The Node entry's sender (pkg-template/node-fetch.js): requests go with redirect "error" to Node's own
// fetch, and the request's signal cancels what they answered, read or not, since Node's fetch loses
// such an abort after a collection. A fetch put in place before the package loads is left alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { spawn } from "node:child_process";
import "mcp-wasm";
import { collectGarbage } from "../support/gc.mjs";
import { until } from "../support/until.mjs";
import { glue } from "../support/glue.mjs";

const EVERYTHING = process.env.MCP_TEST_URL ?? "http://127.0.0.1:38011/mcp";

// A server that streams a body for as long as the client reads it, counting the answers still open.
async function streamingServer() {
  let open = 0;
  const server = http.createServer((request, response) => {
    open += 1;
    request.resume();
    response.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => response.write("x".repeat(64)), 20);
    response.on("close", () => {
      clearInterval(timer);
      open -= 1;
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    open: () => open,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
  };
}

test("a body left unread is cancelled when its request's signal aborts after a collection", async () => {
  const server = await streamingServer();
  try {
    const controller = new AbortController();
    const init = { method: "POST", body: "{}", signal: controller.signal };
    const response = await glue.sendRequest(server.url, init);
    assert.equal(init.redirect, "error", "Node's own fetch got the request with redirect \"error\"");
    assert.equal(response.status, 200);
    await collectGarbage({ rounds: 5 });
    controller.abort();
    await until(() => server.open() === 0, "the body's stream is closed");
  } finally {
    await server.close();
  }
});

test("a body read through readerOf fails with the signal's reason, not a plain end", async () => {
  const server = await streamingServer();
  try {
    const controller = new AbortController();
    const response = await glue.sendRequest(server.url, { method: "GET", signal: controller.signal });
    const reader = glue.readerOf(response.body);
    assert.equal((await reader.read()).done, false);
    await collectGarbage({ rounds: 5 });
    const reason = new Error("stop");
    const pending = reader.read().then(() => reader.read());
    controller.abort(reason);
    await assert.rejects(pending, (error) => error === reason);
    await until(() => server.open() === 0, "the body's stream is closed");
  } finally {
    await server.close();
  }
});

test("a fetch put in place before the package loads gets requests as the core makes them", async () => {
  // The child replaces fetch, then loads the package and calls server-everything.
  const child = `
    const own = globalThis.fetch;
    const modes = [];
    globalThis.fetch = (input, init) => { modes.push(init?.redirect ?? "default"); return own(input, init); };
    const { McpClient } = await import("mcp-wasm");
    const client = await McpClient.connect(${JSON.stringify(EVERYTHING)}, { era: "legacy", timeout: 10000 });
    await client.callTool({ name: "echo", arguments: { message: "hi" } });
    await client.close();
    console.log(JSON.stringify(modes));`;
  const run = spawn(process.execPath, ["--input-type=module", "-e", child], { cwd: new URL("../..", import.meta.url), stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  run.stdout.on("data", (chunk) => (out += chunk));
  const code = await new Promise((resolve) => run.on("close", resolve));
  assert.equal(code, 0);
  const modes = JSON.parse(out);
  assert.ok(modes.length >= 3, `the replacement saw ${modes.length} requests`);
  assert.deepEqual([...new Set(modes)], ["default"]);
});
