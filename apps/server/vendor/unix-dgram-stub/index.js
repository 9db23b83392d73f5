// janode's Unix-socket transport is never used (JANUS_URL must be ws:// or wss://).
exports.createSocket = function createSocket() {
  throw new Error('Janus over a Unix socket is not supported here: set JANUS_URL to a ws:// or wss:// address');
};
