import * as GuacamoleModule from 'guacamole-common-js';
import { CLOSE_REASONS } from './remote';

/**
 * guacamole-common-js ships one object as its ES module's default export while its typings
 * describe named exports: take whichever the bundler gives.
 */
export const Guacamole = ((GuacamoleModule as unknown as { default?: typeof GuacamoleModule }).default ??
  GuacamoleModule) as typeof GuacamoleModule;

/** Guacamole status codes our /ws/labs/rdp socket closes with, in the words of the lab screens. */
export const RDP_CLOSE_REASONS: Record<number, string> = {
  769: CLOSE_REASONS[4401]!,
  516: CLOSE_REASONS[4404]!,
  517: CLOSE_REASONS[4409]!,
  519: 'The remote desktop could not be reached: the gateway or the VM did not answer.',
};

/**
 * A Guacamole.WebSocketTunnel to /ws/labs/rdp/{name}. The library opens its socket with the
 * single subprotocol `guacamole`; our server reads the session token from a second subprotocol
 * `auth.<token>` (never a URL), so the socket is opened with WebSocket swapped, for that one
 * synchronous call, for one that adds it.
 */
export function rdpTunnel(name: string, token: string) {
  const tunnel = new Guacamole.WebSocketTunnel(`/ws/labs/rdp/${encodeURIComponent(name)}`);
  const connect = tunnel.connect.bind(tunnel);
  tunnel.connect = (data?: string) => {
    const Native = globalThis.WebSocket;
    class WithToken extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, [...[protocols ?? []].flat(), `auth.${token}`]);
      }
    }
    globalThis.WebSocket = WithToken;
    try {
      connect(data);
    } finally {
      globalThis.WebSocket = Native;
    }
  };
  return tunnel;
}
