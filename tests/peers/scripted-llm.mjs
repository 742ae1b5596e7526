// A scripted LLM endpoint for the demo's chat test, on 127.0.0.1 (CORS open,
// as a browser page calls it directly), in three APIs' wire shapes:
//   POST /v1/chat/completions                        OpenAI Chat Completions
//   POST /v1/messages                                Anthropic Messages
//   POST /v1beta/models/<model>:generateContent      Gemini
// Each one, by the last turn it is sent:
//     from the user -> calls the offered tool whose name ends in "get-sum"
//       with {a: 2, b: 3} (fails the request if none is offered);
//     a tool result -> answers "The tool says: <its text>";
//     no tools offered (a sampling draft) -> answers "Drafted: <the last message>".
//   GET /__requests -> every request received: API, path, body and key headers.
//
//   PORT=38070 node tests/peers/scripted-llm.mjs
import http from "node:http";

const PORT = Number(process.env.PORT ?? 38070);
const requests = [];

function reply(message) {
  return { id: `chatcmpl-${requests.length}`, object: "chat.completion", created: Math.floor(Date.now() / 1000), model: "scripted-1",
    choices: [{ index: 0, message, finish_reason: message.tool_calls ? "tool_calls" : "stop" }] };
}

// OpenAI Chat Completions.
function answerChat(body) {
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

// Anthropic Messages: the reply is the assistant message itself.
function answerAnthropic(body) {
  const message = (content, stop) => ({ id: `msg_${requests.length}`, type: "message", role: "assistant", model: body.model, content,
    stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } });
  const last = body.messages?.at(-1);
  const blocks = Array.isArray(last?.content) ? last.content : [{ type: "text", text: String(last?.content ?? "") }];
  const result = blocks.find((b) => b.type === "tool_result");
  if (result) {
    const text = typeof result.content === "string" ? result.content : (result.content ?? []).map((c) => c.text ?? "").join("");
    return message([{ type: "text", text: `The tool says: ${text}` }], "end_turn");
  }
  if (!body.tools?.length) return message([{ type: "text", text: `Drafted: ${blocks.map((b) => b.text ?? "").join("")}` }], "end_turn");
  const tool = body.tools.map((t) => t.name).find((n) => /get-sum$/.test(n ?? ""));
  if (!tool) return null;
  return message([{ type: "text", text: "Let me add those." }, { type: "tool_use", id: `toolu_${requests.length}`, name: tool, input: { a: 2, b: 3 } }], "tool_use");
}

// Gemini generateContent: one candidate.
function answerGemini(body) {
  const reply = (parts) => ({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], modelVersion: "scripted-1" });
  const parts = body.contents?.at(-1)?.parts ?? [];
  const response = parts.find((p) => p.functionResponse)?.functionResponse?.response;
  if (response) return reply([{ text: `The tool says: ${response.output ?? response.error ?? JSON.stringify(response)}` }]);
  const declared = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
  if (!declared.length) return reply([{ text: `Drafted: ${parts.map((p) => p.text ?? "").join("")}` }]);
  const tool = declared.map((d) => d.name).find((n) => /get-sum$/.test(n ?? ""));
  if (!tool) return null;
  return reply([{ functionCall: { name: tool, args: { a: 2, b: 3 } } }]);
}

// Which API a POST path speaks, and how it answers.
function route(url) {
  if (url === "/v1/chat/completions") return { api: "openai-chat", answer: answerChat };
  if (url === "/v1/messages") return { api: "anthropic", answer: answerAnthropic };
  if (/^\/v1beta\/models\/[^/:]+:generateContent$/.test(url)) return { api: "gemini", answer: answerGemini };
  return null;
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
  const api = req.method === "POST" ? route(req.url) : null;
  if (!api) return res.writeHead(404).end();
  const chunks = [];
  for await (const c of req) chunks.push(c);
  let body;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    res.writeHead(400, { "content-type": "application/json" });
    return res.end(JSON.stringify({ error: { message: "not JSON" } }));
  }
  requests.push({ api: api.api, path: req.url, body, authorization: req.headers.authorization ?? null,
    apiKey: req.headers["x-api-key"] ?? req.headers["x-goog-api-key"] ?? null, anthropicVersion: req.headers["anthropic-version"] ?? null });
  const out = api.answer(body);
  res.writeHead(out ? 200 : 400, { "content-type": "application/json" });
  res.end(JSON.stringify(out ?? { error: { message: "no get-sum tool was offered" } }));
}).listen(PORT, "127.0.0.1", function onListening() {
  // PORT=0 picks a free port; the line says which.
  console.error(`scripted-llm listening on http://127.0.0.1:${this.address().port}/v1`);
});
