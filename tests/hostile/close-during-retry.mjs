// For the hostile tier's Node-only check (scenarios/streams.mjs): connects to the
// retry-overflow attack at argv[2], waits until the client has scheduled its
// reconnection after the server's huge `retry`, closes the client and prints
// `closed <delay>`. Nothing else is left to keep this process alive, so it
// should exit at once.
import { McpClient } from "mcp-wasm";

const client = await McpClient.connect(process.argv[2], { timeout: 5_000 });
const delay = await new Promise((resolve) => {
  client.addEventListener("reconnecting", (event) => resolve(event.delay), { once: true });
  setTimeout(() => resolve("none"), 2_000).unref();
});
await client.close();
console.log(`closed ${delay}`);
