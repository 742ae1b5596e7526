// Preload (`node --import ./tests/peers/loopback.mjs …`) that keeps test peers on loopback.
//
// server-everything calls `app.listen(PORT)` with no host, which binds every interface and
// offers no option to change it. Test peers must not be reachable from outside the machine,
// so when a server is asked to listen on a bare port (number or numeric string, as `PORT`
// arrives from the environment) we add host 127.0.0.1. Calls that already name a host, a
// path (Unix socket) or a handle are left alone. http.Server inherits `listen` from
// net.Server, so patching net.Server covers Express and node:http alike.
import net from "node:net";

const HOST = "127.0.0.1";
const listen = net.Server.prototype.listen;
const isPort = (v) => typeof v === "number" || (typeof v === "string" && v !== "" && /^\d+$/.test(v));

net.Server.prototype.listen = function (...args) {
  const [first, second] = args;
  if (isPort(first) && typeof second !== "string") {
    args.splice(1, 0, HOST); // listen(port, host, [backlog], [callback])
  } else if (first && typeof first === "object" && !("fd" in first) && !("_handle" in first) &&
             first.path === undefined && first.host === undefined) {
    args[0] = { ...first, host: HOST }; // listen({ port, … })
  }
  return listen.apply(this, args);
};
