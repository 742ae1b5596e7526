// The measurements, the same in Node and in the browser page. Contenders take
// turns (the order rotates every round) so that drift on a shared machine hits
// all of them alike; results are medians and percentiles, and the report gives
// ratios rather than trusting absolute times.
import { Floor } from "./floor.mjs";

const now = () => performance.now();

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
export const median = (values) => percentile(values, 50);

// Round r visits the contenders starting at r (mod n).
function rotation(list, round) {
  return list.map((_, i) => list[(i + round) % list.length]);
}

async function timed(fn) {
  const start = now();
  await fn();
  return now() - start;
}

export async function runMetrics({ contenders, url, streamUrl, hooks = {}, log = () => {}, scale = 1 }) {
  const names = contenders.map((c) => c.name);
  const results = { names, connect: {}, sequential: {}, concurrent: {}, large: {}, progress: {}, memory: {} };
  const rounds = (n) => Math.max(3, Math.round(n * scale));

  log("connect");
  const connectTimes = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds(15); r++) {
    for (const c of rotation(contenders, r)) {
      let conn;
      connectTimes[c.name].push(await timed(async () => { conn = await c.connect(url); }));
      await conn.close();
    }
  }
  for (const n of names) results.connect[n] = { median: median(connectTimes[n]) };

  const conns = {};
  for (const c of contenders) conns[c.name] = await c.connect(url);

  log("sequential");
  const latencies = Object.fromEntries(names.map((n) => [n, []]));
  for (const c of contenders) for (let i = 0; i < 30; i++) await conns[c.name].call("echo", { text: "warm" });
  for (let r = 0; r < rounds(12); r++) {
    for (const c of rotation(contenders, r)) {
      for (let i = 0; i < 40; i++) latencies[c.name].push(await timed(() => conns[c.name].call("echo", { text: "hello" })));
    }
  }
  for (const n of names) results.sequential[n] = { p50: median(latencies[n]), p99: percentile(latencies[n], 99), samples: latencies[n].length };

  log("concurrent");
  const throughput = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds(5); r++) {
    for (const c of rotation(contenders, r)) {
      const total = 640;
      const ms = await timed(() => Promise.all(Array.from({ length: 64 }, async () => {
        for (let i = 0; i < total / 64; i++) await conns[c.name].call("echo", { text: "hello" });
      })));
      throughput[c.name].push((total / ms) * 1000);
    }
  }
  for (const n of names) results.concurrent[n] = { callsPerSecond: median(throughput[n]) };

  log("large results");
  const raw = await new Floor(url).connect();
  const bytes = {
    toolsList: await raw.requestText("tools/list", {}),
    bigRead: await raw.requestText("resources/read", { uri: "bench://big" }),
    deep: await raw.requestText("tools/call", { name: "deep", arguments: {} }),
  };
  await raw.close();
  const parseTimes = (text) => {
    const times = [];
    for (let i = 0; i < 7; i++) times.push((() => { const s = now(); JSON.parse(text); return now() - s; })());
    return median(times);
  };
  results.large.jsonParse = { toolsList: parseTimes(bytes.toolsList), bigRead: parseTimes(bytes.bigRead), deep: parseTimes(bytes.deep) };
  results.large.bytes = { toolsList: bytes.toolsList.length, bigRead: bytes.bigRead.length, deep: bytes.deep.length };
  for (const c of contenders) await conns[c.name].listTools(); // so that each knows deep's outputSchema
  const large = { toolsList: {}, bigRead: {}, deep: {} };
  for (const key of Object.keys(large)) for (const n of names) large[key][n] = [];
  for (let r = 0; r < rounds(15); r++) {
    for (const c of rotation(contenders, r)) {
      const conn = conns[c.name];
      large.toolsList[c.name].push(await timed(async () => {
        const tools = await conn.listTools();
        if (tools.length < 2000) throw new Error(`${c.name}: ${tools.length} tools`);
      }));
      large.bigRead[c.name].push(await timed(async () => {
        const read = await conn.readResource("bench://big");
        if (read.contents[0].text.length !== 5 * 1024 * 1024) throw new Error(`${c.name}: short read`);
      }));
      large.deep[c.name].push(await timed(async () => {
        const result = await conn.call("deep", {});
        if (result.structuredContent.items.length !== 1500) throw new Error(`${c.name}: deep result`);
      }));
    }
  }
  for (const key of Object.keys(large)) results.large[key] = Object.fromEntries(names.map((n) => [n, median(large[key][n])]));
  for (const c of contenders) await conns[c.name].close();

  log("progress stream");
  const progress = Object.fromEntries(names.map((n) => [n, []]));
  const streams = {};
  for (const c of contenders) streams[c.name] = await c.connect(streamUrl);
  const COUNT = 10_000;
  for (let r = 0; r < rounds(3); r++) {
    for (const c of rotation(contenders, r)) {
      let seen = 0;
      const ms = await timed(async () => {
        await streams[c.name].callWithProgress("progress", { count: COUNT }, () => { seen += 1; });
      });
      if (seen !== COUNT) throw new Error(`${c.name}: ${seen} of ${COUNT} progress notifications reached the callback`);
      progress[c.name].push(ms);
    }
  }
  for (const c of contenders) await streams[c.name].close();
  for (const n of names) results.progress[n] = { median: median(progress[n]) };

  log("memory");
  for (const c of contenders) {
    const conn = await c.connect(url);
    const samples = [];
    for (let done = 0; done <= 10_000; done += 1000) {
      if (done > 0) {
        for (let i = 0; i < 1000; i += 50) await Promise.all(Array.from({ length: 50 }, () => conn.call("echo", { text: "memory" })));
      }
      await hooks.gc?.();
      samples.push({ calls: done, heap: await hooks.heap?.(), wasm: c.name === "mcp-wasm" ? hooks.wasmMemory?.() : undefined });
    }
    await conn.close();
    results.memory[c.name] = samples;
  }
  return results;
}
