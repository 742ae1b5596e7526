// Shared by app.html and callback.html: the peer, and the auth settings both
// pages must agree on (the redirect URI is registered exactly).
// The runner names the peer in app.html's query (?peer=); the tab keeps it for
// callback.html, which a redirect reaches with the authorization server's query instead.
const named = new URLSearchParams(location.search).get("peer");
if (named) sessionStorage.setItem("test-oauth-peer", named);
export const MCP = sessionStorage.getItem("test-oauth-peer");
export const settings = {
  timeout: 20_000,
  auth: { redirectUri: `${location.origin}/callback.html`, clientName: "mcp-wasm browser test" },
};
export async function whoami(client) {
  const result = await client.callTool({ name: "whoami", arguments: {} });
  return result.content.map((c) => c.text).join("\n");
}
