import { SignJWT } from 'jose';
import type { Config } from '../../platform/config';
import type { MeetingProvider } from '../../platform/ports/meeting';
import { iceServersFor } from './turn';

/**
 * Meeting providers behind one interface (architecture: 'live conference').
 * - builtin: WebRTC rooms in the browser, signalled over our own WebSocket /ws/conference; with
 *   TURN_URLS + TURN_SECRET each participant gets its own short-lived TURN credential (turn.ts).
 * - janus: the built-in page and rules, with media through a Janus VideoRoom (janus.ts; the hub's
 *   sfu relay drives it); the same answer as builtin.
 * - jitsi: Jitsi Meet's IFrame API on JITSI_DOMAIN; with JITSI_APP_ID/SECRET a JWT per participant
 *   (HS256) carries the moderator claim.
 */
export type { MeetingJoin, MeetingParticipant, MeetingProvider, MeetingRoom } from '../../platform/ports/meeting';

export function createMeetingProvider(config: Config): MeetingProvider {
  if (config.MEETING_PROVIDER === 'jitsi') {
    if (!config.JITSI_DOMAIN) throw new Error('MEETING_PROVIDER=jitsi needs JITSI_DOMAIN');
    return jitsiProvider(config);
  }
  return builtinProvider(config, config.MEETING_PROVIDER === 'janus' ? 'janus' : 'builtin');
}

/** builtin and janus: our own conference page; which media a room uses is told in `joined.media`. */
function builtinProvider(config: Config, name: 'builtin' | 'janus'): MeetingProvider {
  const wsUrl = `${config.PUBLIC_URL.replace(/^http/, 'ws')}/ws/conference`;
  return {
    name,
    async join(room, who, opts) {
      const url = opts.guestPage
        ? `${config.PUBLIC_URL}/public/conference/${encodeURIComponent(room.room)}`
        : `${config.PUBLIC_URL}/conference/${encodeURIComponent(room.slug)}`;
      return { url, provider: name, room: room.room, ws_url: wsUrl, ice_servers: iceServersFor(config, who.id) };
    },
  };
}

export const JITSI_JWT_TTL_SECONDS = 6 * 3600;

function jitsiProvider(config: Config): MeetingProvider {
  const domain = config.JITSI_DOMAIN!;
  const secret = config.JITSI_APP_SECRET ? new TextEncoder().encode(config.JITSI_APP_SECRET) : null;
  return {
    name: 'jitsi',
    async join(room, who) {
      let jwt: string | undefined;
      if (secret && config.JITSI_APP_ID) {
        jwt = await new SignJWT({
          room: room.room,
          context: { user: { id: who.id, name: who.name, email: who.email, moderator: who.moderator } },
        })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setIssuer(config.JITSI_APP_ID)
          .setAudience('jitsi')
          .setSubject(domain)
          .setIssuedAt()
          .setExpirationTime(`${JITSI_JWT_TTL_SECONDS}s`)
          .sign(secret);
      }
      const url = `https://${domain}/${encodeURIComponent(room.room)}${jwt ? `?jwt=${jwt}` : ''}`;
      return { url, provider: 'jitsi', room: room.room, domain, ...(jwt ? { jwt } : {}) };
    },
  };
}
