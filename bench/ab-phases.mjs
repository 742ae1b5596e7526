// Where a small call's time goes in Node, phase by phase, for a build and for the raw-fetch floor:
// from the call to `fetch` ("before fetch"), `fetch`'s own synchronous part, how long the thread stays
// busy once `fetch` is called (until a `setImmediate` set then runs), `fetch` to the headers, the
// body, and the body's end to the result. The build's phases are read through a `fetch` option that
// wraps the global one. Medians of 2,800 `tools/call echo` each, after 200 that warm up.
//   PORT=38290 node bench/server.mjs &
//   node bench/ab-phases.mjs http://127.0.0.1:38290 <pkg dir>
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Floor } from "./floor.mjs";

const [base, dir] = process.argv.slice(2);
if (!dir) throw new Error("usage: node bench/ab-phases.mjs <bench server url> <pkg dir>");
const CALLS = 3000;
const WARM = 200;
const PHASES = ["before fetch", "fetch itself", "busy after fetch", "to the headers", "the body", "body to result", "total"];

const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
const report = (name, rows) =>
  console.log(name.padEnd(10), PHASES.map((phase) => `${phase} ${(median(rows[phase]) * 1000).toFixed(0)} µs`).join(", "));
const newRows = () => Object.fromEntries(PHASES.map((phase) => [phase, []]));

// One call's marks, filled in by the wrapped fetch; `free` by the setImmediate it sets.
let marks = {};
function record(rows, start, end) {
  rows["before fetch"].push(marks.fetch - start);
  rows["fetch itself"].push(marks.called - marks.fetch);
  rows["busy after fetch"].push(marks.free - marks.fetch);
  rows["to the headers"].push(marks.headers - marks.fetch);
  rows["the body"].push(marks.bodyEnd - marks.headers);
  rows["body to result"].push(end - marks.bodyEnd);
  rows.total.push(end - start);
}

async function timedFetch(url, init) {
  marks.fetch = performance.now();
  setImmediate(() => { marks.free = performance.now(); });
  const pending = fetch(url, init);
  marks.called = performance.now();
  const response = await pending;
  marks.headers = performance.now();
  return response;
}

// The build reads the body through `getReader`: its last read marks the body's end.
async function wrappedFetch(url, init) {
  const response = await timedFetch(url, init);
  const reader = response.body.getReader();
  const read = reader.read.bind(reader);
  reader.read = async () => {
    const chunk = await read();
    if (chunk.done) marks.bodyEnd = performance.now();
    return chunk;
  };
  Object.defineProperty(response, "body", { value: { getReader: () => reader, cancel: (reason) => reader.cancel(reason) } });
  return response;
}

const { McpClient } = await import(pathToFileURL(path.resolve(dir, "node.js")).href);
const client = await McpClient.connect(`${base}/mcp`, { era: "legacy", fetch: wrappedFetch });
const built = newRows();
for (let i = 0; i < CALLS; i++) {
  marks = {};
  const start = performance.now();
  await client.callTool({ name: "echo", arguments: { text: "hello" } });
  const end = performance.now();
  if (i >= WARM && marks.bodyEnd !== undefined) record(built, start, end);
}
await client.close();

const floor = await new Floor(`${base}/mcp`).connect();
const floorRows = newRows();
for (let i = 0; i < CALLS; i++) {
  marks = {};
  const start = performance.now();
  const body = JSON.stringify({ jsonrpc: "2.0", id: ++floor.id, method: "tools/call", params: { name: "echo", arguments: { text: "hello" } } });
  const response = await timedFetch(floor.url, { method: "POST", headers: floor.headers(), body });
  const text = await response.text();
  marks.bodyEnd = performance.now();
  JSON.parse(text);
  const end = performance.now();
  if (i >= WARM) record(floorRows, start, end);
}
await floor.close();

report(path.basename(path.resolve(dir)), built);
report("floor", floorRows);
