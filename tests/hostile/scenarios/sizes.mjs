// Answers larger than the client reads (limits.maxMessageBytes): a JSON body is
// cancelled at the cap, an event on a request's own stream fails that request,
// and an event on the shared HTTP+SSE stream is skipped while the request it
// answered fails at once. The peer records how much it got out before the client
// hung up; it paces its writes so that socket buffers do not hide that.
import { McpClient } from "mcp-wasm";
import { describe, expectEcho, expectFailure, expectSuccess, settle, textOf } from "../expect.mjs";

const MIB = 1 << 20;
const DEFAULT_CAP = 32 * MIB;

// The server notices a hang-up a moment after the client fails the call.
async function settledWrite(peer, attack, key) {
  for (let waited = 0; waited < 1_000; waited += 50) {
    const record = (await peer.stats(attack))[key]?.at(-1);
    if (record && record.outcome !== "writing") return record;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (await peer.stats(attack))[key]?.at(-1);
}

async function cutOff(ctx, attack, key, what) {
  const record = await settledWrite(ctx.peer, attack, key);
  ctx.check(record?.outcome === "closed" && record.written < record.total,
    `${what}: the client hung up before the server wrote it all`, JSON.stringify(record));
}

export async function oversizeJson(ctx) {
  const { check, peer, track } = ctx;
  const huge = (client, args) => client.callTool({ name: "huge-json", arguments: args });

  const byDefault = track(await McpClient.connect(peer.url("oversize-json"), { timeout: 5_000 }));
  const forty = "a 40 MiB application/json body under the default 32 MiB cap";
  await expectFailure(check, forty, huge(byDefault, { bytes: 40 * MIB, bytesPerMs: 64 * 1024 }), "limit-exceeded");
  await cutOff(ctx, "oversize-json", "bodies", forty);
  check((await peer.stats("oversize-json")).bodies.at(-1).written > DEFAULT_CAP, `${forty}: the default cap is 32 MiB, not less`);
  await expectEcho(check, byDefault);

  const capped = track(await McpClient.connect(peer.url("oversize-json"), { timeout: 5_000, limits: { maxMessageBytes: MIB } }));
  const five = "a 5 MiB application/json body under maxMessageBytes 1 MiB";
  await expectFailure(check, five, huge(capped, { bytes: 5 * MIB, bytesPerMs: 16 * 1024 }), "limit-exceeded");
  await cutOff(ctx, "oversize-json", "bodies", five);
  const declared = "a 5 MiB body with its Content-Length declared";
  await expectFailure(check, declared, huge(capped, { bytes: 5 * MIB, bytesPerMs: 16 * 1024, declareLength: true }), "limit-exceeded");
  await cutOff(ctx, "oversize-json", "bodies", declared);
  await expectEcho(check, capped);
}

export async function oversizeSseEvent(ctx) {
  const { check, peer, track } = ctx;
  const client = track(await McpClient.connect(peer.url("oversize-sse"), { timeout: 5_000, limits: { maxMessageBytes: MIB } }));
  const what = "one 5 MiB event on the tool call's own SSE stream under maxMessageBytes 1 MiB";
  await expectFailure(check, what, client.callTool({ name: "huge-event", arguments: { bytes: 5 * MIB, bytesPerMs: 16 * 1024 } }), "limit-exceeded");
  await cutOff(ctx, "oversize-sse", "events", what);
  await expectEcho(check, client);
}

/** HTTP+SSE: the answer is one 5 MiB event on the stream every answer shares. */
async function sharedStreamEvent(ctx, sseReader) {
  const { check, peer, track } = ctx;
  const client = track(await McpClient.connect(peer.url("legacy-sse", "sse"),
    { transport: "sse", sseReader, timeout: 5_000, limits: { maxMessageBytes: MIB } }));
  check(client.transport === "sse", `HTTP+SSE read by ${sseReader} connects`, client.transport);
  const what = `a 5 MiB answer on the shared HTTP+SSE stream read by ${sseReader}`;
  await expectFailure(check, what, client.callTool({ name: "huge", arguments: { bytes: 5 * MIB } }), "limit-exceeded");
  await expectEcho(check, client);
  const stats = await peer.stats("legacy-sse");
  check(stats.streamsOpened === 1 && stats.streamsClosed === 0, `${what}: the event is skipped and the stream kept`, JSON.stringify(stats));

  // The cap is in bytes: 2.9 MB of "€" is 0.97 Mi characters, under a cap that counts characters.
  const multiByte = `a 2.9 MB answer of 3-byte characters (under 1 Mi UTF-16 units) on the shared stream read by ${sseReader}`;
  await expectFailure(check, multiByte, client.callTool({ name: "huge", arguments: { bytes: 2_900_000, character: "€" } }), "limit-exceeded");
  await expectEcho(check, client, `the call after ${multiByte}`);
}

/** Every POST of HTTP+SSE goes to the URL the `endpoint` event names: one of 8 KiB is taken, a longer one refused. */
export async function legacyLongEndpoint({ check, peer, track }) {
  const connect = (bytes) => McpClient.connect(`${peer.url("legacy-sse", "sse")}?endpointBytes=${bytes}`,
    { transport: "sse", sseReader: "fetch", timeout: 5_000 });
  const longest = track(await connect(8 * 1024));
  await expectEcho(check, longest, "a session whose endpoint is 8 KiB");
  const refused = await expectFailure(check, "connecting where the endpoint event names 8 KiB and a byte", connect(8 * 1024 + 1), "protocol");
  check(/endpoint/.test(refused?.message ?? "") && (refused?.message?.length ?? 0) < 200, "… says so in a short message", refused?.message);
  await expectEcho(check, longest, "the other client afterwards");
}

/** HTTP+SSE: close() while a call's POST is held fails the call with closed at once, and hangs up on the POST. */
export async function legacyHeldPost({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("legacy-sse", "sse"), { transport: "sse", sseReader: "fetch", timeout: 30_000 }));
  const call = settle(client.callTool({ name: "held-post" }), 3_000);
  for (let waited = 0; (await peer.stats("legacy-sse")).heldPosts < 1 && waited < 1_000; waited += 25) await new Promise((r) => setTimeout(r, 25));
  await client.close();
  const { error, hung, ms } = await call;
  check(!hung && error?.name === "McpClientError" && error.kind === "closed", "close() fails the call whose POST is held with closed",
    hung ? "it hung" : `${describe(error)} after ${ms} ms`);
  let stats = await peer.stats("legacy-sse");
  for (let waited = 0; stats.heldPostsClosed < stats.heldPosts && waited < 1_000; waited += 25) {
    await new Promise((r) => setTimeout(r, 25));
    stats = await peer.stats("legacy-sse");
  }
  check(stats.heldPostsClosed === stats.heldPosts, "… and hangs up on the POST", JSON.stringify(stats));
}

export const legacyFetchReader = (ctx) => sharedStreamEvent(ctx, "fetch");
export const legacyEventSource = (ctx) => sharedStreamEvent(ctx, "eventsource");

/** Large results the client keeps in JS, broken only inside the text its checks never read. */
export async function keptGarbage(ctx) {
  const { check, peer, track } = ctx;
  const client = track(await McpClient.connect(peer.url("kept-garbage"), { timeout: 5_000 }));
  const call = (name) => client.callTool({ name, arguments: {} });
  await expectFailure(check, "a kept 1.2 MiB result with an invalid escape in its text", call("bad-escape"), "protocol");
  await expectEcho(check, client);
  await expectFailure(check, "a kept 1.2 MiB result with a byte that is not UTF-8 in its text", call("bad-utf8"), "protocol");
  await expectEcho(check, client);
  await expectFailure(check, "the same as one SSE event", call("bad-escape-event"), "protocol");
  await expectEcho(check, client);
  const replaced = await call("bad-utf8-event");
  check(replaced.content[0].text.charCodeAt(600 * 1024) === 0xfffd,
    "as one SSE event, a byte that is not UTF-8 reads as U+FFFD, as the SSE standard decodes event data");
  // A half-MiB structuredContent is kept too, and left out of the text the checks read: its
  // outputSchema is checked on the value, and only JSON.parse reads its strings.
  await client.listTools();
  await expectFailure(check, "a kept structuredContent with one item against its outputSchema", call("kept-mismatch"), "invalid-result");
  await expectEcho(check, client);
  const matched = await expectSuccess(check, "a kept structuredContent that matches its outputSchema", call("kept-match"));
  check(matched?.structuredContent?.items?.length === 12_000, "a kept structuredContent arrives whole");
  await expectFailure(check, "a kept structuredContent with an invalid escape in a string", call("structured-bad-escape"), "protocol");
  await expectEcho(check, client);
  // Only the validator can tell, and only from the whole message, which the core's reader refuses.
  await expectFailure(check, "a kept mismatching structuredContent beside a number past f64, under a schema without type",
    call("structured-out-of-range"), "protocol");
  await expectEcho(check, client);
  const lone = await call("lone-surrogate");
  check(lone.content[0].text.length === 1200 * 1024 + 1 && lone.content[0].text.charCodeAt(600 * 1024) === 0xd800,
    "a kept result whose text holds a lone surrogate reads as JSON.parse reads it");
}

/**
 * Messages of two million zeros (4 MB): each zero two bytes of text and tens of bytes once read.
 * A notification is dropped with an error event, a server request refused, an error answer fails
 * its call; each in milliseconds, and the client goes on.
 */
/** A handshake whose result is 4 MB of zeros: read into a tree in wasm, it would hold 2 million values. */
export async function initValues({ check, peer, track }) {
  await expectFailure(check, "connect() to a server whose initialize result holds 2 million values",
    McpClient.connect(peer.url("init-values"), { timeout: 5_000 }).then(track), "limit-exceeded");
  const other = track(await McpClient.connect(peer.url("list-bytes"), { timeout: 5_000 }));
  await expectEcho(check, other, "a client of another server afterwards");
}

/**
 * A structuredContent of 2 million zeros: what the quick check cannot accept goes to the validator,
 * which would read it into 2 million nodes in wasm memory; the bound on values stops it there.
 */
export async function structuredValues({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("structured-values"), { timeout: 10_000 }));
  await client.listTools();
  const started = Date.now();
  const refused = await expectFailure(check, "a structuredContent of 2 million values that does not match its outputSchema",
    client.callTool({ name: "mismatch" }), "limit-exceeded");
  check(/structuredContent|the result/.test(refused?.message ?? "") && /1048576 values/.test(refused?.message ?? ""),
    "… says what was past the bound on values", `${refused?.message} (${Date.now() - started} ms)`);
  await expectEcho(check, client);
  const matched = await expectSuccess(check, "a structuredContent of 2 million values that matches (the quick check accepts it)",
    client.callTool({ name: "match" }));
  check(matched?.structuredContent?.rows?.length === 2_000_000, "… arrives whole", String(matched?.structuredContent?.rows?.length));
  await expectEcho(check, client);
}

/** Pages each under maxMessageBytes, endless together: a walk of every page stops at four times the cap. */
export async function listBytes({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("list-bytes"), { timeout: 5_000, limits: { maxMessageBytes: MIB } }));
  const page = await expectSuccess(check, "one 900 KiB page under maxMessageBytes 1 MiB", client.listTools());
  check(page?.tools?.length === 2 && page.nextCursor === "1", "… is read whole", JSON.stringify(page?.tools?.map((t) => t.name)));
  const before = (await peer.stats("list-bytes")).pages;
  const started = Date.now();
  await expectFailure(check, "listAllTools over endless 900 KiB pages", client.listAllTools(), "limit-exceeded");
  const asked = (await peer.stats("list-bytes")).pages - before;
  check(asked === 5, "… stops at the fifth page, the one past 4 MiB, not at the thousandth", `${asked} pages in ${Date.now() - started} ms`);
  const names = [];
  for await (const tool of client.iterateTools()) {
    if (names.push(tool.name) === 8) break;
  }
  check(names.join() === "echo,filler-0,filler-1,filler-2,filler-3,filler-4,filler-5,filler-6",
    "iterateTools, one page at a time, reads past the listing's 4 MiB", names.join());
  await expectEcho(check, client);
}

export async function valueBomb({ check, peer, track }) {
  const count = 2_000_000;
  const sampling = () => ({ role: "assistant", model: "scripted", content: { type: "text", text: "ok" } });
  const client = track(await McpClient.connect(peer.url("value-bomb"), { timeout: 5_000, handlers: { sampling } }));
  const problems = [];
  client.addEventListener("error", (event) => problems.push(event.error));
  const tooMany = (e) => e?.name === "McpClientError" && e.kind === "limit-exceeded" && /more than 1048576 values/.test(e.message);

  const logged = await expectSuccess(check, "a log notification of two million zeros before a tool's result", client.callTool({ name: "log-bomb", arguments: { count } }));
  check(textOf(logged) === "after the log", "the result after it arrives", JSON.stringify(logged));
  check(problems.filter(tooMany).length === 1, "an error event of kind limit-exceeded says the message held too many values",
    problems.map((e) => `${e?.kind}: ${e?.message}`).join("; ") || "no error event");

  const asked = await expectSuccess(check, "a sampling request with two million zeros in its params", client.callTool({ name: "ask-bomb", arguments: { count } }));
  check(textOf(asked) === JSON.stringify({ error: -32600 }), "the server gets -32600, not the handler's answer", textOf(asked));
  check(problems.filter(tooMany).length === 2, "… and an error event says why", `${problems.filter(tooMany).length} such events`);

  const failed = await expectFailure(check, "an error answer whose data is two million zeros", client.callTool({ name: "error-bomb", arguments: { count } }), "limit-exceeded");
  check(/more than 1048576 values/.test(failed?.message ?? ""), "… says it held too many values", failed?.message);
  await expectEcho(check, client);
}

/**
 * Pages of tools renamed at every page, asked one at a time for ever: what the client learns of
 * them (output schemas, idempotent hints) is bounded by twice a walk's bytes, not by how long the
 * caller goes on asking. A page is 43 KB under a 64 KiB maxMessageBytes, so 512 KiB hold some 12.
 */
export async function renamedPages({ check, peer, track }) {
  const client = track(await McpClient.connect(peer.url("renamed-pages"), { timeout: 5_000, limits: { maxMessageBytes: 64 * 1024 } }));
  const started = Date.now();
  let read = 0;
  for await (const tool of client.iterateTools()) {
    if (tool.name !== "echo" && ++read === 200 * 8) break;
  }
  const pages = (await peer.stats("renamed-pages")).pages;
  check(pages === 200, "iterateTools reads 200 pages of renamed tools, one at a time", `${pages} pages in ${Date.now() - started} ms`);
  await expectFailure(check, "a tool of the last page read is still checked against its outputSchema",
    client.callTool({ name: "p199-7" }), "invalid-result");
  await expectSuccess(check, "a tool of the first page has been forgotten, as a whole listing would forget it",
    client.callTool({ name: "p0-0" }));
  await expectEcho(check, client);
}

/** An Mcp-Session-Id goes back out on every request: one of 8 KiB is taken, a longer one refused. */
export async function longSessionId({ check, peer, track }) {
  const longest = track(await McpClient.connect(peer.url("session-8k"), { timeout: 5_000 }));
  await expectEcho(check, longest, "a session whose Mcp-Session-Id is 8 KiB");
  const refused = await expectFailure(check, "connecting to a server whose Mcp-Session-Id is 8 KiB and a byte",
    McpClient.connect(peer.url("session-past-8k"), { timeout: 5_000 }), "protocol");
  check(/Mcp-Session-Id/.test(refused?.message ?? ""), "… says what was wrong", refused?.message);
  await expectEcho(check, longest, "the other client afterwards");
}
