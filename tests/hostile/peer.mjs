// A scenario's view of the hostile peer (tests/peers/hostile-mcp.mjs): its own
// namespace, /<run>/<attack>/, so what the server records belongs to that
// scenario in that runtime alone.

/** The peer at `origin`, seen by the run labelled `run`. */
export function peerOf(origin, run) {
  const base = (attack) => `${origin}/${run}/${attack}`;
  return {
    origin,
    /** The URL of an attack's endpoint: `mcp` (Streamable HTTP), `sse` (HTTP+SSE), `as1`… */
    url: (attack, endpoint = "mcp") => `${base(attack)}/${endpoint}`,
    /** What the server saw on this attack's paths. */
    async stats(attack) {
      const response = await fetch(`${base(attack)}/__stats`);
      return response.json();
    },
    /** Changes an OAuth world: `{ authorizationServer, tokenRedirect, expireAccessTokens }`. */
    async control(attack, change) {
      const response = await fetch(`${base(attack)}/__control`, { method: "POST", body: JSON.stringify(change) });
      if (!response.ok) throw new Error(`__control answered ${response.status}`);
      return response.json();
    },
  };
}
