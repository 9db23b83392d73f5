import { API, WS_MAX_MESSAGE_BYTES } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { JanusEngine } from '../../adapters/meeting/janus';
import { iceServersFor } from '../../adapters/meeting/turn';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import type { SocketNeeds } from '../../platform/http/websocket';
import { enqueue } from '../../platform/jobs';
import { liveSessionCounters } from '../trainings/attendance';
import { ConferenceHub } from './hub';
import { classSize } from './media-choice';
import { SERVER_RECORDING_JOB } from './server-recording';
import * as svc from './service';
import { SfuRelay } from './sfu';

/**
 * What /ws/conference needs of the app's WebSocket server: frames larger than WS_MAX_MESSAGE_BYTES
 * get an error message; far larger ones close the socket (1009).
 */
export const CONFERENCE_SOCKETS: SocketNeeds = { maxPayload: WS_MAX_MESSAGE_BYTES * 2 };

/** Live conference: HTTP calls from the permission table and the WebSocket /ws/conference. */
export function conferenceRoutes(app: FastifyInstance, deps: Deps): void {
  const { realtime, meeting } = deps;
  const ctx: svc.ConferenceCtx = { deps, realtime, meeting };
  const { config } = deps;
  // Janus: every room (MEETING_PROVIDER=janus), or the large classes (builtin with JANUS_URL)
  const janus =
    config.JANUS_URL && config.JANUS_ADMIN_SECRET && config.MEETING_PROVIDER !== 'jitsi'
      ? new JanusEngine({
          url: config.JANUS_URL,
          adminKey: config.JANUS_ADMIN_SECRET,
          apiSecret: config.JANUS_API_SECRET,
        })
      : null;
  let hubRef: ConferenceHub | null = null;
  const relay = janus
    ? new SfuRelay(janus, realtime, {
        maxVideo: config.SFU_MAX_SUBSCRIBED_VIDEO,
        recordDir: config.JANUS_RECORD_DIR ?? null,
        send: (connId, msg) => hubRef?.sendTo(connId, msg),
        broadcast: (key, msg) => hubRef?.broadcast(key, msg) ?? Promise.resolve(),
        recorded: async (recording) => {
          await enqueue(deps, SERVER_RECORDING_JOB, { ...recording });
        },
      })
    : null;
  const hub = new ConferenceHub(ctx, {
    graceMs: config.CONFERENCE_GRACE_SECONDS * 1000,
    heartbeatMs: config.CONFERENCE_HEARTBEAT_SECONDS * 1000,
    iceServers: (participantId) => iceServersFor(config, participantId),
    ...(relay
      ? {
          sfu: {
            relay,
            async choose({ trainingId }) {
              if (config.MEETING_PROVIDER === 'janus') return 'sfu';
              // builtin: only a training's class above the mesh size (take-call rooms are a few staff)
              if (trainingId === null) return 'mesh';
              return (await classSize(deps, trainingId)) > config.MESH_MAX_PARTICIPANTS ? 'sfu' : 'mesh';
            },
          },
        }
      : {}),
  });
  hubRef = hub;
  liveSessionCounters.set(deps, (trainingId, userId) => hub.liveSessions(trainingId, userId));
  app.decorate('conferenceHub', hub);
  app.decorate('janusEngine', janus);

  defineCall(app, deps, API.getMeetingLink, ({ body, auth }) => svc.getMeetingLink(ctx, auth, body));
  defineCall(app, deps, API.endMeeting, ({ body, auth }) => svc.endMeeting(deps, auth, body));
  defineCall(app, deps, API.getTakeCallMeetingLink, ({ body, auth }) => svc.getTakeCallMeetingLink(ctx, auth, body.id));
  defineCall(app, deps, API.getMeetingStatus, ({ body }) => svc.getMeetingStatus(deps, body.meeting_id));
  defineCall(app, deps, API.getMeetingUrl, ({ body }) => svc.getMeetingUrl(ctx, body));
  defineCall(app, deps, API.getWhiteboard, ({ body, auth }) => svc.getWhiteboard(deps, auth, body.slug));
  defineCall(app, deps, API.saveWhiteboard, ({ body, auth }) => svc.saveWhiteboard(deps, auth, body));

  // on shutdown the sockets are told to reconnect (not closed silently) before the server closes them
  app.beforeSocketsClose(() => hub.restart());
  app.get('/ws/conference', { websocket: true }, (socket) => hub.accept(socket));
  app.addHook('onClose', async () => {
    await hub.close();
    await janus?.close();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    conferenceHub: ConferenceHub;
    /** the Janus line when the Janus engine is configured (tests look into Janus through it) */
    janusEngine: JanusEngine | null;
  }
}
