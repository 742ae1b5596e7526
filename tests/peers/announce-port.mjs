// Preload (`node --import ./tests/peers/announce-port.mjs …`) for a third-party peer that
// cannot say where it listens: server-everything prints "listening on port 0" when PORT=0
// asks the OS for a port. Once a server is listening, this prints the line that
// tests/support/peer-process.mjs waits for, with the port the OS picked.
import net from "node:net";

const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function (...args) {
  this.once("listening", () => {
    const address = this.address();
    if (address && typeof address === "object") console.error(`listening on http://127.0.0.1:${address.port}`);
  });
  return listen.apply(this, args);
};
