// A scripted OpenAI-compatible Chat Completions endpoint for the demo's chat
// test, on 127.0.0.1 (CORS open, as a browser page calls it directly):
//   POST /v1/chat/completions
//     last message from the user -> calls the offered tool whose name ends in
//       "get-sum" with {a: 2, b: 3} (fails the request if none is offered);
//     last message a tool result -> answers "The tool says: <its text>";
//     no tools offered (a sampling draft) -> answers "Drafted: <the last message>".
//   GET /__requests -> every request body received, for assertions.
//
//   PORT=38070 node tests/peers/scripted-llm.mjs
import http from "node:http";

const PORT = Number(process.env.PORT ?? 38070);
const requests = [];

function reply(message) {
  return { id: `chatcmpl-${requests.length}`, object: "chat.completion", created: Math.floor(Date.now() / 1000), model: "scripted-1",
    choices: [{ index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop" }] };
}

function answer(body) {
  const last = body.messages?.at(-1);
  if (last?.role === "tool") {
    const text = typeof last.content === "string" ? last.content : (last.content ?? []).map((p) => p.text ?? "").join("");
    return reply({ role: "assistant", content: `The tool says: ${text}` });
  }
  if (!body.tools?.length) return reply({ role: "assistant", content: `Drafted: ${typeof last?.content === "string" ? last.content : ""}` });
  const tool = (body.tools ?? []).map((t) => t.function?.name).find((n) => /get-sum$/.test(n ?? ""));
  if (!tool) return null;
  return reply({ role: "assistant", content: null, tool_calls: [{ id: `call_${requests.length}`, type: "function", function: { name: tool, arguments: "{\"a\":2,\"b\":3}" } }] });
}

http.createServer(async (req, res) => {
  res.setHeader("Access-Control-Allow-Origin", "*");
  if (req.method === "OPTIONS") {
    res.writeHead(204, { "Access-Control-Allow-Methods": "POST, GET", "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*" });
    return res.end();
  }
  if (req.method === "GET" && req.url === "/__requests") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(requests));
  }
  if (req.method !== "POST" || req.url !== "/v1/chat/completions") return res.writeHead(404).end();
  const chunks = [];
  for await (const c of req) chunks.push(c);
  let body;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    res.writeHead(400, { "content-type": "application/json" });
    return res.end(JSON.stringify({ error: { message: "not JSON" } }));
  }
  requests.push({ body, authorization: req.headers.authorization ?? null });
  const out = answer(body);
  res.writeHead(out ? 200 : 400, { "content-type": "application/json" });
  res.end(JSON.stringify(out ?? { error: { message: "no get-sum tool was offered" } }));
}).listen(PORT, "127.0.0.1", function onListening() {
  // PORT=0 picks a free port; the line says which.
  console.error(`scripted-llm listening on http://127.0.0.1:${this.address().port}/v1`);
});
