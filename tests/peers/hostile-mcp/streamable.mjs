// A legacy Streamable HTTP endpoint (protocol 2025-11-25) written by hand, so an
// attack can answer each request exactly as it needs: JSON, an SSE stream that
// asks the client things first, a body larger than any client should read, or a
// GET stream with a hostile `retry`. What an SDK server would refuse to send is
// the point here.
import { randomBytes } from "node:crypto";
import { fillerSize, openEventStream, readBody, sendJson, sseEvent, writeHuge } from "./http.mjs";
import { NO_ANSWER, answerCommon, idLastTextEvent, initializeResult, isNotification, isRequest, isResponse, rpcError } from "./jsonrpc.mjs";

// How long a stream waits for the client to answer what the server asked.
const ANSWER_TIMEOUT_MS = 1_800;

/** The MCP endpoint of one attack: `attack` says what it lists and how its tools answer; `stats` is what tests read. */
export function streamableEndpoint(attack, stats) {
  const sessions = new Map(); // session id -> Map(server request id -> resolve)
  stats.initialize = 0;
  stats.gets = 0;

  return async function endpoint(req, res) {
    if (req.method === "GET") {
      stats.gets += 1;
      if (!attack.listen) return res.writeHead(405, { Allow: "POST, DELETE" }).end();
      return attack.listen(res, stats, req);
    }
    if (req.method === "DELETE") {
      sessions.delete(req.headers["mcp-session-id"]);
      return res.writeHead(200).end();
    }
    if (req.method !== "POST") return res.writeHead(405).end();

    const message = JSON.parse(await readBody(req));
    if (isRequest(message) && message.method === "initialize") {
      stats.initialize += 1;
      const id = randomBytes(12).toString("hex").padEnd(attack.sessionIdBytes ?? 0, "s");
      sessions.set(id, new Map());
      return sendJson(res, 200, { jsonrpc: "2.0", id: message.id, result: initializeResult(attack) }, { "Mcp-Session-Id": id });
    }
    if (stats.endSessions) {
      stats.endSessions = false;
      sessions.clear();
    }
    const waiting = sessions.get(req.headers["mcp-session-id"]);
    if (!waiting) return sendJson(res, 404, rpcError(message.id ?? null, -32001, "unknown session"));
    if (isNotification(message)) {
      // Held: no status, no body, until the client gives up on it.
      if (message.method === "notifications/initialized" && attack.holdInitialized?.(stats)) {
        stats.initializedHeld = (stats.initializedHeld ?? 0) + 1;
        res.on("close", () => {
          stats.initializedLetGo = (stats.initializedLetGo ?? 0) + 1;
        });
        return undefined;
      }
      return res.writeHead(202).end();
    }
    if (isResponse(message)) {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
      if (attack.holdReplies) {
        stats.repliesHeld = (stats.repliesHeld ?? 0) + 1;
        res.on("close", () => {
          stats.repliesLetGo = (stats.repliesLetGo ?? 0) + 1;
        });
        return undefined;
      }
      return res.writeHead(202).end();
    }
    const own = attack.answer?.(message, stats, res);
    if (own === NO_ANSWER) return undefined;
    if (own) return sendJson(res, 200, { jsonrpc: "2.0", id: message.id, result: own });
    const common = answerCommon(message, attack);
    if (common) return sendJson(res, 200, common);
    const tool = message.method === "tools/call" && attack.tools?.[message.params?.name];
    if (!tool) return sendJson(res, 200, rpcError(message.id, -32601, `no ${message.method} ${message.params?.name ?? ""} here`));
    await tool.call(message.params.arguments ?? {}, reply(res, message.id, waiting), stats);
  };
}

/** How a tool answers the tools/call request `id` on `res`. */
function reply(res, id, waiting) {
  let asked = 0;
  return {
    id,
    json: (result) => sendJson(res, 200, { jsonrpc: "2.0", id, result }),
    /** An application/json body of these bytes, as they are. */
    rawJson: (bytes) => res.writeHead(200, { "Content-Type": "application/json", "Content-Length": bytes.length }).end(bytes),
    /** An SSE response of one event whose data is these bytes, written in 16 KiB pieces. */
    async rawEvent(bytes) {
      openEventStream(res);
      const event = Buffer.concat([Buffer.from("event: message\ndata: "), bytes, Buffer.from("\n\n")]);
      for (let at = 0; at < event.length; at += 16 * 1024) res.write(event.subarray(at, at + 16 * 1024));
      res.end();
    },

    /** A JSON body of `bytes` (or more) carrying the result, streamed; `declareLength` sends Content-Length first. */
    hugeJson(bytes, record, { declareLength = false, bytesPerMs } = {}) {
      const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
      const tail = `"}]}}`;
      const length = Buffer.byteLength(head) + fillerSize(bytes) + tail.length;
      res.writeHead(200, { "Content-Type": "application/json", ...(declareLength ? { "Content-Length": length } : {}) });
      return writeHuge(res, { head, fillerBytes: bytes, tail, bytesPerMs }, record);
    },

    /** An SSE response: the tool may ask the client things before its result. */
    stream() {
      openEventStream(res);
      return {
        /** Sends a server request; resolves with the client's answer, or null if none came in time. */
        ask(method, params) {
          const requestId = `hostile-${++asked}`;
          res.write(sseEvent({ jsonrpc: "2.0", id: requestId, method, params }));
          return new Promise((resolve) => {
            const timer = setTimeout(() => resolve(null), ANSWER_TIMEOUT_MS);
            waiting.set(requestId, (answer) => {
              clearTimeout(timer);
              resolve(answer);
            });
          });
        },
        /** Sends one request twice under one id, in one write; resolves with every answer that came in time. */
        askTwice(method, params) {
          const requestId = `hostile-${++asked}`;
          const request = sseEvent({ jsonrpc: "2.0", id: requestId, method, params });
          res.write(request + request);
          const answers = [];
          return new Promise((resolve) => {
            const timer = setTimeout(() => resolve(answers), ANSWER_TIMEOUT_MS);
            const collect = (answer) => {
              answers.push(answer);
              if (answers.length === 2) {
                clearTimeout(timer);
                resolve(answers);
              } else {
                // The POST handler forgets the id once this returns: wait for the second answer after that.
                queueMicrotask(() => waiting.set(requestId, collect));
              }
            };
            waiting.set(requestId, collect);
          });
        },
        /** Sends many requests in one write, so the client gets them all at once. */
        askAll(method, params, count) {
          res.cork();
          const answers = Array.from({ length: count }, () => this.ask(method, params));
          process.nextTick(() => res.uncork());
          return Promise.all(answers);
        },
        /** Writes these bytes on the stream as they are. */
        raw(text) {
          res.write(text);
        },
        /** Ends the stream without a result. */
        end() {
          res.end();
        },
        /** Calls `then` once the client hangs up (or the stream ends). */
        onClose(then) {
          res.on("close", then);
        },
        result(result) {
          res.end(sseEvent({ jsonrpc: "2.0", id, result }));
        },
        /** The result as one event of `bytes` or more, its id last. */
        hugeResult(bytes, record, { bytesPerMs } = {}) {
          return writeHuge(res, { ...idLastTextEvent(id), fillerBytes: bytes, bytesPerMs }, record);
        },
      };
    },
  };
}
