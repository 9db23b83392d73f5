import { createHmac } from 'node:crypto';
import type { Config } from '../../platform/config';

/**
 * Short-lived TURN credentials in the TURN REST shared-secret scheme that coturn checks with
 * `use-auth-secret` / `static-auth-secret`: the username is `<expiry unix seconds>:<participant>`,
 * the credential is base64(HMAC-SHA1(secret, username)). The relay needs no user list and refuses a
 * username whose expiry has passed, so a credential copied out of a page stops working on its own.
 */
export interface TurnIceServer {
  urls: string[];
  username: string;
  credential: string;
}

export function turnCredential(secret: string, username: string): string {
  return createHmac('sha1', secret).update(username).digest('base64');
}

/** The participant's TURN entry for `ice_servers`, or null when no relay is configured. */
export function turnIceServer(
  config: Pick<Config, 'TURN_URLS' | 'TURN_SECRET' | 'TURN_TTL_SECONDS'>,
  participantId: string,
  now = Date.now(),
): TurnIceServer | null {
  if (!config.TURN_SECRET || config.TURN_URLS.length === 0) return null;
  const expiry = Math.floor(now / 1000) + config.TURN_TTL_SECONDS;
  // the separator is coturn's default (rest-api-separator ':'); the id itself must not carry one
  const username = `${expiry}:${participantId.replaceAll(':', '-')}`;
  return { urls: config.TURN_URLS, username, credential: turnCredential(config.TURN_SECRET, username) };
}

/** ICE_SERVERS plus the participant's own TURN credential when a relay is configured. */
export function iceServersFor(config: Config, participantId: string): Record<string, unknown>[] {
  const turn = turnIceServer(config, participantId);
  return turn ? [...config.ICE_SERVERS, { ...turn }] : config.ICE_SERVERS;
}
