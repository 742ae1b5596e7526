// Fault scenarios for the client, run against tests/peers/fault-proxy.mjs in
// front of a real server-everything. Shared by the Node runner (run.mjs) and
// the Chromium test (tests/browser_fault_proxy.rs), so it imports nothing: the
// caller passes `connect(url, options)`.
//
// Each scenario passes when the client either recovers (the call succeeds) or
// fails that one call with a typed error within its timeout; in both cases it
// must deliver nothing twice and stay usable (a ping afterwards succeeds).

const check = (ok, message) => { if (!ok) throw new Error(message); };
const textOf = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
const LONG = { name: "trigger-long-running-operation", arguments: { duration: 0.6, steps: 3 } };
const SUM = { name: "get-sum", arguments: { a: 2, b: 3 } };

/** Settles within `ms`, or fails the scenario as a hang. */
function bounded(promise, ms, what) {
  let timer;
  const hang = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} hung for ${ms} ms`)), ms); });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

async function expectFailure(promise, kind, status) {
  try {
    await bounded(promise, 10_000, "the failing call");
  } catch (e) {
    check(e?.name === "McpClientError" && e.kind === kind, `expected kind ${kind}, got ${e?.name} ${e?.kind}: ${e?.message}`);
    if (status !== undefined) check(e.status === status, `expected status ${status}, got ${e.status}`);
    return;
  }
  throw new Error(`expected a ${kind} error, the call succeeded`);
}

/** A long call whose progress must arrive exactly once per step. */
async function longCallOnce(client) {
  const steps = [];
  const result = await bounded(client.callTool(LONG, { onprogress: (p) => steps.push(p.progress) }), 10_000, "the call");
  check(textOf(result).includes("completed"), textOf(result));
  check(steps.join() === "1,2,3", `progress delivered as [${steps}], expected each step once`);
}

export const SCENARIOS = [
  { fault: "cut-sse", what: "the response stream drops mid-event: resume with GET + Last-Event-ID", run: longCallOnce },
  { fault: "duplicate", what: "every SSE event arrives twice: deliver each once", run: longCallOnce },
  {
    fault: "garbage", what: "invalid bytes, invalid JSON and a non-JSON-RPC message before the answer",
    async run(client) { check(/\b5\b/.test(textOf(await bounded(client.callTool(SUM), 10_000, "the call"))), "get-sum"); },
  },
  {
    fault: "delay", what: "a slow answer: succeed within the timeout, time out below it",
    async run(client) {
      check(/\b5\b/.test(textOf(await bounded(client.callTool(SUM, { timeout: 5_000 }), 10_000, "the call"))), "get-sum");
      await expectFailure(client.callTool(SUM, { timeout: 100 }), "timeout");
    },
  },
  ...[500, 502, 503].map((status) => ({
    fault: `http-${status}`, what: `HTTP ${status}: a typed error with the status`,
    run: (client) => expectFailure(client.callTool(SUM), "http", status),
  })),
  {
    fault: "close-early", what: "the connection drops before any response: a typed network error",
    run: (client) => expectFailure(client.callTool(SUM), "network"),
  },
  {
    fault: "expire-404", what: "the server answers 404 for the session: start a new one, replay the call once",
    async run(client) {
      const before = client.sessionId;
      const renewed = [];
      client.addEventListener("sessionrenewed", (e) => renewed.push(e.previousSessionId));
      check(/\b5\b/.test(textOf(await bounded(client.callTool(SUM), 10_000, "the call"))), "get-sum after renewal");
      check(renewed.length === 1 && renewed[0] === before && client.sessionId !== before, `renewals: ${renewed}`);
    },
  },
  {
    fault: "drop-get", what: "the standalone GET stream drops: reconnect, with reconnecting/reconnected events",
    async run(client) {
      const seen = [];
      const back = new Promise((resolve) => client.addEventListener("reconnected", () => resolve(), { once: true }));
      client.addEventListener("reconnecting", (e) => seen.push(e.attempt));
      await bounded(back, 8_000, "waiting for reconnected");
      check(seen.length > 0 && seen[0] === 1, `reconnecting attempts ${seen}`);
      check(/\b5\b/.test(textOf(await client.callTool(SUM))), "a call after the reconnection");
    },
  },
  {
    fault: "armed", injects: ["cut-sse", "forget-session"],
    what: "a call's stream drops, and the session is renewed while it waits to resume: the call settles at once, not at its timeout",
    async run(client, base) {
      const arm = (fault) => fetch(`${base}/__arm?fault=${fault}`, { method: "POST" });
      await arm("cut-sse");
      const started = Date.now();
      const cut = client.callTool(LONG).then(() => "ok", (e) => e);
      await new Promise((r) => setTimeout(r, 400));
      await arm("forget-session");
      check(/\b5\b/.test(textOf(await bounded(client.callTool(SUM), 5_000, "the call that renews the session"))), "get-sum after renewal");
      const outcome = await bounded(cut, 3_000, "the cut call");
      check(outcome === "ok" || (outcome?.name === "McpClientError" && outcome.kind === "network"), `the cut call: ${outcome?.kind} ${outcome?.message ?? outcome}`);
      check(Date.now() - started < 4_000, `the cut call settled after ${Date.now() - started} ms`);
    },
  },
];

/**
 * Runs every scenario against `base` (the proxy's origin); returns how many
 * faults were injected (scenarios the proxy reports a fault for) and survived.
 */
export async function runFaultSuite(connect, base, log = () => {}) {
  const stats = async () => (await fetch(`${base}/__stats`)).json();
  const results = [];
  for (const scenario of SCENARIOS) {
    const injects = scenario.injects ?? [scenario.fault];
    const count = (stats) => injects.reduce((sum, fault) => sum + (stats[fault] ?? 0), 0);
    const before = count(await stats());
    let detail = "";
    let survived = true;
    let client;
    try {
      client = await connect(`${base}/${scenario.fault}/mcp`, { timeout: 8_000 });
      await scenario.run(client, base);
      await bounded(client.ping(), 5_000, "the ping after the fault");
    } catch (e) {
      survived = false;
      detail = e?.message ?? String(e);
    } finally {
      await client?.close();
    }
    const injected = count(await stats()) - before;
    const result = { fault: scenario.fault, what: scenario.what, injected, survived: survived && injected > 0, detail };
    if (survived && injected === 0) result.detail = "the proxy injected nothing";
    results.push(result);
    log(result);
  }
  return {
    injected: results.filter((r) => r.injected > 0).length,
    survived: results.filter((r) => r.survived).length,
    total: results.length,
    results,
  };
}
