// Starts a peer script of this repository (a test server, the benchmark server)
// on a port the OS picks, and resolves once its "listening on http://127.0.0.1:<port>"
// line says where: a fixed port in the ephemeral range can be held by an
// outgoing connection by the time a late test starts.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

// The peers still running: a test process that ends, even on an uncaught error or an unhandled
// rejection (which skip its own cleanup), takes them with it rather than leave them to outlive the run.
const running = new Set();
process.once("exit", () => {
  for (const child of running) child.kill();
});

/**
 * Resolves with `{ child, origin, port }`; the caller kills `child` when done. `args` follow the
 * script, `nodeArgs` (e.g. `--import` preloads) precede it, `env` adds to the environment.
 */
export function startPeer(script, { timeoutMs = 15_000, args = [], nodeArgs = [], env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, path.join(repo, script), ...args], {
      env: { ...process.env, ...env, PORT: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    running.add(child);
    child.once("exit", () => running.delete(child));
    const timer = setTimeout(() => reject(new Error(`${script} did not start within ${timeoutMs} ms`)), timeoutMs);
    child.stderr.on("data", (d) => {
      const origin = String(d).match(/listening on (http:\/\/127\.0\.0\.1:(\d+))/);
      if (origin) {
        clearTimeout(timer);
        resolve({ child, origin: origin[1], port: Number(origin[2]) });
      }
    });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`${script} exited with ${code}`)); });
  });
}
