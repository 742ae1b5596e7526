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
    /** The stats, read again every 50 ms until `ready(stats)` holds, for at most `ms`; the last read. */
    async statsWhen(attack, ready, ms) {
      let stats = await this.stats(attack);
      for (let waited = 0; !ready(stats) && waited < ms; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        stats = await this.stats(attack);
      }
      return stats;
    },
    /** Changes an OAuth world: `{ authorizationServer, tokenRedirect, expireAccessTokens }`. */
    async control(attack, change) {
      const response = await fetch(`${base(attack)}/__control`, { method: "POST", body: JSON.stringify(change) });
      if (!response.ok) throw new Error(`__control answered ${response.status}`);
      return response.json();
    },
  };
}
