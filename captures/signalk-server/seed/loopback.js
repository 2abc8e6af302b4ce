// Preloaded into signalk-server (NODE_OPTIONS=--require): its HTTP server listens on every interface
// (`server.listen(port)`); a listen naming a port and no host is bound to 127.0.0.1 instead, so the
// recording and the live tests never open a port beyond loopback.
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) {
    args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
