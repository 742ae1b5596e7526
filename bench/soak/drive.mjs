// The soak itself, the same in Node and in the browser page: one client makes
// `calls` echo calls through the fault proxy's `armed` route, `concurrency` at a
// time, arming a fault for every `faultEvery`-th call, and samples memory after a
// forced GC every `sampleEvery` calls. It imports nothing, so the page can load it
// as it is.
//
// The faults: a response stream cut mid-event (the client resumes it with GET and
// Last-Event-ID), and the server forgetting the session (the client renews it and
// replays the call). They take turns by half-block, each half settled before the
// next starts: a renewal while a cut stream waits to resume makes the client drop
// that stream without failing its call, which then waits out its whole timeout
// (a client bug; `interleave` mixes the two faults call by call to show it).
export const FAULTS = ["cut-sse", "forget-session"];

const textOf = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("");

// Finalizers that free wasm-side objects run after the collection that found
// them dead, on a later task; a second collection takes what they released.
async function settle(hooks) {
  await hooks.gc();
  await new Promise((resolve) => setTimeout(resolve, 0));
  await hooks.gc();
}

export async function runSoak({ McpClient, proxy, calls, concurrency, sampleEvery, faultEvery, interleave, timeoutMs, hooks, log = () => {} }) {
  const stats = async () => (await fetch(`${proxy}/__stats`)).json();
  const arm = async (fault) => { await (await fetch(`${proxy}/__arm?fault=${fault}`, { method: "POST" })).text(); };
  const statsBefore = await stats();
  const client = await McpClient.connect(`${proxy}/armed/mcp`, { timeout: timeoutMs });
  let renewals = 0;
  let reconnections = 0;
  client.addEventListener("sessionrenewed", () => { renewals += 1; });
  client.addEventListener("reconnecting", () => { reconnections += 1; });

  const failures = new Map(); // "kind: message" → count
  const failedCalls = []; // the first few, with the faults of their half-block
  const fail = (i, faults, what) => {
    if (!failures.has(what)) log(`call ${i} failed, the first with ${what}`);
    failures.set(what, (failures.get(what) ?? 0) + 1);
    if (failedCalls.length < 100) failedCalls.push({ call: i, faults: faults.join("+"), what });
  };
  let armedCount = 0;
  let ok = 0;
  // Calls n = 0, faultEvery, 2·faultEvery… of a block meet a fault, the first one
  // at once: a cut's resumption (about a second) then overlaps the rest of the
  // block rather than holding up its end.
  async function call(i, n, faults) {
    if (faultEvery > 0 && n % faultEvery === 0) {
      await arm(faults[(n / faultEvery) % faults.length]);
      armedCount += 1;
    }
    const message = `soak ${i}`;
    try {
      const text = textOf(await client.callTool({ name: "echo", arguments: { message } }));
      // A replayed or resumed call must still get its own answer.
      if (text === `Echo: ${message}`) ok += 1;
      else fail(i, faults, "wrong-result: not this call's echo");
    } catch (e) {
      fail(i, faults, `${e?.kind ?? e?.name ?? "thrown"}: ${e?.message ?? e}`);
    }
  }
  // Calls from..to-1, `concurrency` in flight, faults drawn from `faults`;
  // resolves when all have settled.
  async function block(from, to, faults) {
    let next = from;
    const worker = async () => {
      while (next < to) {
        const i = next++;
        await call(i, i - from, faults);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }

  const samples = [];
  const started = performance.now();
  const sample = async (done) => {
    await settle(hooks);
    samples.push({ calls: done, ms: Math.round(performance.now() - started), heap: await hooks.heap(), wasm: await hooks.wasmMemory() });
  };
  await sample(0);
  for (let done = 0; done < calls;) {
    const to = Math.min(calls, done + sampleEvery);
    const half = done + Math.ceil((to - done) / 2);
    await block(done, half, interleave ? FAULTS : [FAULTS[0]]);
    await block(half, to, interleave ? FAULTS : [FAULTS[1]]);
    done = to;
    await sample(done);
    log(`${done}/${calls} calls, ${renewals} renewals, ${failures.size ? [...failures.values()].reduce((a, b) => a + b) : 0} failed`);
  }
  const durationMs = performance.now() - started;
  await client.close();
  const statsAfter = await stats();
  const injected = Object.fromEntries(FAULTS.map((f) => [f, (statsAfter[f] ?? 0) - (statsBefore[f] ?? 0)]));
  return {
    calls, concurrency, sampleEvery, faultEvery, interleave, timeoutMs,
    succeeded: ok,
    failures: Object.fromEntries(failures),
    failedCalls,
    armed: armedCount,
    injected,
    renewals,
    reconnections,
    durationMs: Math.round(durationMs),
    samples,
  };
}
