// The attacks the hostile peer serves over Streamable HTTP, one per path
// (/<run>/<attack>/mcp). Each is what a server controls and a client must bound:
// schemas that explode, patterns that backtrack, templates that backtrack,
// bodies and events past any sane size, a `retry` past what a timer holds, and
// a flood of requests to the client. What each one saw goes into its stats.
import { openEventStream, sseEvent } from "./http.mjs";
import { ECHO, NO_ANSWER, textResult } from "./jsonrpc.mjs";

const DEPTH = 40;

// `n` an integer, and 64 string members described at length: 4.5 KB of schema.
const RENAMED_OUTPUT = {
  type: "object",
  required: ["n"],
  properties: Object.fromEntries([["n", { type: "integer" }],
    ...Array.from({ length: 64 }, (_, i) => [`pad${i}`, { type: "string", description: "d".repeat(40) }])]),
};

// anyOf of two $refs to itself at the same value: without cycle detection,
// 2^n work before the validator ever looks at the data.
export const REF_CYCLE = { type: "object", properties: { x: { anyOf: [{ $ref: "#/properties/x" }, { $ref: "#/properties/x" }] } } };

// Level n: an array whose items match level n-1, said twice; level 0 wants a
// string. Against a 40-deep array whose leaf is a number, every branch goes one
// value deeper and fails only at the leaf: 2^40 paths, no cycle to cut.
function deepAnyOf(depth) {
  const defs = { level0: { type: "string" } };
  for (let n = 1; n <= depth; n += 1) {
    const below = { $ref: `#/$defs/level${n - 1}` };
    defs[`level${n}`] = { anyOf: [{ type: "array", items: below }, { items: below }] };
  }
  return { type: "object", $defs: defs, properties: { x: { $ref: `#/$defs/level${depth}` } } };
}

function nestedArray(depth, leaf) {
  let value = leaf;
  for (let n = 0; n < depth; n += 1) value = [value];
  return value;
}

// Past the validator's 256 levels, one keyword at a time: level n wraps a $ref to level n-1
// in the keyword, and level 0 wants a string. Each chain must stop at the depth limit, whichever
// keyword's frames fill wasm's stack on the way down.
const CHAIN_LEVELS = 300;
const CHAIN_WRAPS = {
  ref: (below) => below,
  allOf: (below) => ({ allOf: [below] }),
  anyOf: (below) => ({ anyOf: [{ type: "null" }, below] }),
  oneOf: (below) => ({ oneOf: [{ type: "null" }, below] }),
  not: (below) => ({ not: { not: below } }),
  if: (below) => ({ if: below, then: true }),
  else: (below) => ({ if: false, else: below }),
  dependentSchemas: (below) => ({ dependentSchemas: { x: below } }),
  // These move one value deeper at each level, so the instance nests too (100 levels, under
  // the 127 a reader takes) and each level of it also goes through allOf, to pass 256.
  properties: (below) => ({ properties: { x: { allOf: [{ allOf: [below] }] } } }),
  items: (below) => ({ items: { allOf: [{ allOf: [below] }] } }),
  contains: (below) => ({ contains: { allOf: [{ allOf: [below] }] } }),
  unevaluatedProperties: (below) => ({ unevaluatedProperties: { allOf: [{ allOf: [below] }] } }),
};
const DEEP_INSTANCE = 100;
const ARRAY_KEYWORDS = ["items", "contains"];
function keywordChain(keyword) {
  const defs = { level0: { type: "string" } };
  for (let n = 1; n <= CHAIN_LEVELS; n += 1) defs[`level${n}`] = CHAIN_WRAPS[keyword]({ $ref: `#/$defs/level${n - 1}` });
  const top = { $ref: `#/$defs/level${CHAIN_LEVELS}` };
  // structuredContent is an object: an array chain starts at its member x.
  return ARRAY_KEYWORDS.includes(keyword) ? { $defs: defs, properties: { x: top } } : { $defs: defs, ...top };
}
function chainInstance(keyword) {
  if (ARRAY_KEYWORDS.includes(keyword)) return { x: nestedArray(DEEP_INSTANCE, 1) };
  if (keyword === "properties" || keyword === "unevaluatedProperties") {
    let value = 1;
    for (let n = 0; n < DEEP_INSTANCE; n += 1) value = { x: value };
    return value;
  }
  return { x: 1 };
}

/** `[0,0,…]` of args.count zeros, at most 16 million, as text. */
const zeros = (args) => `[${"0,".repeat(Math.min(Number(args.count) || 0, 16_000_000)).slice(0, -1)}]`;

const ANNOUNCE = {
  name: "announce",
  description: "Sends args.count notifications/tools/list_changed, args.gapMs apart, then answers",
  inputSchema: { type: "object" },
};

const INTEGER_ROWS = { type: "object", properties: { rows: { type: "array", items: { type: "integer" } } }, required: ["rows"] };
const PLAIN_INTEGER = { type: "object", properties: { n: { type: "integer" }, note: { type: "string", maxLength: 2 } }, required: ["n"] };
const stringWithPattern = (pattern) => ({ type: "object", properties: { s: { type: "string", pattern } } });

function tool(name, description, { outputSchema, call }) {
  return { definition: { name, description, inputSchema: { type: "object" }, ...(outputSchema && { outputSchema }) }, call };
}

/** A tool whose SSE stream is primed and left open, recorded in `stats.streams`; then `then(reply, stats)`. */
const heldStream = (name, description, then) => tool(name, description, {
  call(_args, reply, stats) {
    const stream = reply.stream();
    const record = { tool: name, closed: false };
    (stats.streams ??= []).push(record);
    stream.onClose(() => { record.closed = true; });
    stream.raw(`id: ${name}-1\ndata: \n\n`);
    then(reply, stats);
  },
});

/** A tool whose structuredContent is checked against a hostile outputSchema. */
const schemaTool = (name, description, outputSchema, structuredContent) =>
  tool(name, description, { outputSchema, call: (_args, reply) => reply.json({ ...textResult(name), structuredContent }) });

// args.bytesPerMs paces the body (see writeHuge); 0 or none writes as fast as the socket takes it.
const pace = (args) => Math.max(Number(args.bytesPerMs) || 0, 0);

/** A tools/call result of 1.2 MiB of text with `middle` in the middle of it, as raw bytes. */
function keptBody(id, middle) {
  const filler = "k".repeat(600 * 1024);
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"${filler}`;
  return Buffer.concat([Buffer.from(head), middle, Buffer.from(`${filler}"}]}}`)]);
}

// 12,000 items, half a MiB: kept in JS, its structuredContent left out of the text the checks read.
const KEPT_ITEMS_SCHEMA = {
  type: "object",
  properties: { items: { type: "array", items: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } } },
  required: ["items"],
};
// The same without `type`: `null` would pass it, so what the client cannot read must not be checked as `null`.
const KEPT_UNTYPED_SCHEMA = { properties: KEPT_ITEMS_SCHEMA.properties, required: KEPT_ITEMS_SCHEMA.required };
const keptItems = (bad) => ({ items: Array.from({ length: 12_000 }, (_, i) => ({ id: i === bad ? "nine thousand" : i, name: "an item of a kept list" })) });

/** A tools/call result whose structuredContent holds 12,000 items (one bad at `bad`) and `middle` in one of their names, as raw bytes. */
function keptStructured(id, middle, bad = -1) {
  const items = JSON.stringify(keptItems(bad).items);
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"items"}],"structuredContent":{"items":${items.slice(0, -1)},{"id":0,"name":"`;
  return Buffer.concat([Buffer.from(head), middle, Buffer.from(`"}]}}}`)]);
}

const SAMPLING_PARAMS = { messages: [{ role: "user", content: { type: "text", text: "flood" } }], maxTokens: 8 };

export const ATTACKS = {
  "schema-bomb": {
    tools: {
      "ref-cycle": schemaTool("ref-cycle", "outputSchema: anyOf of two $refs to itself", REF_CYCLE, { x: 1 }),
      "deep-anyof": schemaTool("deep-anyof", `outputSchema: ${DEPTH} levels of anyOf over a ${DEPTH}-deep array`, deepAnyOf(DEPTH),
        { x: nestedArray(DEPTH, 1) }),
      // A plain schema, which quick-check.js reads: it accepts the match, and leaves the mismatch
      // to the validator module, which words the report.
      "plain-match": schemaTool("plain-match", "outputSchema: an object whose n is an integer; n is 2", PLAIN_INTEGER, { n: 2, note: "ok" }),
      "plain-mismatch": schemaTool("plain-mismatch", "outputSchema: an object whose n is an integer; n is 1.5", PLAIN_INTEGER, { n: 1.5 }),
    },
  },

  // One tool per keyword that recurses, each a chain past the validator's depth limit.
  "depth-bomb": {
    tools: Object.fromEntries(Object.keys(CHAIN_WRAPS).map((keyword) => [`chain-${keyword}`,
      schemaTool(`chain-${keyword}`, `outputSchema: ${CHAIN_LEVELS} levels of ${keyword}`, keywordChain(keyword), chainInstance(keyword))])),
  },

  "elicit-bomb": {
    tools: {
      ask: tool("ask", "Elicits with a requestedSchema that is a $ref bomb, then reports the answer", {
        async call(_args, reply, stats) {
          const stream = reply.stream();
          const answer = await stream.ask("elicitation/create",
            { mode: "form", message: "Fill in x", requestedSchema: REF_CYCLE });
          stats.elicitationAnswer = answer;
          stream.result(textResult(answer?.error ? `refused: ${answer.error.code}` : answer ? "accepted" : "no answer"));
        },
      }),
    },
  },

  "regex-bomb": {
    tools: {
      redos: schemaTool("redos", "pattern ^(a+)+$ against 40 a's and a !", stringWithPattern("^(a+)+$"), { s: `${"a".repeat(40)}!` }),
      lookaround: schemaTool("lookaround", "a look-ahead pattern", stringWithPattern("^(?=a)a+$"), { s: "aaa" }),
      backreference: schemaTool("backreference", "a backreference pattern", stringWithPattern("^(a)\\1$"), { s: "aa" }),
    },
  },

  // SKILL.md files whose frontmatter nests without end: 30,000 "[" on one line (each a level of
  // the client's YAML reader, a call on wasm's stack), 300 mappings each indented once more
  // (each level reads its lines again), and a frontmatter of 128 KiB; beside them a plain skill.
  "skill-bomb": {
    resources: [
      { uri: "skill://flow/SKILL.md", name: "flow", text: `---\nname: ${"[".repeat(30_000)}x${"]".repeat(30_000)}\ndescription: d\n---\nbody\n` },
      { uri: "skill://nested/SKILL.md", name: "nested",
        text: `---\n${Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")}\n---\nbody\n` },
      { uri: "skill://long/SKILL.md", name: "long", text: `---\nname: long\ndescription: ${"d".repeat(128 * 1024)}\n---\nbody\n` },
      { uri: "skill://plain/SKILL.md", name: "plain", text: "---\nname: plain\ndescription: A plain skill\n---\nThe body.\n" },
    ],
  },

  // Eight reserved expansions that can each take any run of "a/", and a "!"
  // no URI has: a backtracking matcher tries every split before it says no.
  // Before them, a template of 50,000 expressions (matching goes a call deeper for each), and after,
  // 499 more of the costly one: each stops at its own budget, so only stopping after the first
  // keeps a read from paying for all of them.
  "template-bomb": {
    templates: [
      { uriTemplate: "{a}".repeat(50_000), name: "deep" },
      ...Array.from({ length: 500 }, (_, i) => ({ uriTemplate: "x:{+a}{+b}{+c}{+d}{+e}{+f}{+g}{+h}!", name: `bomb-${i}` })),
    ],
    resources: [{ uri: "hostile://ok", name: "ok", text: "still served" }],
  },

  // 300 templates that each take about 93,000 steps (just under a match's 100,000) to find that
  // x: and 48 × a is not theirs: about 18 ms each, 5 s for a host that tried them all.
  "template-crowd": {
    templates: Array.from({ length: 300 }, (_, i) => ({ uriTemplate: `x:{+a}{+b}{+c}!`, name: `crowd-${i}` })),
    resources: [{ uri: "hostile://ok", name: "ok", text: "still served" }],
  },

  // Not an attack: templates that need more than a quick match's steps for a long URI
  // (x:{+path}.json against a path of 400 characters takes thousands).
  "template-long": {
    templates: [{ uriTemplate: "x:{+path}.md", name: "markdown" }, { uriTemplate: "x:{+path}.json", name: "json" }],
    readTemplated: (uri) => `long read of ${uri.length} characters`,
  },

  // The same URIs through a template that matches them at once.
  "template-plain": {
    templates: [{ uriTemplate: "x:{+path}", name: "plain" }],
    readTemplated: (uri) => (uri.startsWith("x:") ? `plain read of ${uri.length} characters` : undefined),
  },

  "oversize-json": {
    tools: {
      "huge-json": tool("huge-json", "Answers with an application/json body of args.bytes, paced by args.bytesPerMs", {
        async call(args, reply, stats) {
          const record = { declaredLength: Boolean(args.declareLength) };
          (stats.bodies ??= []).push(record);
          await reply.hugeJson(args.bytes, record, { declareLength: record.declaredLength, bytesPerMs: pace(args) });
        },
      }),
    },
  },

  // A body long enough that the client keeps it in JS and checks it without its content's text:
  // the text itself is what is broken, so only the one JSON.parse of the body can tell.
  "kept-garbage": {
    tools: {
      "bad-escape": tool("bad-escape", "A 1.2 MiB application/json result whose text holds the escape \\q", {
        call: (_args, reply) => reply.rawJson(keptBody(reply.id, Buffer.from("\\q"))),
      }),
      "bad-utf8": tool("bad-utf8", "A 1.2 MiB application/json result whose text holds the byte 0xFF", {
        call: (_args, reply) => reply.rawJson(keptBody(reply.id, Buffer.from([0xff]))),
      }),
      "lone-surrogate": tool("lone-surrogate", "A 1.2 MiB result whose text holds \\ud800, which JSON.parse reads", {
        call: (_args, reply) => reply.rawJson(keptBody(reply.id, Buffer.from("\\ud800"))),
      }),
      "bad-escape-event": tool("bad-escape-event", "The same as bad-escape, as one SSE event", {
        call: (_args, reply) => reply.rawEvent(keptBody(reply.id, Buffer.from("\\q"))),
      }),
      "bad-utf8-event": tool("bad-utf8-event", "The same as bad-utf8, as one SSE event (whose data decodes 0xFF as U+FFFD)", {
        call: (_args, reply) => reply.rawEvent(keptBody(reply.id, Buffer.from([0xff]))),
      }),
      "kept-mismatch": tool("kept-mismatch", "A half-MiB structuredContent whose item 9000 has a string id, against integer ids", {
        outputSchema: KEPT_ITEMS_SCHEMA,
        call: (_args, reply) => reply.json({ ...textResult("items"), structuredContent: keptItems(9000) }),
      }),
      "kept-match": tool("kept-match", "The same, every id an integer", {
        outputSchema: KEPT_ITEMS_SCHEMA,
        call: (_args, reply) => reply.json({ ...textResult("items"), structuredContent: keptItems(-1) }),
      }),
      "structured-out-of-range": tool("structured-out-of-range", "The mismatch again, under an outputSchema without type, beside a number past f64 (1e400) that JSON.parse reads as Infinity", {
        outputSchema: KEPT_UNTYPED_SCHEMA,
        call: (_args, reply) => reply.rawJson(keptStructured(reply.id, Buffer.from('x","z":1e400,"w":"'), 9000)),
      }),
      "structured-bad-escape": tool("structured-bad-escape", "A half-MiB structuredContent whose last item's name holds the escape \\q", {
        call: (_args, reply) => reply.rawJson(keptStructured(reply.id, Buffer.from("\\q"))),
      }),
    },
  },

  "oversize-sse": {
    tools: {
      "huge-event": tool("huge-event", "Answers on its SSE stream with one event of args.bytes, the id last, paced by args.bytesPerMs", {
        async call(args, reply, stats) {
          const record = {};
          (stats.events ??= []).push(record);
          await reply.stream().hugeResult(args.bytes, record, { bytesPerMs: pace(args) });
        },
      }),
    },
  },

  // Messages of tiny values: each is a few bytes of text and tens of bytes once read. args.count
  // zeros in an array (at most 16 million), in a log notification before the result, in the
  // params of a sampling request, or in the data of the error that answers the call.
  "value-bomb": {
    tools: {
      "log-bomb": tool("log-bomb", "Sends a notifications/message whose data is args.count zeros, then a text result", {
        async call(args, reply) {
          const stream = reply.stream();
          stream.raw(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":${zeros(args)}}}\n\n`);
          stream.result(textResult("after the log"));
        },
      }),
      "ask-bomb": tool("ask-bomb", "Asks sampling/createMessage with args.count zeros in its params, then reports the answer", {
        async call(args, reply, stats) {
          const stream = reply.stream();
          const answer = await stream.ask("sampling/createMessage", { ...SAMPLING_PARAMS, metadata: { zeros: JSON.parse(zeros(args)) } });
          stats.askBomb = answer?.error ? { error: answer.error.code } : { result: Boolean(answer?.result) };
          stream.result(textResult(JSON.stringify(stats.askBomb)));
        },
      }),
      "error-bomb": tool("error-bomb", "Answers with a JSON-RPC error whose data is args.count zeros", {
        call: (args, reply) => reply.rawJson(Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(reply.id)},"error":{"code":-32000,"message":"zeros","data":${zeros(args)}}}`)),
      }),
    },
  },

  // tools/list takes 1.5 s; the tool `announce` sends args.count tools/list_changed on its stream,
  // args.gapMs apart, then answers. Stats: `lists` (tools/list received), `listsAbandoned` (the
  // client hung up before the answer).
  "slow-list": {
    capabilities: { tools: { listChanged: true } },
    answer(message, stats, res) {
      if (message.method !== "tools/list") return undefined;
      stats.lists = (stats.lists ?? 0) + 1;
      stats.listsAbandoned ??= 0;
      const answer = setTimeout(() => res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { tools: [ECHO, ANNOUNCE] } })), 1_500);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.on("close", () => {
        if (res.writableEnded) return;
        clearTimeout(answer);
        stats.listsAbandoned += 1;
      });
      return NO_ANSWER;
    },
    tools: {
      announce: tool("announce", ANNOUNCE.description, {
        async call(args, reply) {
          const stream = reply.stream();
          for (let n = 0; n < Math.min(Number(args.count) || 0, 20); n += 1) {
            if (n > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(Number(args.gapMs) || 0, 5_000)));
            stream.raw(sseEvent({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
          }
          stream.result(textResult("announced"));
        },
      }),
    },
  },

  // The GET stream asks for a 3,000,000,000 ms retry (past 2^31-1, where timers
  // fire at once) and ends; each GET is counted in stats.gets.
  // Tool `elsewhere` answers on the GET stream, and ends its own stream (one event, id `p1`) without
  // the answer. Each GET that resumes a stream (a Last-Event-ID) gets one log event with a new id
  // and `retry: 100`, and ends: a client that resumed until it heard the answer there would come
  // back ten times a second for ever. Stats: `resumes`, the resuming GETs.
  "answered-elsewhere": {
    listen(res, stats, req) {
      openEventStream(res);
      if (req.headers["last-event-id"] === undefined) return LISTENING.set(stats, res);
      stats.resumes = (stats.resumes ?? 0) + 1;
      const log = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "resumed" } };
      return res.end(sseEvent(log, { id: `r${stats.resumes}`, retry: 100 }));
    },
    tools: {
      elsewhere: tool("elsewhere", "Answers on the GET stream; its own stream ends without the answer", {
        call(_args, reply, stats) {
          const stream = reply.stream();
          stream.raw(sseEvent({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } }, { id: "p1" }));
          LISTENING.get(stats)?.write(sseEvent({ jsonrpc: "2.0", id: reply.id, result: textResult("answered on the GET stream") }));
          setTimeout(() => stream.end(), 50);
        },
      }),
    },
  },

  // Event ids the client cannot resume from: empty, or longer than the 1 KiB it keeps. Each tool
  // primes its stream with such an id and empty data, then sends a log and the result, each with
  // such an id of its own. None of them repeats an id.
  "event-ids": {
    tools: Object.fromEntries(Object.entries({ empty: () => "", long: (n) => `${n}`.padEnd(1_100, "x") }).map(([name, idOf]) =>
      [name, tool(name, `Primes, logs and answers with ${name} event ids`, {
        call(_args, reply) {
          const stream = reply.stream();
          stream.raw(`id: ${idOf(1)}\ndata: \n\n`);
          stream.raw(sseEvent({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: name } }, { id: idOf(2) }));
          setTimeout(() => stream.raw(sseEvent({ jsonrpc: "2.0", id: reply.id, result: textResult(`answered with ${name} ids`) }, { id: idOf(3) })), 20);
        },
      })])),
  },

  // Request streams that stay open and silent: `silent` primes its stream and never answers;
  // `elsewhere-open` answers on the GET stream and leaves its own stream open; `broken` answers
  // late with a result the client refuses. Stats: `streams`,
  // one record per stream, `closed` once the client hung up.
  "held-streams": {
    listen(res, stats) {
      openEventStream(res);
      LISTENING.set(stats, res);
    },
    tools: {
      silent: heldStream("silent", "Primes its SSE stream and never answers", () => {}),
      "elsewhere-open": heldStream("elsewhere-open", "Answers on the GET stream, and leaves its own stream open", (reply, stats) =>
        LISTENING.get(stats)?.write(sseEvent({ jsonrpc: "2.0", id: reply.id, result: textResult("answered on the GET stream") }))),
      broken: tool("broken", "Answers after 100 ms with a result whose content is not an array", {
        call(_args, reply) {
          setTimeout(() => reply.json({ content: "not an array" }), 100);
        },
      }),
      "held-post": tool("held-post", "Its POST gets no answer at all, not even headers", {
        call(_args, _reply, stats) {
          stats.heldPosts = (stats.heldPosts ?? 0) + 1;
        },
      }),
    },
  },

  // The POSTs that carry the client's answers are read and never answered, not even with headers.
  // Tool `pings` sends args.count pings at once and reports how many answers came. Stats:
  // `repliesHeld`, the answers' POSTs held, and `repliesLetGo`, those the client hung up on.
  "replies-held": {
    holdReplies: true,
    tools: {
      pings: tool("pings", "Sends args.count pings at once; the POSTs of their answers are held", {
        async call(args, reply) {
          const stream = reply.stream();
          const answers = await stream.askAll("ping", {}, Math.min(Number(args.count) || 0, 5));
          stream.result(textResult(`${answers.filter((a) => a?.result).length} answered`));
        },
      }),
    },
  },

  // The GET stream gets no answer at all, not even headers. Stats: `gets`, and `getsLetGo`, the
  // GETs the client hung up on.
  "listen-held": {
    listen(res, stats) {
      res.on("close", () => {
        stats.getsLetGo = (stats.getsLetGo ?? 0) + 1;
      });
    },
  },

  // The POST of notifications/initialized is never answered: always, or once the tool `expire` has
  // ended every session, so that the next request is answered 404 and the client's renewal meets it.
  "initialized-held": {
    holdInitialized: () => true,
  },
  "renewal-held": {
    holdInitialized: (stats) => Boolean(stats.holdFromNow),
    tools: {
      expire: tool("expire", "Ends every session, and holds every notifications/initialized from now on", {
        call(_args, reply, stats) {
          Object.assign(stats, { endSessions: true, holdFromNow: true });
          reply.json(textResult("sessions ended"));
        },
      }),
    },
  },

  "retry-overflow": {
    listen(res) {
      openEventStream(res);
      // Late enough that the client has returned from connect and can watch its events.
      setTimeout(() => res.end("retry: 3000000000\n\n"), 200);
    },
  },

  "flood": {
    tools: {
      flood: tool("flood", "Sends args.count sampling/createMessage requests at once, then reports the answers", {
        async call(args, reply, stats) {
          const stream = reply.stream();
          const count = Math.min(Number(args.count) || 0, 1000);
          const answers = await stream.askAll("sampling/createMessage", SAMPLING_PARAMS, count);
          const flood = {
            asked: count,
            results: answers.filter((a) => a?.result).length,
            errors: answers.filter((a) => a?.error).map((a) => a.error.code),
            unanswered: answers.filter((a) => a === null).length,
          };
          stats.flood = flood;
          stream.result(textResult(JSON.stringify(flood)));
        },
      }),
      withdraw: tool("withdraw", "Sends args.count sampling/createMessage requests, withdrawing each at once, then one more it waits for", {
        async call(args, reply, stats) {
          const stream = reply.stream();
          const count = Math.min(Number(args.count) || 0, 1000);
          for (let n = 0; n < count; n += 1) {
            const id = `withdrawn-${n}`;
            stream.raw(sseEvent({ jsonrpc: "2.0", id, method: "sampling/createMessage", params: SAMPLING_PARAMS }));
            stream.raw(sseEvent({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "changed my mind" } }));
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          const last = await stream.ask("sampling/createMessage", SAMPLING_PARAMS);
          stats.withdraw = last?.result ? { result: last.result.model } : { error: last?.error?.code ?? null };
          stream.result(textResult(JSON.stringify(stats.withdraw)));
        },
      }),
    },
  },

  // One sampling request sent twice under the same id while the first is being handled.
  "duplicate-id": {
    tools: {
      twice: tool("twice", "Sends one sampling/createMessage twice under one id, then reports the answers", {
        async call(_args, reply, stats) {
          const stream = reply.stream();
          const answers = await stream.askTwice("sampling/createMessage", SAMPLING_PARAMS);
          stats.duplicate = answers.map((a) => (a?.error ? { error: a.error.code } : { result: a?.result?.model ?? null }));
          stream.result(textResult(JSON.stringify(stats.duplicate)));
        },
      }),
    },
  },

  // 100,000 tools under one name, in four pages of 25,000 (about 1.2 MB each), then echo: a host must
  // give each a name of its own without a search per tool, which would take minutes.
  // A task that never ends and asks to be polled every 4e9 ms (46 days, past what a timer holds);
  // the tool `forever-mute` starts one whose tasks/cancel is never answered.
  "task-forever": {
    capabilities: { tasks: { requests: { tools: { call: {} } }, cancel: {}, list: {} } },
    answer(message, stats) {
      const taskId = message.params?.name ?? message.params?.taskId;
      const task = { taskId, status: "working", createdAt: "2026-12-02T00:00:00Z", ttl: null, pollInterval: 4e9 };
      stats.tasks ??= { created: 0, gets: 0, cancels: 0 };
      switch (message.method) {
        case "tools/call":
          if (taskId !== "forever" && taskId !== "forever-mute") return undefined;
          stats.tasks.created += 1;
          return { task };
        case "tasks/get":
          stats.tasks.gets += 1;
          return task;
        case "tasks/cancel":
          stats.tasks.cancels += 1;
          return taskId === "forever-mute" ? NO_ANSWER : { ...task, status: "cancelled" };
        default:
          return undefined;
      }
    },
  },
  // The initialize result carries 2 million zeros (4 MB) under capabilities.experimental: a result
  // the client reads into a tree for itself.
  "init-values": {
    get capabilities() {
      return { experimental: { zeros: new Array(2_000_000).fill(0) } };
    },
  },
  // A structuredContent of 2 million zeros (4 MB) that the quick check finds does not match, so the
  // client's validator reads it for itself; and one that matches, which the quick check accepts.
  "structured-values": {
    tools: {
      mismatch: schemaTool("mismatch", "outputSchema: n an integer; n is 2 million zeros", PLAIN_INTEGER,
        { n: new Array(2_000_000).fill(0) }),
      match: schemaTool("match", "outputSchema: rows integers; rows are 2 million zeros", INTEGER_ROWS,
        { rows: new Array(2_000_000).fill(0) }),
    },
  },
  // Nothing hostile, `echo` alone: what a host's refused entry must not reach. Stats: `initialize`.
  "plain": {},

  // tools/list pages for ever, each page answered after 200 ms (cursors `1`, `2`, …), `echo` on the
  // first. Stats: `pages`, how many were asked.
  "slow-pages": {
    answer(message, stats, res) {
      if (message.method !== "tools/list") return undefined;
      stats.pages = (stats.pages ?? 0) + 1;
      const page = Number(message.params?.cursor ?? 0);
      const result = { tools: page === 0 ? [ECHO] : [], nextCursor: String(page + 1) };
      setTimeout(() => res.writableEnded || res.destroyed || res.writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result })), 200);
      return NO_ANSWER;
    },
  },

  // tools/list pages forever, each page 900 KiB (one tool whose description fills it): every page
  // is under a 1 MiB maxMessageBytes, and together they are not. Stats: `pages`, how many were asked.
  "list-bytes": {
    answer(message, stats) {
      if (message.method !== "tools/list") return undefined;
      stats.pages = (stats.pages ?? 0) + 1;
      const page = Number(message.params?.cursor ?? 0);
      const filler = { name: `filler-${page}`, description: "x".repeat(900 * 1024), inputSchema: { type: "object" } };
      return { tools: page === 0 ? [ECHO, filler] : [filler], nextCursor: String(page + 1) };
    },
  },
  // tools/list pages for ever, each page eight tools of new names (`p<page>-<i>`), each with an
  // idempotent hint and an outputSchema of 4.5 KB that wants `n` an integer; every call of one answers
  // `n: "x"`. A client asked page by page never ends a whole listing, the only thing that forgets.
  // Stats: `pages`, how many were asked.
  "renamed-pages": {
    answer(message, stats) {
      if (message.method === "tools/call" && message.params?.name?.startsWith("p")) {
        return { content: [{ type: "text", text: "{\"n\":\"x\"}" }], structuredContent: { n: "x" } };
      }
      if (message.method !== "tools/list") return undefined;
      stats.pages = (stats.pages ?? 0) + 1;
      const page = Number(message.params?.cursor ?? 0);
      const tools = Array.from({ length: 8 }, (_, i) => ({
        name: `p${page}-${i}`,
        inputSchema: { type: "object" },
        outputSchema: RENAMED_OUTPUT,
        annotations: { idempotentHint: true },
      }));
      return { tools: page === 0 ? [ECHO, ...tools] : tools, nextCursor: String(page + 1) };
    },
  },
  // An Mcp-Session-Id of 8 KiB, the longest the client takes, and one a byte longer, which every
  // request would carry. Stats: `initialize`.
  "session-8k": { sessionIdBytes: 8 * 1024 },
  "session-past-8k": { sessionIdBytes: 8 * 1024 + 1 },
  "tool-flood": {
    listTools(cursor) {
      const page = Number(cursor ?? 0);
      const tools = Array.from({ length: TOOL_FLOOD_PAGE }, () => ({ name: "same", inputSchema: { type: "object" } }));
      return page < 3 ? { tools, nextCursor: String(page + 1) } : { tools: [...tools, ECHO] };
    },
  },
};

const TOOL_FLOOD_PAGE = 25_000;
// Each namespace's open GET stream, by its stats (which the stats endpoint sends as JSON).
const LISTENING = new WeakMap();
