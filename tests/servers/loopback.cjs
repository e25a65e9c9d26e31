// Preloaded with `node -r` so that a test server listens on 127.0.0.1 only, whatever host
// (or none) it asks for: tests never open ports beyond loopback.
const net = require("net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    const callbacks = args.slice(1).filter((a) => typeof a === "function");
    return listen.call(this, Number(first), "127.0.0.1", ...callbacks);
  }
  if (first && typeof first === "object" && !Array.isArray(first)) {
    args[0] = { ...first, host: "127.0.0.1" };
  }
  return listen.apply(this, args);
};

// The port a server got (ask for 0 and the system picks one) is said on stdout, so the
// test harness never guesses a free port for it.
const announce = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once("listening", () => {
    const address = this.address();
    if (address && typeof address === "object") {
      process.stdout.write(`loopback: listening on 127.0.0.1:${address.port}\n`);
    }
  });
  return announce.apply(this, args);
};
