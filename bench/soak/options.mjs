// The soak's knobs, from the environment, shared by the orchestrator and the
// Node runner so that both runtimes run the same load.
//   SOAK_CALLS        calls per runtime (100,000)
//   SOAK_CONCURRENCY  calls in flight (8)
//   SOAK_FAULT_EVERY  one fault every this many calls (40: 13 in each half of the
//                     1,000 calls between two samples, so 1,300 cuts and 1,300
//                     renewals per 100,000 calls)
//   SOAK_INTERLEAVE=1 mix cuts and renewals call by call instead of by half-block
//                     (see bench/soak/drive.mjs: it shows a client bug)
//   SOAK_SAMPLES      memory samples after the first (100, fewer when a half of the
//                     calls between two samples would be too short to hold a fault)
//   SOAK_TIMEOUT_MS   each call's timeout (15,000: a resumed stream waits about a second)
//   SOAK_RUNTIMES     which runtimes, in order (node,chromium)
export function soakOptions(env) {
  const number = (name, fallback) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${env[name]}`);
    return value;
  };
  const calls = number("SOAK_CALLS", 100_000);
  const samples = Math.max(1, number("SOAK_SAMPLES", 100));
  const faultEvery = number("SOAK_FAULT_EVERY", 40);
  return {
    calls,
    concurrency: Math.max(1, number("SOAK_CONCURRENCY", 8)),
    faultEvery,
    sampleEvery: Math.max(1, Math.ceil(calls / samples), 2 * faultEvery),
    interleave: env.SOAK_INTERLEAVE === "1",
    timeoutMs: number("SOAK_TIMEOUT_MS", 15_000),
    runtimes: (env.SOAK_RUNTIMES ?? "node,chromium").split(",").map((r) => r.trim()).filter(Boolean),
  };
}
