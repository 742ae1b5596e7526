// What a page does before and during its first tool call, run by scripts/split/profile.mjs
// in Node and in Chromium against real servers: every function these runs enter goes
// into the primary half of the core; the rest loads when a page first needs it. Each
// step checks its outcome, so that a server that misbehaves fails the build instead of
// leaving a primary too small to make a first call without the rest.
//
// Besides connecting (each era and transport, with the options a first call may pass)
// and calling a tool (with small and larger results, many at once, bodies cut anywhere and
// JSON written as other servers write it, answers as event streams or JSON bodies), this covers what can happen during
// that call (a tool's error, a JSON-RPC error, an abort, a timeout, a network error, an
// HTTP error, a server's notification), and the synchronous API a page uses around it:
// the getters, event listeners, `snapshot()`, `notifications()`, an iterator's making,
// `close()` and `free()`, and a client the page lets go of. Not progress: a call with
// `onprogress` waits for the rest (pkg-template/rest-gate.js). Not `UriTemplate`, which a
// page needs once it has listed templates: before the rest has loaded, it loads it
// synchronously.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function check(condition, what) {
  if (!condition) throw new Error(`split profile: ${what}`);
}

async function rejects(promise, what) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error(`split profile: ${what} did not fail`);
}

/**
 * Connects, calls tools the ways a first call may, and closes; `slow` names a tool that takes
 * a while, and `notify()` the arguments of a call after which the server sends a notification.
 */
async function firstCall({ McpClient, McpError }, url, options, { echo, slow, notify }) {
  const client = await McpClient.connect(url, options);
  check(typeof client.era === "string" && typeof client.transport === "string", "getters");
  void client.serverInfo, client.serverCapabilities, client.protocolVersion, client.sessionId, client.instructions;
  const seen = [];
  const listener = (event) => seen.push(event.type);
  for (const type of ["notification", "error", "close", "reconnecting", "reconnected", "sessionrenewed", "notifications/progress"]) {
    client.addEventListener(type, listener);
  }
  client.removeEventListener("reconnecting", listener);

  const result = await client.callTool({ name: echo.name, arguments: echo.arguments });
  check(Array.isArray(result.content), `${echo.name} answered`);
  const withOptions = await client.callTool({ name: echo.name, arguments: echo.arguments }, { timeout: 20_000, signal: new AbortController().signal });
  check(Array.isArray(withOptions.content), `${echo.name} answered a call with options`);
  // A page may make its first calls all at once: the client's tables of pending requests grow.
  const many = await Promise.all(Array.from({ length: 24 }, () => client.callTool({ name: echo.name, arguments: echo.arguments })));
  check(many.every((r) => Array.isArray(r.content)), `${echo.name} answered 24 calls at once`);
  // A larger result: in several chunks, past the 8 KiB of the ASCII fast path. Not one long
  // enough to stay in JS (256 KiB): the body of one waits for the rest before it reaches the core
  // (`restGate` in src/glue.js), which tests/node/split-large.test.mjs holds.
  for (const size of [20_000]) {
    const large = await client.callTool({ name: echo.name, arguments: { ...echo.arguments, message: "x".repeat(size) } });
    check(large.content?.[0]?.text?.length >= size, `${echo.name} answered ${size} characters`);
  }

  // Servers answer these with a JSON-RPC error or with a result that is an error.
  for (const [params, what] of [[{ name: "no-such-tool", arguments: {} }, "an unknown tool"], [{ name: echo.name, arguments: { unexpected: 1 } }, "wrong arguments"]]) {
    const outcome = await client.callTool(params).catch((error) => error);
    check(outcome instanceof McpError || outcome?.isError === true, `${what}: an error`);
  }

  const controller = new AbortController();
  const aborted = client.callTool({ name: slow.name, arguments: slow.arguments }, { signal: controller.signal });
  await sleep(20);
  controller.abort(new Error("profile abort"));
  await rejects(aborted, "an aborted call");
  await rejects(client.callTool({ name: slow.name, arguments: slow.arguments }, { timeout: 30 }), "a call past its timeout");

  // An iterator is made at once, its options read; its first page waits for the rest.
  const pages = client.iterateTools({ timeout: 20_000 });
  await pages.return?.();

  const snapshot = client.snapshot();
  check(typeof snapshot === "object" && snapshot !== null, "snapshot");
  // A page that loops over notifications from the start waits in next() during its first call,
  // and a server may notify during that call (a log message, a list change).
  const iterator = client.notifications({ method: "notifications/message" });
  const waiting = iterator.next();
  await iterator.return?.();
  check((await waiting).done === true, "notifications(): return() ends a pending next()");
  const notifications = client.notifications();
  const next = notifications.next();
  const notifying = notify();
  check(Array.isArray((await client.callTool(notifying)).content), `${notifying.name} answered`);
  const delivered = await Promise.race([next, sleep(5_000).then(() => ({ timedOut: true }))]);
  check(delivered.done === false && typeof delivered.value?.method === "string", `the notification after ${notifying.name} reached notifications()`);
  await notifications.return?.();

  await client.close();
  await client.close();
  await rejects(client.callTool({ name: echo.name, arguments: echo.arguments }), "a call after close");
  client.free();
  return seen;
}

// A JSON text as another server may write it: a space after each `,` and `:` (as Python's
// json module does), and every character past ASCII as a \u escape.
function spaced(value) {
  if (Array.isArray(value)) return `[${value.map(spaced).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([key, item]) => `${spaced(key)}: ${spaced(item)}`).join(", ")}}`;
  }
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// The last is larger than the 64 KiB windows transport::fetch::in_windows cuts a chunk into:
// a browser hands over such a chunk when the network is faster than the page, and a build
// whose profile never had one outlined the cutting, which a long first result in Chromium then
// loaded synchronously (the pack tier, one run in four or five).
const PIECES = [1, 3, 17, 97, 1024, 16_384, 150_000];

/**
 * A `fetch` that hands the client every JSON and event-stream body re-cut into pieces of 1
 * byte to 146 KiB, its JSON written as `spaced` writes it: the network cuts a body where it
 * will, and servers format their JSON their own way, so that the code these take (a chunk
 * that ends inside a field or a line, spaces between tokens, escapes, a chunk of several
 * windows) is in the profile rather than met by a page's first call.
 */
function reshapingFetch(fetch) {
  const encoder = new TextEncoder();
  const reshapeLine = (line) => {
    const data = /^data: ?(.*)$/s.exec(line);
    if (!data) return line;
    try {
      return `data: ${spaced(JSON.parse(data[1]))}`;
    } catch {
      return line;
    }
  };
  return async (input, init) => {
    const response = await fetch(input, init);
    const type = response.headers.get("content-type") ?? "";
    const stream = type.includes("text/event-stream");
    if (!response.body || !(stream || type.includes("json"))) return response;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let piece = 0;
    let pending = "";
    const body = new ReadableStream({
      // A pull that enqueues nothing is not called again: it reads until it has text.
      async pull(controller) {
        let text = "";
        let done = false;
        while (!text && !done) {
          const read = await reader.read();
          done = read.done;
          pending += read.value ?? "";
          if (stream) {
            const end = done ? pending.length : pending.lastIndexOf("\n") + 1;
            text = pending.slice(0, end).split("\n").map(reshapeLine).join("\n");
            pending = pending.slice(end);
          } else if (done) {
            text = pending.trim() ? spaced(JSON.parse(pending)) : pending;
          }
        }
        const bytes = encoder.encode(text);
        for (let at = 0; at < bytes.length; piece++) {
          const size = PIECES[piece % PIECES.length];
          controller.enqueue(bytes.subarray(at, at + size));
          at += size;
        }
        if (done) controller.close();
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * A `fetch` that hands the client each POST's event-stream answer as one JSON body (its response's
 * event), as a server with JSON responses writes it: server-everything answers with streams only.
 */
export function jsonAnswersFetch(fetch) {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method !== "POST" || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
    const events = (await response.text()).split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim());
    const answer = events.findLast((data) => /"(result|error)"\s*:/.test(data)) ?? events.at(-1) ?? "";
    const headers = new Headers(response.headers);
    headers.set("content-type", "application/json");
    headers.delete("content-length");
    return new Response(answer, { status: response.status, statusText: response.statusText, headers });
  };
}

/** A first call to a server that answers with JSON bodies in the legacy era: connect, small and larger results, close. */
async function jsonAnswered({ McpClient }, url, { echo }) {
  const client = await McpClient.connect(url, { era: "legacy", fetch: jsonAnswersFetch((u, init) => fetch(u, init)) });
  for (const size of [0, 20_000]) {
    const result = await client.callTool({ name: echo.name, arguments: { ...echo.arguments, ...(size && { message: "x".repeat(size) }) } });
    check(Array.isArray(result.content), `${echo.name} answered with a JSON body`);
  }
  await client.close();
}

/**
 * A page that lets go of a client, closed or not: the garbage collector's finalizer frees
 * it as `free()` does, once what the connection had in flight has settled. The client
 * then holds the last reference to its connection, so its drop runs the code that tears
 * the connection down (for an open one, ends its streams), which `free()` right after
 * `close()` leaves to the tasks still running.
 */
async function letGo({ McpClient }, url, { echo }) {
  for (const close of [true, false]) {
    const client = await McpClient.connect(url);
    check(Array.isArray((await client.callTool({ name: echo.name, arguments: echo.arguments })).content), `${echo.name} answered`);
    if (close) await client.close();
    await sleep(150);
    client.free();
    await sleep(50);
  }
}

/** Every scenario, against `servers`: `{ everything, everythingSse, modern, dual, closedPort }` URLs. */
export async function runScenarios(mcp, servers) {
  const everythingTools = {
    echo: { name: "echo", arguments: { message: "hi" } },
    slow: { name: "trigger-long-running-operation", arguments: { duration: 5, steps: 5 } },
    // Logs at once, then every 5 s until the session ends.
    notify: () => ({ name: "toggle-simulated-logging", arguments: {} }),
  };
  const modernTools = {
    echo: { name: "echo", arguments: { message: "hi" } },
    slow: { name: "slow", arguments: { steps: 50 } },
    // Registers a tool and announces it (notifications/tools/list_changed); one name per call,
    // as the servers keep what is added, and Node's run and Chromium's share them.
    notify: () => ({ name: "add-tool", arguments: { name: `split-${Math.random().toString(36).slice(2, 12)}` } }),
  };
  const statelessTools = { ...modernTools, notify: () => ({ name: "slow", arguments: { steps: 2 } }) };
  const options = {
    clientInfo: { name: "split-profile", version: "1.0.0" },
    // With credentials, a request follows redirects by hand (src/transport/fetch.rs).
    headers: async () => ({ "x-profile": "1", authorization: "Bearer split-profile" }),
    timeout: 20_000,
    capabilities: {},
  };
  // The rest of the options rest-gate.js lets connect pass without the rest.
  const more = {
    fetch: (url, init) => fetch(url, init),
    signal: new AbortController().signal,
    strictCapabilities: false,
    validateToolOutput: false,
    maxInputRounds: 4,
  };
  const runs = [
    [servers.everything, {}, everythingTools],
    [new URL(servers.everything), {}, everythingTools],
    [servers.everything, { era: "legacy", transport: "streamable-http", ...options }, everythingTools],
    [servers.everything, { protocolVersion: "2025-06-18", ...more }, everythingTools],
    [servers.modern, { protocolVersion: "2026-07-28", ...more }, modernTools],
    [servers.everythingSse, {}, everythingTools],
    [servers.everythingSse, { transport: "sse", sseReader: "fetch", ...options }, everythingTools],
    [servers.modern, {}, modernTools],
    [servers.modern, { era: "modern", ...options }, modernTools],
    [servers.dual, {}, modernTools],
    // Legacy traffic to the dual server is stateless: nothing reaches a client outside a call's own
    // response, so the notification comes from a call that logs as it goes.
    [servers.dual, { era: "legacy", headers: { "x-profile": "1", authorization: "Bearer split-profile" } }, statelessTools],
  ];
  // Bodies cut anywhere and JSON written otherwise, with text past ASCII to escape.
  const reshaped = { fetch: reshapingFetch((url, init) => fetch(url, init)) };
  const unicode = (tools) => ({ ...tools, echo: { ...tools.echo, arguments: { ...tools.echo.arguments, message: "naïve ✓ 😀 \u0001" } } });
  runs.push(
    [servers.everything, { era: "legacy", ...reshaped }, unicode(everythingTools)],
    [servers.everythingSse, { transport: "sse", sseReader: "fetch", ...reshaped }, unicode(everythingTools)],
    [servers.modern, { era: "modern", ...reshaped }, unicode(modernTools)],
    [servers.dual, reshaped, unicode(modernTools)],
  );
  for (const [url, opts, tools] of runs) await firstCall(mcp, url, opts, tools);
  await jsonAnswered(mcp, servers.everything, everythingTools);
  for (const [url, tools] of [[servers.everything, everythingTools], [servers.everythingSse, everythingTools], [servers.modern, modernTools], [servers.dual, modernTools]]) {
    await letGo(mcp, url, tools);
  }
  // Closed as soon as it is connected, while the listen stream may still be opening: close()
  // aborts that request, and the stream's task reads the abort.
  for (const url of [servers.everything, servers.everythingSse, servers.modern, servers.dual]) {
    const client = await mcp.McpClient.connect(url);
    await client.close();
    await sleep(50);
  }

  const { McpClient, McpClientError } = mcp;
  const refused = await rejects(McpClient.connect(servers.closedPort, { timeout: 5_000 }), "a closed port");
  check(refused instanceof McpClientError, "a closed port: McpClientError");
  const missing = await rejects(McpClient.connect(new URL("/no-such-endpoint", servers.everything).href, { timeout: 5_000 }), "a missing endpoint");
  check(missing instanceof McpClientError, "a missing endpoint: McpClientError");
}

/**
 * What a page runs while the rest of the core cannot load or has not yet: a long result (256 KiB
 * and more, which the glue gates on the rest: `restGate` in src/glue.js) as a JSON body whose
 * gate fails, then a short call on the same client; and long results as event streams, in each
 * era and transport, up to the gate. scripts/split/profile.mjs runs these in Node with the gate
 * set by `setGate`, and marks the regions they reach while `guarding(true)` as ones outline.mjs
 * must leave in their functions; the functions they enter stay in the first call's half.
 */
export async function runGuarded({ McpClient }, servers, setGate, guarding) {
  const LONG = 300_000;
  const echo = (message) => ({ name: "echo", arguments: { message } });
  setGate(() => Promise.resolve(new Error("the rest of the core module could not be loaded: offline")));
  const client = await McpClient.connect(servers.everything, { fetch: jsonAnswersFetch((u, init) => fetch(u, init)) });
  await rejects(client.callTool(echo("x".repeat(LONG))), "a long JSON body while the rest cannot load");
  check(Array.isArray((await client.callTool(echo("still here"))).content), "a short call after a long body failed");
  await client.close();
  // Past the gate the rest is in: what runs then may be anywhere. The network cuts a stream
  // where it will: once more with the pieces of reshapingFetch.
  const streams = [servers.everything, servers.everythingSse, servers.modern].map((url) => [url, {}]);
  streams.push([servers.everything, { fetch: reshapingFetch((u, init) => fetch(u, init)) }]);
  for (const [url, options] of streams) {
    setGate(() => {
      guarding(false);
      return undefined;
    });
    const streamed = await McpClient.connect(url, options);
    const long = await streamed.callTool(echo("s".repeat(LONG)));
    check(long.content?.[0]?.text?.length >= LONG, `a long result from ${url}`);
    await streamed.close();
    guarding(true);
  }
}
