// The raw-fetch floor: the same HTTP exchanges as an MCP client, written by
// hand (JSON bodies, the session header, JSON.parse of the answer), with no
// checks at all. Nothing can do the exchange with less work.
const VERSION = "2025-11-25";

export class Floor {
  constructor(url) {
    this.url = url;
    this.session = null;
    this.id = 0;
  }

  headers() {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": VERSION };
    if (this.session) headers["mcp-session-id"] = this.session;
    return headers;
  }

  async connect() {
    const response = await fetch(this.url, { method: "POST", headers: this.headers(), body: JSON.stringify({ jsonrpc: "2.0", id: ++this.id, method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "floor", version: "1" } } }) });
    this.session = response.headers.get("mcp-session-id");
    await response.text(); // JSON, or one SSE event on the streaming endpoint
    await (await fetch(this.url, { method: "POST", headers: this.headers(), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
    return this;
  }

  async request(method, params) {
    const response = await fetch(this.url, { method: "POST", headers: this.headers(), body: JSON.stringify({ jsonrpc: "2.0", id: ++this.id, method, params }) });
    return (await response.json()).result;
  }

  /** The answer's bytes as text, for timing JSON.parse alone. */
  async requestText(method, params) {
    const response = await fetch(this.url, { method: "POST", headers: this.headers(), body: JSON.stringify({ jsonrpc: "2.0", id: ++this.id, method, params }) });
    return response.text();
  }

  callTool(name, args) {
    return this.request("tools/call", { name, arguments: args });
  }

  // An SSE response: progress events counted as they are parsed, then the result.
  async callToolWithProgress(name, args, onprogress) {
    const response = await fetch(this.url, { method: "POST", headers: this.headers(),
      body: JSON.stringify({ jsonrpc: "2.0", id: ++this.id, method: "tools/call", params: { name, arguments: args, _meta: { progressToken: 1 } } }) });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended without a result");
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
        if (!data) continue;
        const message = JSON.parse(data);
        if (message.method === "notifications/progress") onprogress(message.params);
        else if (message.id !== undefined) {
          reader.cancel().catch(() => {});
          return message.result;
        }
      }
    }
  }

  async close() {
    if (this.session) await fetch(this.url, { method: "DELETE", headers: this.headers() }).catch(() => {});
  }
}
