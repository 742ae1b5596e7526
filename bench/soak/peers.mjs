// The soak's peers on ports the OS picks: server-everything over Streamable HTTP
// (legacy, sessions, an event store for resumption) and the fault proxy in front
// of it. Both stay on loopback (tests/peers/loopback.mjs).
import { startPeer } from "../../tests/support/peer-process.mjs";

const LOOPBACK = ["--import", new URL("../../tests/peers/loopback.mjs", import.meta.url).href];

/** Resolves with `{ proxy, children }`: the proxy's origin, and the processes to kill. */
export async function startSoakPeers() {
  const children = [];
  try {
    const server = await startPeer("node_modules/@modelcontextprotocol/server-everything/dist/index.js", {
      args: ["streamableHttp"],
      nodeArgs: [...LOOPBACK, "--import", new URL("../../tests/peers/announce-port.mjs", import.meta.url).href],
    });
    children.push(server.child);
    const proxy = await startPeer("tests/peers/fault-proxy.mjs", { env: { UPSTREAM: server.origin } });
    children.push(proxy.child);
    return { proxy: proxy.origin, children };
  } catch (e) {
    stopSoakPeers(children);
    throw e;
  }
}

export function stopSoakPeers(children) {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
}
