// 2026-07-28 scenarios against tests/peers/modern-server.mjs (on @modelcontextprotocol/server 2.x),
// shared by the Node tier (tests/node/modern-peer.test.mjs) and headless Chromium
// (tests/modern-peer/run-chromium.mjs). Each runner starts its own peers on ports the OS picks and
// passes their URLs:
//   modern             the modern-only server's /mcp
//   loggingUndeclared  the same server at /logging-undeclared/mcp, which does not declare logging
//   versionFault       tests/peers/fault-proxy.mjs's unsupported-version fault in front of /mcp
//   listenDrop         the proxy's drop-listen fault: the first subscriptions/listen stream to each
//                      URL is cut (a scenario adds a query string of its own)
//   narrowAck          the proxy's narrow-ack fault: each listen acknowledgement grants no resource
//                      subscription
//   narrowReconnect    the proxy's narrow-reconnect fault: the first listen stream to each URL that
//                      asks for a resource is cut, and every later one's acknowledgement grants none
// Each scenario takes the package's exports and the URLs, and returns the checks it made.

function checker() {
  const done = [];
  const check = (ok, what, detail = "") => {
    if (!ok) throw new Error(`${what}${detail ? `: ${detail}` : ""}`);
    done.push(what);
  };
  return { check, done };
}

const textOf = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("");
const utf8Length = (text) => new TextEncoder().encode(text).length;

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * A `fetch` that keeps each JSON-RPC request the client sent (method, params, headers) with the
 * HTTP status it got, and the body of refusals (4xx), to see what the server itself answered.
 */
function recordingFetch() {
  const sent = [];
  const record = async (input, init) => {
    const request = new Request(input, init);
    const text = request.method === "POST" ? await request.clone().text() : "";
    let message = {};
    try { message = JSON.parse(text); } catch { /* not JSON-RPC */ }
    const entry = { method: message.method, params: message.params, headers: Object.fromEntries(request.headers) };
    sent.push(entry);
    const response = await fetch(request);
    entry.status = response.status;
    if (response.status >= 400) entry.refusal = await response.clone().json().catch(() => null);
    return response;
  };
  return { fetch: record, sent };
}

const skillByName = (skills, name) => skills.find((s) => s.frontmatter.name === name);

/** The JSON-RPC message of a response body: JSON, or the last `data:` of an SSE stream. */
function messageOf(body) {
  if (body.trimStart().startsWith("{")) return JSON.parse(body);
  const data = body.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim());
  return JSON.parse(data.at(-1));
}

export const SCENARIOS = {
  async "a large result is the server's JSON less resultType, key order included"({ McpClient }, { modern }) {
    const { check, done } = checker();
    const bodies = [];
    const keep = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.body?.includes?.('"tools/call"')) bodies.push(await response.clone().text());
      return response;
    };
    const client = await McpClient.connect(modern, { timeout: 30_000, fetch: keep });
    try {
      // About 1.5 MiB, with what JSON escapes and what UTF-8 spends more than a byte on.
      const message = Array.from({ length: 60_000 }, (_, i) => `line ${i} "é\\u" \t ✓\n`).join("");
      const result = await client.callTool({ name: "echo", arguments: { message } });
      check(result.content[0].text === `Echo: ${message}`, "the text arrives whole", `${result.content[0].text.length} characters`);
      const sent = messageOf(bodies.at(-1)).result;
      check(sent.resultType === "complete", "the server said resultType: complete", sent.resultType);
      delete sent.resultType;
      check(!("resultType" in result), "the client took resultType out");
      check(JSON.stringify(result) === JSON.stringify(sent), "the rest is the server's JSON, key order included",
        `${Object.keys(result)} / ${Object.keys(sent)}`);
      const small = await client.callTool({ name: "echo", arguments: { message: "small" } });
      check(!("resultType" in small) && small.content[0].text === "Echo: small", "a small result reads the same way");
    } finally {
      await client.close();
    }
    return done;
  },

  async "x-mcp-header on a number: the tool is not offered, and a host cannot call it"({ McpClient, McpHost }, { modern }) {
    const { check, done } = checker();
    const client = await McpClient.connect(modern, { timeout: 10_000 });
    try {
      const offered = (await client.listTools()).tools.map((t) => t.name);
      const raw = await client.request("tools/list");
      const served = raw.tools.find((t) => t.name === "set-threshold");
      check(served?.inputSchema.properties.threshold.type === "number" && served.inputSchema.properties.threshold["x-mcp-header"] === "Threshold",
        "the server lists set-threshold with x-mcp-header on a number (seen through request)");
      check(!offered.includes("set-threshold"), "listTools leaves it out", offered.join());
      check(offered.includes("echo-region"), "and keeps the tool whose x-mcp-header is on a string");
      const region = await client.callTool({ name: "echo-region", arguments: { region: "eu-west" } });
      check(textOf(region) === "region=eu-west header=eu-west", "the valid header tool still sends its header", textOf(region));
      check(offered.includes("deploy-to"), "and keeps the tool whose x-mcp-header ends a chain of properties", offered.join());
      const nested = await client.callTool({ name: "deploy-to", arguments: { target: { region: "eu-north" } } });
      check(textOf(nested) === "region=eu-north header=eu-north", "a nested argument goes out in its header", textOf(nested));
    } finally {
      await client.close();
    }

    const record = recordingFetch();
    const host = await McpHost.connect({ modern: { url: modern, fetch: record.fetch, timeout: 10_000 } });
    try {
      const names = host.tools.map((t) => t.name);
      check(!names.some((n) => n.includes("set-threshold")) && names.includes("modern__echo-region"), "a host does not register it", names.join());
      const refused = await rejection(host.callTool("modern__set-threshold", { threshold: 3 }));
      check(refused?.kind === "invalid-argument" && /no connected server offers/.test(refused.message), "a host refuses a call to it as a tool no server offers",
        `${refused?.kind}: ${refused?.message}`);
      const calls = record.sent.filter((r) => r.method === "tools/call").map((r) => r.params.name);
      check(!calls.includes("set-threshold"), "and no tools/call for it ever left", calls.join());
    } finally {
      await host.close();
    }
    return done;
  },

  async "skills: listed, loaded and checked; a tampered file is refused and nothing more of it is read"({ McpClient }, { modern }) {
    const { check, done } = checker();
    const record = recordingFetch();
    const client = await McpClient.connect(modern, { timeout: 10_000, fetch: record.fetch });
    let skills;
    try {
      check(client.serverCapabilities.extensions?.["io.modelcontextprotocol/skills"] !== undefined, "the server declares the skills extension");
      ({ skills } = await client.listSkills());
      const raw = await client.request("skills/list");
      check(JSON.stringify(raw.skills) === JSON.stringify(skills), "listSkills gives the skills as the server sent them");
      check(skills.length === 2 && skillByName(skills, "release-notes") && skillByName(skills, "glossary-fr"), "two skills", skills.map((s) => s.uri).join());
      check(record.sent.every((r) => r.method !== "resources/read"), "listing reads no file");

      const notes = skillByName(skills, "release-notes");
      const loaded = await client.readSkill(notes);
      check(JSON.stringify(loaded.frontmatter) === JSON.stringify(notes.frontmatter), "the loaded frontmatter is the listed one, nested metadata included",
        JSON.stringify(loaded.frontmatter));
      check(loaded.frontmatter.metadata?.version === "1.2" && loaded.frontmatter.description.includes(": "), "quoted values read as strings");
      check(loaded.body.startsWith("# Release notes\n") && loaded.text.endsWith(loaded.body), "the body follows the frontmatter", loaded.body.slice(0, 40));
      const template = notes.resources.find((r) => r.uri.endsWith("/templates/NOTES.md"));
      const file = await client.readSkillFile(notes, template.uri);
      check(file.contents[0].text === "## Added\n\n## Changed\n\n## Fixed\n", "readSkillFile gives a listed file, checked");
      const unlisted = await rejection(client.readSkillFile(notes, "skill://release-notes/missing.md"));
      check(unlisted?.kind === "invalid-argument", "a file the skill does not list is refused before any read", `${unlisted?.kind}`);

      const glossary = skillByName(skills, "glossary-fr");
      const accented = await client.readSkill(glossary);
      const listedSize = glossary.resources.find((r) => r.uri === glossary.uri).size;
      check(utf8Length(accented.text) === listedSize && accented.text.length !== listedSize,
        "sizes are UTF-8 bytes: a SKILL.md with é, 日本語 and 🚀 loads", `${listedSize} bytes, ${accented.text.length} UTF-16 units`);
      check(accented.frontmatter.description === glossary.frontmatter.description, "a non-ASCII description matches");
    } finally {
      await client.close();
    }

    // A host's load: SKILL.md first, the other files only if it checks out.
    async function load(client, skill) {
      const loaded = await client.readSkill(skill);
      for (const { uri } of skill.resources.filter((r) => r.uri !== skill.uri)) await client.readSkillFile(skill, uri);
      return loaded;
    }
    const notes = skillByName(skills, "release-notes");
    const lying = recordingFetch();
    const tampered = await McpClient.connect(modern, { timeout: 10_000, fetch: lying.fetch, headers: { "x-tamper-skill-file": notes.uri } });
    try {
      const refused = await rejection(load(tampered, notes));
      check(refused?.name === "McpClientError" && refused.kind === "invalid-result" && /digest/.test(refused.message),
        "a SKILL.md whose bytes differ from the listing (same size) is refused with invalid-result", `${refused?.kind}: ${refused?.message}`);
      const reads = lying.sent.filter((r) => r.method === "resources/read").map((r) => r.params.uri);
      check(reads.length === 1 && reads[0] === notes.uri, "nothing else of that skill was read", reads.join());

      const glossary = skillByName(skills, "glossary-fr");
      const terms = glossary.resources.find((r) => r.uri.endsWith("/TERMS.md")).uri;
      const other = await McpClient.connect(modern, { timeout: 10_000, headers: { "x-tamper-skill-file": terms } });
      try {
        await other.readSkill(glossary);
        const fileRefused = await rejection(other.readSkillFile(glossary, terms));
        check(fileRefused?.kind === "invalid-result", "a tampered extra file is refused by readSkillFile", `${fileRefused?.kind}`);
      } finally {
        await other.close();
      }
    } finally {
      await tampered.close();
    }
    return done;
  },

  async "an input round the client refuses in part aborts the handler it had begun"({ McpClient }, { modern }) {
    const { check, done } = checker();
    let asked = 0;
    let aborted;
    // The first question waits for its user; the second fails at once.
    const elicitation = (params, ctx) => {
      asked += 1;
      if (params.message !== "What is your name?") throw Object.assign(new Error("not now"), { code: -32001 });
      return new Promise((resolve) => {
        ctx.signal.addEventListener("abort", () => {
          aborted = ctx.signal.reason;
          resolve({ action: "cancel" });
        }, { once: true });
      });
    };
    const client = await McpClient.connect(modern, { timeout: 30_000, handlers: { elicitation } });
    try {
      const error = await rejection(client.callTool({ name: "ask-twice", arguments: {} }));
      check(error?.name === "McpError" && error?.code === -32001, "a round whose second question the handler fails, fails with that error",
        `${error?.name} ${error?.code}: ${error?.message}`);
      check(asked === 2, "the first question had begun", `asked ${asked} times`);
      for (let waited = 0; aborted === undefined && waited < 1_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      check(aborted !== undefined, "its signal is aborted: nobody waits for its answer", String(aborted));
      const echoed = await client.callTool({ name: "echo", arguments: { message: "after" } });
      check(textOf(echoed) === "Echo: after", "the next call answers", textOf(echoed));
    } finally {
      await client.close();
    }
    return done;
  },

  async "close() while a handler answers an input round fails the call at once and aborts the handler"({ McpClient }, { modern }) {
    const { check, done } = checker();
    let aborted;
    let asked;
    const began = new Promise((resolve) => { asked = resolve; });
    const elicitation = (_params, ctx) => new Promise((resolve) => {
      asked();
      ctx.signal.addEventListener("abort", () => {
        aborted = ctx.signal.reason;
        resolve({ action: "cancel" });
      }, { once: true });
    });
    const client = await McpClient.connect(modern, { timeout: 30_000, handlers: { elicitation } });
    const call = rejection(client.callTool({ name: "ask-user", arguments: {} }));
    await began;
    const started = Date.now();
    await client.close();
    const error = await call;
    check(error?.kind === "closed", "the call fails with closed", `${error?.kind}: ${error?.message}`);
    check(Date.now() - started < 2_000, "… at once, not at its 30 s timeout", `${Date.now() - started} ms`);
    check(aborted !== undefined, "the handler's signal is aborted", String(aborted));
    return done;
  },

  async "a -32022 refusal from the real server is answered by sending the request once more"({ McpClient }, { versionFault }) {
    const { check, done } = checker();
    const record = recordingFetch();
    const client = await McpClient.connect(versionFault, { timeout: 10_000, fetch: record.fetch });
    try {
      check(client.era === "modern" && client.protocolVersion === "2026-07-28", "connected in the modern era", `${client.era} ${client.protocolVersion}`);
      check(textOf(await client.callTool({ name: "echo", arguments: { message: "again" } })) === "Echo: again", "a tools/call refused once succeeds");
      check((await client.listTools()).tools.some((t) => t.name === "echo"), "a tools/list refused once succeeds");
      for (const method of ["server/discover", "tools/call", "tools/list"]) {
        const tries = record.sent.filter((r) => r.method === method);
        const [first, second] = tries;
        check(tries.length === 2 && first.status === 400 && second.status === 200, `${method}: refused once, sent once more`,
          tries.map((t) => t.status).join());
        check(first.refusal?.error?.code === -32022 && first.refusal.error.data?.supported?.includes("2026-07-28"),
          `${method}: the server's own -32022 lists 2026-07-28`, JSON.stringify(first.refusal));
        check(second.params._meta["io.modelcontextprotocol/protocolVersion"] === "2026-07-28" && second.headers["mcp-protocol-version"] === "2026-07-28",
          `${method}: the retry names 2026-07-28`);
      }
    } finally {
      await client.close();
    }
    return done;
  },

  async "a resource subscription the server's acknowledgement does not grant fails, and one it grants is heard"({ McpClient }, { modern, narrowAck }) {
    const { check, done } = checker();
    const uri = `demo://granted/${Math.random().toString(36).slice(2, 10)}`;
    const narrowed = await McpClient.connect(narrowAck, { timeout: 10_000 });
    try {
      const refused = await narrowed.subscribeResource({ uri }).then(() => undefined, (error) => error);
      check(refused?.kind === "unsupported", "a subscription left out of the acknowledgement fails with unsupported", String(refused));
      check(refused.message === `the server does not support a subscription to ${JSON.stringify(uri)}`, "naming the resource", refused.message);
      const twice = await Promise.allSettled([narrowed.subscribeResource({ uri }), narrowed.subscribeResource({ uri })]);
      check(twice.every((outcome) => outcome.status === "rejected" && outcome.reason?.kind === "unsupported"),
        "two subscriptions to it at once both fail: the second does not resolve before the acknowledgement",
        twice.map((outcome) => outcome.status).join());
    } finally {
      await narrowed.close();
    }
    const client = await McpClient.connect(modern, { timeout: 10_000 });
    try {
      await Promise.all([client.subscribeResource({ uri }), client.subscribeResource({ uri })]);
      const updated = new Promise((resolve) => client.addEventListener("notifications/resources/updated", (event) => resolve(event.notification.params.uri), { once: true }));
      await client.callTool({ name: "touch", arguments: { uri } });
      let timer;
      const heard = await Promise.race([updated, new Promise((resolve) => { timer = setTimeout(() => resolve(undefined), 5_000); })]);
      clearTimeout(timer);
      check(heard === uri, "a granted subscription hears its resource's update", String(heard));
    } finally {
      await client.close();
    }
    return done;
  },

  async "a subscription the stream's reconnection no longer grants is given up with an error event"({ McpClient }, { narrowReconnect }) {
    const { check, done } = checker();
    const uri = `demo://regranted/${Math.random().toString(36).slice(2, 10)}`;
    const client = await McpClient.connect(`${narrowReconnect}?client=${Math.random().toString(36).slice(2, 10)}`, { timeout: 10_000 });
    try {
      const events = [];
      let lost;
      const given = new Promise((resolve) => { lost = resolve; });
      client.addEventListener("reconnecting", () => events.push("reconnecting"));
      client.addEventListener("reconnected", () => events.push("reconnected"));
      client.addEventListener("error", (event) => {
        events.push(`error ${event.error?.kind}`);
        lost(event.error);
      });
      await client.subscribeResource({ uri });
      check(true, "the subscription is granted at first");
      let timer;
      const error = await Promise.race([given, new Promise((resolve) => { timer = setTimeout(() => resolve(undefined), 8_000); })]);
      clearTimeout(timer);
      check(error?.kind === "unsupported" && error.message === `the server does not support a subscription to ${JSON.stringify(uri)}`,
        "the reconnected stream's acknowledgement leaves it out: an error event names it", `${error?.kind}: ${error?.message}`);
      check(events.join() === "reconnecting,reconnected,error unsupported", "after reconnecting and reconnected", events.join());
      const again = await client.subscribeResource({ uri }).then(() => undefined, (failure) => failure);
      check(again?.kind === "unsupported", "subscribing again asks the server again, which refuses it", String(again));
    } finally {
      await client.close();
    }
    return done;
  },

  async "a subscriptions/listen stream that drops is reported reconnecting, then reconnected, and changes are heard again"({ McpClient }, { listenDrop }) {
    const { check, done } = checker();
    const client = await McpClient.connect(`${listenDrop}?client=${Math.random().toString(36).slice(2, 10)}`, { timeout: 10_000 });
    try {
      const events = [];
      const back = new Promise((resolve) => client.addEventListener("reconnected", () => resolve(), { once: true }));
      client.addEventListener("reconnecting", (event) => events.push(`reconnecting ${event.attempt}`));
      client.addEventListener("reconnected", () => events.push("reconnected"));
      client.addEventListener("error", (event) => events.push(`error ${event.error?.kind}`));
      let timer;
      await Promise.race([back, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no reconnected event: ${events}`)), 8_000); })])
        .finally(() => clearTimeout(timer));
      check(events.join() === "reconnecting 1,reconnected", "the cut stream is reported as the legacy GET stream's is", events.join());
      const heard = new Promise((resolve) => client.addEventListener("notifications/tools/list_changed", () => resolve(true), { once: true }));
      const name = `after-drop-${Math.random().toString(36).slice(2, 10)}`;
      check(textOf(await client.callTool({ name: "add-tool", arguments: { name } })) === `added tool ${name}`, "a tool is added");
      const outcome = await Promise.race([heard, new Promise((resolve) => { timer = setTimeout(() => resolve(false), 5_000); })]);
      clearTimeout(timer);
      check(outcome === true, "its list change arrives on the reopened stream");
      check((await client.listTools()).tools.some((tool) => tool.name === name), "and the new tool is listed");
    } finally {
      await client.close();
    }
    return done;
  },

  async "a host lists a modern server's tools again once its dropped listen stream is back"({ McpHost }, { listenDrop }) {
    const { check, done } = checker();
    const host = new McpHost();
    try {
      const reasons = [];
      let timer;
      // Each list is listed again on its own, and their answers may come in any order.
      const relisted = new Promise((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no change of the tools after the reconnection: ${reasons}`)), 8_000);
        host.addEventListener("change", (event) => {
          reasons.push(`${event.reason}:${event.lists}`);
          if (event.reason === "reconnected" && event.lists?.includes("tools")) resolve(event);
        });
      });
      const state = await host.addServer("modern", `${listenDrop}?host=${Math.random().toString(36).slice(2, 10)}`, { timeout: 10_000 });
      check(state.status === "connected" && state.era === "modern", "the host connects in the modern era", `${state.status} ${state.era}`);
      const event = await relisted.finally(() => clearTimeout(timer));
      check(event.server === "modern" && event.lists?.includes("tools"), "its tools are listed again once the stream is back", JSON.stringify(event.lists));
      check(host.tools.some((tool) => tool.serverName === "echo"), "and the registry still has them");
    } finally {
      await host.close();
    }
    return done;
  },

  async "setLoggingLevel with strictCapabilities: false sets the level of a server that logs without declaring logging"({ McpClient }, { loggingUndeclared }) {
    const { check, done } = checker();
    const strict = await McpClient.connect(loggingUndeclared, { timeout: 10_000 });
    try {
      check(strict.era === "modern" && strict.serverCapabilities.logging === undefined, "the server declares no logging");
      const refused = await rejection(strict.setLoggingLevel("info"));
      check(refused?.kind === "unsupported", "by default setLoggingLevel is refused", `${refused?.kind}`);
    } finally {
      await strict.close();
    }

    const record = recordingFetch();
    const client = await McpClient.connect(loggingUndeclared, { timeout: 10_000, strictCapabilities: false, fetch: record.fetch });
    try {
      const logs = [];
      client.addEventListener("notifications/message", (event) => logs.push(`${event.params.level} ${event.params.logger} ${event.params.data}`));
      await client.setLoggingLevel("info");
      check(textOf(await client.callTool({ name: "slow", arguments: { steps: 2 } })) === "slow: 2 steps done", "the call completes");
      check(logs.join("|") === "info slow step 1/2|info slow step 2/2", "its info logs arrive", logs.join("|"));
      const infoCall = record.sent.filter((r) => r.method === "tools/call").at(-1);
      check(infoCall.params._meta["io.modelcontextprotocol/logLevel"] === "info", "the call carried the level in _meta");

      await client.setLoggingLevel("warning");
      logs.length = 0;
      await client.callTool({ name: "slow", arguments: { steps: 1 } });
      check(logs.length === 0, "at warning, the server sends no info logs", logs.join("|"));
      check(record.sent.every((r) => r.method !== "logging/setLevel"), "no logging/setLevel request was sent (it does not exist in 2026-07-28)");
    } finally {
      await client.close();
    }
    return done;
  },
};
