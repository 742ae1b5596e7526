// What a server can do to the client's timers and handlers: a `retry` past what
// a timer holds, and a flood of requests to the client's handlers.
import { McpClient, McpHost, runToolLoop } from "mcp-wasm";
import { describe, expectEcho, expectFailure, expectSuccess, settle } from "../expect.mjs";

const MAX_TIMER_MS = 2_147_483_647;
const TEN_MINUTES_MS = 600_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(ms, 0)));

export async function retryOverflow({ check, peer, track }) {
  const started = Date.now();
  const client = track(await McpClient.connect(peer.url("retry-overflow"), { timeout: 5_000 }));
  const delays = [];
  client.addEventListener("reconnecting", (event) => delays.push(event.delay));
  await sleep(1_500 - (Date.now() - started));
  const { gets, initialize } = await peer.stats("retry-overflow");
  check(gets >= 1 && gets <= 2, "a GET stream that asks for retry: 3000000000 and ends: at most one reconnection within 1.5 s", `${gets} GETs`);
  check(delays.length === 1 && delays[0] >= TEN_MINUTES_MS && delays[0] <= MAX_TIMER_MS,
    "the client waits the 10-minute cap, a delay a timer can hold", `reconnecting delays: ${delays}`);

  await expectFailure(check, "McpClient.connect with timeout 3e9", McpClient.connect(peer.url("retry-overflow"), { timeout: 3e9 }), "invalid-argument");
  check((await peer.stats("retry-overflow")).initialize === initialize, "a connect with timeout 3e9 is refused before anything is sent");
  await expectFailure(check, "a call with timeout 3e9", client.callTool({ name: "echo" }, { timeout: 3e9 }), "invalid-argument");
  await expectEcho(check, client);
}

/**
 * A request answered on the GET stream while its own stream ends without the answer: the client
 * must not resume that stream, which the server keeps bringing back with one event each time.
 */
export async function answeredElsewhere({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("answered-elsewhere"), { timeout: 5_000 }));
  for (let waited = 0; (await peer.stats("answered-elsewhere")).gets < 1 && waited < 2_000; waited += 50) await sleep(50);
  const result = await expectSuccess(check, "a call answered on the GET stream", client.callTool({ name: "elsewhere" }));
  check(result?.content?.[0]?.text === "answered on the GET stream", "… resolves with that answer", JSON.stringify(result));
  await sleep(1_500);
  const { resumes } = await peer.stats("answered-elsewhere");
  check((resumes ?? 0) === 0, "its own broken stream is not resumed: nobody waits for what it would bring", `${resumes} resuming GETs in 1.5 s`);
  await expectEcho(check, client);
}

/**
 * Request streams that a server leaves open and silent: once the client no longer waits for the
 * request (timed out, or answered on the GET stream), it hangs up, so that such streams cannot
 * take up the connections a browser allows one origin (six over HTTP/1.1).
 */
export async function heldStreams({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("held-streams"), { timeout: 5_000 }));
  const closedWithin = async (index, ms) => {
    for (let waited = 0; waited < ms; waited += 25) {
      if ((await peer.stats("held-streams")).streams?.[index]?.closed) return true;
      await sleep(25);
    }
    return false;
  };
  await expectFailure(check, "a call whose stream stays silent, with timeout 300 ms",
    client.callTool({ name: "silent" }, { timeout: 300 }), "timeout");
  check(await closedWithin(0, 1_000), "… its stream is closed once the call timed out");
  const answered = await expectSuccess(check, "a call answered on the GET stream", client.callTool({ name: "elsewhere-open" }));
  check(answered?.content?.[0]?.text === "answered on the GET stream", "… resolves with that answer", JSON.stringify(answered));
  check(await closedWithin(1, 1_000), "… its own open stream is closed once it is answered");
  for (let i = 0; i < 7; i++) {
    await expectFailure(check, `silent call ${i + 2} of 8, with timeout 200 ms`, client.callTool({ name: "silent" }, { timeout: 200 }), "timeout");
  }
  await expectEcho(check, client, "a call after eight silent streams");

  const held = settle(client.callTool({ name: "held-post" }), 3_000);
  for (let waited = 0; !(await peer.stats("held-streams")).heldPosts && waited < 1_000; waited += 25) await sleep(25);
  await client.close();
  const { error, hung } = await held;
  check(!hung && error?.name === "McpClientError" && error.kind === "closed", "close() fails a call whose POST is held with closed",
    hung ? "it hung" : describe(error));
}

/**
 * A model's step of two calls, one that never answers and one whose result the client refuses:
 * runToolLoop rejects at the refusal, and the step's other call is hung up on, not left to its
 * timeout with nobody waiting for it.
 */
export async function toolLoopFailedStep({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("held-streams"), { timeout: 30_000 }));
  const call = (id, name) => ({ id, type: "function", function: { name, arguments: "{}" } });
  const ask = async () => ({ choices: [{ message: { role: "assistant", content: null, tool_calls: [call("a", "silent"), call("b", "broken")] } }] });
  const outcome = await settle(runToolLoop({ client, provider: "openai-chat", ask }));
  check(!outcome.hung && outcome.error?.kind === "protocol", "a step one of whose calls is refused rejects the loop at once",
    outcome.hung ? "still pending" : describe(outcome.error ?? "it resolved"));
  let stats = await peer.stats("held-streams");
  for (let waited = 0; !stats.streams?.[0]?.closed && waited < 1_000; waited += 25) {
    await sleep(25);
    stats = await peer.stats("held-streams");
  }
  check(stats.streams?.[0]?.closed === true, "… and the step's silent call is hung up on", JSON.stringify(stats.streams));
}

/**
 * A server that never answers the POST of notifications/initialized: connect() fails at its timeout
 * or when its signal aborts, and a request that meets a renewal held so fails at its own timeout.
 */
export async function initializedHeld({ check, peer, track }) {
  await expectFailure(check, "connect() when the initialized notification is held, with timeout 800 ms",
    McpClient.connect(peer.url("initialized-held"), { timeout: 800 }).then(track), "timeout");
  const aborted = await settle(McpClient.connect(peer.url("initialized-held"), { timeout: 30_000, signal: AbortSignal.timeout(500) }).then(track));
  check(!aborted.hung && aborted.error !== undefined, "connect() with a signal aborting after 500 ms fails when it aborts", describe(aborted.error));
  const held = (await peer.stats("initialized-held")).initializedHeld;
  check(held === 2, "both held the initialized notification", String(held));

  const client = track(await McpClient.connect(peer.url("renewal-held"), { timeout: 30_000 }));
  await expectSuccess(check, "a call that ends every session", client.callTool({ name: "expire" }));
  await expectFailure(check, "the next call, whose renewal's initialized notification is held, with timeout 800 ms",
    client.callTool({ name: "echo", arguments: { message: "x" } }, { timeout: 800 }), "timeout");
}

/**
 * A server that reads the client's answers but never answers their POSTs: the client hangs up on
 * each after its default timeout, rather than hold a connection per answer until it closes.
 */
export async function repliesHeld({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("replies-held"), { timeout: 1_000 }));
  const pinged = await expectSuccess(check, "a call that sends four pings and holds the POSTs of their answers",
    client.callTool({ name: "pings", arguments: { count: 4 } }, { timeout: 10_000 }));
  check(pinged?.content?.[0]?.text === "4 answered", "… whose four answers arrived", JSON.stringify(pinged));
  const stats = await peer.statsWhen("replies-held", (s) => s.repliesLetGo >= 4, 3_000);
  check(stats.repliesHeld === 4 && stats.repliesLetGo === 4, "the client hung up on the four held POSTs of its answers, without closing",
    JSON.stringify(stats));
  await expectEcho(check, client);
}

/**
 * A server that never opens the GET stream (no headers): the client hangs up on it after its
 * default timeout and tries again, rather than hold that connection for as long as it is open.
 */
export async function listenHeld({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("listen-held"), { timeout: 500 }));
  await expectEcho(check, client, "a call while the GET stream is held");
  const stats = await peer.statsWhen("listen-held", (s) => s.getsLetGo >= 1 && s.gets >= 2, 4_000);
  check(stats.getsLetGo >= 1 && stats.gets >= 2, "the client hung up on the held GET and opened another", JSON.stringify(stats));
}

/**
 * Events whose ids the client cannot resume from (empty, or past the 1 KiB it keeps) are still
 * events: none is taken for a repeat of another, so the log and the result after a priming event
 * with such an id arrive.
 */
export async function eventIds({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("event-ids"), { timeout: 3_000 }));
  const logs = [];
  client.addEventListener("notifications/message", (event) => logs.push(event.params?.data));
  for (const name of ["empty", "long"]) {
    const result = await expectSuccess(check, `a call whose stream's events all have ${name} ids`, client.callTool({ name }));
    check(result?.content?.[0]?.text === `answered with ${name} ids`, "… resolves with its result", JSON.stringify(result));
    check(logs.includes(name), "… and its log arrives", JSON.stringify(logs));
  }
  await expectEcho(check, client);
}

/**
 * Node only: a process whose one client waits out the server's retry, then
 * closes it, must be free to exit; a reconnection timer left behind would hold
 * it for as long as the server asked.
 */
export async function closedClientHoldsNoTimer({ check, peer }) {
  const [{ spawn }, { fileURLToPath }] = await Promise.all([import("node:child_process"), import("node:url")]);
  const script = fileURLToPath(new URL("../close-during-retry.mjs", import.meta.url));
  const child = spawn(process.execPath, [script, peer.url("retry-overflow")], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    const closed = await new Promise((resolve) => {
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
        if (out.includes("\n")) resolve(out.trim());
      });
      exited.then(() => resolve(out.trim()));
    });
    check(/^closed \d+$/.test(closed), "a Node process sees the reconnection scheduled and closes its client", closed);
    const exit = await Promise.race([exited, sleep(2_000).then(() => "still running")]);
    check(exit === 0, "after close() the process exits within 2 s: no reconnection timer is left", `${exit} 2 s after close()`);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}

/** 100 sampling requests at once during one tool call, against a handler that takes 100 ms. */
async function flood({ check, peer, track }, limits) {
  const cap = limits?.maxServerRequests ?? 16;
  let active = 0;
  let most = 0;
  let handled = 0;
  const sampling = async () => {
    handled += 1;
    most = Math.max(most, ++active);
    await sleep(100);
    active -= 1;
    return { role: "assistant", model: "scripted", content: { type: "text", text: "ok" } };
  };
  const client = track(await McpClient.connect(peer.url("flood"), { timeout: 5_000, handlers: { sampling }, ...(limits && { limits }) }));
  const problems = [];
  client.addEventListener("error", (event) => problems.push(event.error));
  const label = limits ? `maxServerRequests ${cap}` : `the default maxServerRequests ${cap}`;
  await expectSuccess(check, `100 sampling requests at once during a tool call (${label})`, client.callTool({ name: "flood", arguments: { count: 100 } }));
  check(most > 0 && most <= cap, `at most ${cap} requests are in the handler at once`, `${most} were`);
  const { flood: seen } = await peer.stats("flood");
  check(seen.results === handled && seen.unanswered === 0 && seen.errors.length === 100 - handled,
    "every request the handler did not take is answered with a JSON-RPC error", JSON.stringify({ ...seen, errors: seen.errors.length, handled }));
  const limitEvents = problems.filter((e) => e?.name === "McpClientError" && e.kind === "limit-exceeded").length;
  check(limitEvents === seen.errors.length, "each refusal dispatches an error event of kind limit-exceeded", `${limitEvents} events for ${seen.errors.length} refusals`);
  await expectEcho(check, client);
}

export const floodDefault = (ctx) => flood(ctx);

/**
 * Sampling requests the server withdraws at once, more of them than maxServerRequests: a handler
 * that heeds its signal settles, and its place is free again; the next request is handled.
 */
export async function withdrawnRequests({ check, peer, track }) {
  let aborted = 0;
  const sampling = (_params, { signal }) => new Promise((resolve, reject) => {
    signal.addEventListener("abort", () => {
      aborted += 1;
      reject(signal.reason);
    });
    setTimeout(() => resolve({ role: "assistant", model: "scripted", content: { type: "text", text: "ok" } }), 200);
  });
  const client = track(await McpClient.connect(peer.url("flood"), { timeout: 5_000, handlers: { sampling } }));
  const result = await expectSuccess(check, "40 sampling requests withdrawn at once, then one more", client.callTool({ name: "withdraw", arguments: { count: 40 } }));
  check(aborted === 40, "each withdrawn request's handler heard its signal", String(aborted));
  const { withdraw } = await peer.stats("flood");
  check(withdraw?.result === "scripted", "the request after them is handled, not refused for want of room", JSON.stringify(withdraw ?? result));
  await expectEcho(check, client);
}
export const floodOfFour = (ctx) => flood(ctx, { maxServerRequests: 4 });

/**
 * A task that stays `working` and asks to be polled every 4e9 ms: the client waits at most a minute
 * between polls, and neither an abort nor close() waits for that sleep to end.
 */
export async function taskForever({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("task-forever"), { timeout: 5_000 }));
  // Starts the task `name`, aborts it 300 ms later, while it sleeps, and checks that it rejects with the reason at once.
  const abortAsleep = async (name, reason, what) => {
    const controller = new AbortController();
    const call = client.callToolAsTask({ name }, { signal: controller.signal });
    await sleep(300);
    controller.abort(reason);
    const outcome = await settle(call);
    check(!outcome.hung && outcome.error === reason, `${what}: rejects with the reason within 2 s`, outcome.hung ? "still pending" : describe(outcome.error));
  };
  await abortAsleep("forever", "enough", "a task call aborted while it sleeps out the server's pollInterval");
  // tasks/cancel is sent as the call rejects, not waited for: give it a moment to arrive.
  const stats = async () => (await peer.stats("task-forever")).tasks;
  let tasks = await stats();
  for (let i = 0; i < 20 && tasks.cancels === 0; i++) tasks = (await sleep(25), await stats());
  check(tasks.created === 1 && tasks.gets === 0 && tasks.cancels === 1, "the client sends tasks/cancel, and polled not once in 300 ms", JSON.stringify(tasks));
  await expectEcho(check, client);

  // A server that never answers tasks/cancel does not hold the abort for the request's timeout (5 s).
  await abortAsleep("forever-mute", "enough again", "an abort whose tasks/cancel the server never answers");
  await expectEcho(check, client, "the next call after the unanswered tasks/cancel");

  // maxTotalTimeout caps the whole call, the minute the server asks it to wait included.
  const cancelsBefore = (await stats()).cancels;
  const capped = await settle(client.callToolAsTask({ name: "forever" }, { maxTotalTimeout: 400 }));
  check(!capped.hung && capped.error?.kind === "timeout", "a task call with maxTotalTimeout 400 ms rejects with timeout within 2 s",
    capped.hung ? "still pending" : describe(capped.error));
  tasks = await stats();
  for (let i = 0; i < 20 && tasks.cancels === cancelsBefore; i++) tasks = (await sleep(25), await stats());
  check(tasks.cancels === cancelsBefore + 1 && tasks.gets === 0, "… sends tasks/cancel, and polled not once", JSON.stringify(tasks));

  // It fails as closing begins, before close() resolves, as any call in flight does: its outcome is
  // awaited from before the close, so that the rejection is handled.
  const sleeping = client.callToolAsTask({ name: "forever" });
  await sleep(300);
  const asleep = expectFailure(check, "a task call asleep when the client closes", sleeping, "closed");
  await client.close();
  await asleep;
}

/**
 * A server request sent twice under one id while the handler is still on the first: the first is
 * answered by the handler, the copy is refused at once, and neither withdraws the other.
 */
export async function duplicateId({ check, peer, track }) {
  let handled = 0;
  const sampling = async () => {
    handled += 1;
    await sleep(100);
    return { role: "assistant", model: "scripted", content: { type: "text", text: "ok" } };
  };
  const client = track(await McpClient.connect(peer.url("duplicate-id"), { timeout: 5_000, handlers: { sampling } }));
  const problems = [];
  client.addEventListener("error", (event) => problems.push(event.error));
  await expectSuccess(check, "a sampling request sent twice under one id during a tool call", client.callTool({ name: "twice" }));
  check(handled === 1, "the handler is asked once", `${handled} times`);
  const { duplicate } = await peer.stats("duplicate-id");
  check(JSON.stringify(duplicate) === JSON.stringify([{ error: -32600 }, { result: "scripted" }]),
    "the copy is refused with -32600 at once, and the first gets the handler's answer", JSON.stringify(duplicate));
  check(problems.some((e) => e?.name === "McpClientError" && e.kind === "protocol" && /already in use/.test(e.message)),
    "an error event of kind protocol says the id is in use", problems.map((e) => `${e?.kind}: ${e?.message}`).join("; ") || "no error event");
  await expectEcho(check, client);
}

/**
 * A server whose tools/list takes 1.5 s announces three changes 500 ms apart: each re-listing
 * stops the one it supersedes, so the host walks the list once at a time.
 */
export async function supersededListings({ check, peer, track }) {
  const host = track(await McpHost.connect({ slow: { url: peer.url("slow-list") } }, { debounceMs: 100 }));
  const problems = [];
  const changes = [];
  host.addEventListener("error", (event) => problems.push(event.error));
  host.addEventListener("change", (event) => changes.push(event.reason));
  const before = await peer.stats("slow-list");
  check(before.lists === 1 && host.tools.some((t) => t.name === "slow__announce"), "the host listed the tools once to connect", JSON.stringify(before));
  await expectSuccess(check, "a call during which the server announces three changes, 500 ms apart",
    host.callTool("slow__announce", { count: 3, gapMs: 500 }));
  const ready = await settle(host.ready(), 4_000);
  check(!ready.hung && !ready.error, "ready() settles once the last re-listing is done", describe(ready.error ?? "still pending"));
  const { lists, listsAbandoned } = await peer.stats("slow-list");
  check(lists === 4 && listsAbandoned === 2, "each re-listing stopped the one it superseded: 3 more listings, 2 of them abandoned",
    JSON.stringify({ lists, listsAbandoned }));
  check(problems.length === 0, "a superseded listing is no error event", problems.map(describe).join("; "));
  check(JSON.stringify(changes) === JSON.stringify(["list_changed"]), "… and no change event: only the last listing's", JSON.stringify(changes));
  check(host.tools.some((t) => t.name === "slow__echo"), "the registry holds the last listing's tools");
}
