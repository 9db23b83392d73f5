import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';

/** What the sockets of one domain need from the app's WebSocket server. */
export interface SocketNeeds {
  /** the largest frame its clients send, in bytes (a larger one closes the socket with 1009) */
  maxPayload: number;
  /** the subprotocols it answers with, by preference (a client's other entries are never echoed) */
  protocols?: readonly string[];
}

/** Close code of a socket still open when the server closes: 1001 Going Away. */
export const SHUTDOWN_CLOSE_CODE = 1001;
/** a client that never answers the close handshake does not hold the shutdown up longer */
const SHUTDOWN_WAIT_MS = 2000;

/**
 * The app's one WebSocket server: @fastify/websocket registered once, at the root, before any route
 * (docs/decisions/0034-one-websocket-registration.md). Every registration of the plugin listens to
 * the HTTP server's 'upgrade' event and runs the upgrade through the app's one router, so a second
 * registration (one per domain) answers each upgrade again: it finds the socket taken by the first
 * and logs ERR_HTTP_SOCKET_ASSIGNED. At the root its hooks also end an upgrade made to a path that
 * is no socket (a call, a 404) instead of leaving the connection open after the HTTP answer.
 *
 * The options are shared: the largest frame any domain accepts, and the union of their protocols.
 * On shutdown the domains' `beforeSocketsClose` callbacks run first (the conference tells its
 * clients to reconnect), then every socket still open is closed with 1001, and the close waits for
 * them to go (at most SHUTDOWN_WAIT_MS).
 */
export async function installWebSockets(app: FastifyInstance, needs: readonly SocketNeeds[]): Promise<void> {
  const protocols = [...new Set(needs.flatMap((n) => n.protocols ?? []))];
  const closing: (() => void)[] = [];
  app.decorate('beforeSocketsClose', (fn: () => void) => {
    closing.push(fn);
  });
  // Fastify adds a HEAD route beside each GET route, cloned from the options the GET was declared
  // with; the plugin leaves that copy's handler as declared, so a plain HEAD request would run the
  // socket handler with the request in place of a socket (a 500, and on a lab path an unhandled
  // rejection, which ends the process). It answers what a GET without an upgrade gets: 404.
  app.addHook('onRoute', (route) => {
    if (route.method === 'HEAD' && route.websocket) route.handler = (_request, reply) => reply.code(404).send();
  });
  await app.register(websocket, {
    options: {
      maxPayload: Math.max(...needs.map((n) => n.maxPayload)),
      handleProtocols: (offered: Set<string>) => protocols.find((p) => offered.has(p)) ?? false,
    },
    preClose(done) {
      const wss = this.websocketServer;
      for (const fn of closing) fn();
      for (const client of wss.clients) {
        if (client.readyState === client.OPEN) client.close(SHUTDOWN_CLOSE_CODE, 'server shutdown');
      }
      const stragglers = setTimeout(() => {
        for (const client of wss.clients) client.terminate();
      }, SHUTDOWN_WAIT_MS);
      stragglers.unref();
      // no new upgrades from here; the callback waits for the open sockets to close
      wss.close(() => {
        clearTimeout(stragglers);
        done();
      });
    },
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** runs `fn` when the server closes, before its open sockets are closed */
    beforeSocketsClose(fn: () => void): void;
  }
}
