// Shared by app.html and callback.html: the peer, and the auth settings both
// pages must agree on (the redirect URI is registered exactly).
export const MCP = "http://127.0.0.1:38060/mcp";
export const settings = {
  timeout: 20_000,
  auth: { redirectUri: `${location.origin}/callback.html`, clientName: "mcp-wasm browser test" },
};
export async function whoami(client) {
  const result = await client.callTool({ name: "whoami", arguments: {} });
  return result.content.map((c) => c.text).join("\n");
}
