// The 2026-07-28 era's change notifications come on a listen stream that connect() opens without
// waiting for it: a change made before the server has the stream is announced to no one. A test
// that counts notifications first has the client announce (`announce(client)`, a call after
// which the server notifies `method`) until it hears one, so that the stream is open before the
// listeners and iterators under test exist.
export async function connectedAndListening(McpClient, url, method, announce) {
  const client = await McpClient.connect(url);
  for (let attempt = 0; attempt < 10; attempt++) {
    const heard = new Promise((resolve) => client.addEventListener(method, () => resolve(true), { once: true }));
    await announce(client);
    if (await Promise.race([heard, new Promise((resolve) => setTimeout(() => resolve(false), 1_000))])) return client;
  }
  throw new Error(`no ${method} heard after 10 announcements`);
}
