// The 2024-11-05 HTTP+SSE transport of the hostile peer: GET <base>/sse opens the
// one stream every answer travels on (its first event, `endpoint`, names
// <base>/message?sessionId=…), and POSTs to that endpoint are only acknowledged.
// Its attack: the answer to tools/call `huge` is one event of args.bytes on that
// shared stream, its id after the huge text, so a client that caps events must
// skip it, still find whom it answered, and keep reading the stream; in
// multi-byte characters if asked, to catch a cap that counts characters. And
// tools/call `held-post` gets no answer to its POST at all.
import { randomBytes } from "node:crypto";
import { openEventStream, readBody, sseEvent, writeHuge } from "./http.mjs";
import { answerCommon, idLastTextEvent, initializeResult, isNotification, isRequest, rpcError } from "./jsonrpc.mjs";

const HUGE = {
  name: "huge",
  description: "Answers with one event of args.bytes of args.character (default a) on the shared stream",
  inputSchema: { type: "object", properties: { bytes: { type: "number" }, character: { type: "string" } } },
};
// Characters of 2, 3 and 4 bytes in UTF-8 but one or two UTF-16 units: a cap on
// bytes that counts string length lets up to three times as many bytes through.
const MULTI_BYTE = ["é", "€", "😀"];
const HELD_POST = { name: "held-post", description: "Its POST is never answered, not even with 202", inputSchema: { type: "object" } };
// The huge call is answered here, not by answerCommon: it is only listed there.
const ATTACK = { name: "legacy-sse", tools: { huge: { definition: HUGE }, "held-post": { definition: HELD_POST } } };

export function legacySseEndpoint(base, stats) {
  const streams = new Map(); // session id -> { res, queue }
  Object.assign(stats, { streamsOpened: 0, streamsClosed: 0, huge: [], heldPosts: 0, heldPostsClosed: 0 });

  // Writes to the shared stream one after another, so a long event is never cut into.
  const send = (stream, write) => (stream.queue = stream.queue.then(write, write));

  function answer(stream, message) {
    if (isRequest(message) && message.method === "initialize") {
      return send(stream, () => stream.res.write(sseEvent({ jsonrpc: "2.0", id: message.id, result: initializeResult(ATTACK) })));
    }
    if (message.method === "tools/call" && message.params?.name === "huge") {
      const record = {};
      stats.huge.push(record);
      const args = message.params.arguments ?? {};
      const character = MULTI_BYTE.includes(args.character) ? args.character : "a";
      const event = { ...idLastTextEvent(message.id), fillerBytes: args.bytes, character, end: false };
      return send(stream, () => writeHuge(stream.res, event, record));
    }
    const common = answerCommon(message, ATTACK);
    return send(stream, () => stream.res.write(sseEvent(common ?? rpcError(message.id, -32601, `no ${message.method} here`))));
  }

  return async function endpoint(req, res, rest, url) {
    if (req.method === "GET" && rest === "sse") {
      const id = randomBytes(12).toString("hex");
      openEventStream(res);
      stats.streamsOpened += 1;
      streams.set(id, { res, queue: Promise.resolve() });
      res.on("close", () => {
        stats.streamsClosed += 1;
        streams.delete(id);
      });
      // `?endpointBytes=<n>` pads the endpoint's URL to n bytes, for the client's bound on its length.
      const named = `${base}/message?sessionId=${id}`;
      const padding = Number(url.searchParams.get("endpointBytes") ?? 0) - named.length - "&pad=".length;
      return res.write(`event: endpoint\ndata: ${padding > 0 ? `${named}&pad=${"x".repeat(padding)}` : named}\n\n`);
    }
    if (req.method === "POST" && rest === "message") {
      const stream = streams.get(url.searchParams.get("sessionId"));
      if (!stream) return res.writeHead(404).end("unknown session");
      const message = JSON.parse(await readBody(req));
      if (message.method === "tools/call" && message.params?.name === "held-post") {
        stats.heldPosts += 1;
        res.on("close", () => { stats.heldPostsClosed += 1; });
        return undefined;
      }
      res.writeHead(202).end("Accepted");
      if (!isNotification(message)) await answer(stream, message);
      return undefined;
    }
    return res.writeHead(404).end();
  };
}

