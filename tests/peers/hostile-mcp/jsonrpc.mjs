// The plain part of the hostile peer's MCP: what every endpoint answers the same
// way, whichever transport carries it. An attack adds tools (`tools`), listed
// resources (`resources`), templates (`templates`) and what reading through a
// template returns (`readTemplated`), capabilities to declare (`capabilities`) and
// answers of its own to any request (`answer`); `echo` is always there, so a test
// can show the client still works after an attack.
export const PROTOCOL_VERSION = "2025-11-25";

export const ECHO = {
  name: "echo",
  description: "Answers with its message: the harmless call after each attack",
  inputSchema: { type: "object", properties: { message: { type: "string" } } },
};

export const isRequest = (m) => typeof m?.method === "string" && m.id !== undefined;
export const isNotification = (m) => typeof m?.method === "string" && m.id === undefined;
export const isResponse = (m) => m?.method === undefined && m?.id !== undefined && ("result" in m || "error" in m);

export const rpcError = (id, code, message) => ({ jsonrpc: "2.0", id, error: { code, message } });
/** What an attack's `answer` returns to leave a request without any answer: its response never comes. */
export const NO_ANSWER = Symbol("no answer");
export const textResult = (text) => ({ content: [{ type: "text", text }] });

/**
 * An SSE event carrying a text result for `id`, split around the text so a huge
 * one can be streamed in between. The id comes after the text: a client that
 * skips an oversized event can only learn whom it answered by scanning it all.
 */
export const idLastTextEvent = (id) => ({
  head: `data: {"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"`,
  tail: `"}]},"id":${JSON.stringify(id)}}\n\n`,
});

export function initializeResult(attack) {
  const capabilities = { tools: {}, ...attack.capabilities };
  if (attack.resources || attack.templates) capabilities.resources = {};
  return { protocolVersion: PROTOCOL_VERSION, capabilities, serverInfo: { name: `hostile ${attack.name}`, version: "1.0.0" } };
}

function read(uri, attack) {
  const listed = attack.resources?.find((r) => r.uri === uri);
  const text = listed ? listed.text : attack.readTemplated?.(uri);
  return text === undefined ? undefined : { contents: [{ uri, mimeType: "text/plain", text }] };
}

/** The response to `message` if it is one of the common requests, else undefined. */
export function answerCommon(message, attack) {
  const ok = (result) => ({ jsonrpc: "2.0", id: message.id, result });
  const params = message.params ?? {};
  switch (message.method) {
    case "ping":
      return ok({});
    case "tools/list":
      if (attack.listTools) return ok(attack.listTools(params.cursor));
      return ok({ tools: [ECHO, ...Object.values(attack.tools ?? {}).map((t) => t.definition)] });
    case "tools/call":
      return params.name === "echo" ? ok(textResult(`echo: ${params.arguments?.message ?? ""}`)) : undefined;
    case "resources/list":
      return ok({ resources: (attack.resources ?? []).map(({ uri, name }) => ({ uri, name, mimeType: "text/plain" })) });
    case "resources/templates/list":
      return ok({ resourceTemplates: attack.templates ?? [] });
    case "resources/read": {
      const found = read(params.uri, attack);
      return found ? ok(found) : rpcError(message.id, -32002, `no resource ${params.uri}`);
    }
    default:
      return undefined;
  }
}
