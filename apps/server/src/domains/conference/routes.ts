import websocket from '@fastify/websocket';
import { API, WS_MAX_MESSAGE_BYTES } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { createMeetingProvider } from '../../adapters/meeting';
import { iceServersFor } from '../../adapters/meeting/turn';
import { createRealtime } from '../../adapters/realtime';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { liveSessionCounters } from '../trainings/attendance';
import { ConferenceHub } from './hub';
import * as svc from './service';

/** Live conference: HTTP calls from the permission table and the WebSocket /ws/conference. */
export function conferenceRoutes(app: FastifyInstance, deps: Deps): void {
  const realtime = createRealtime({ redisUrl: deps.config.REDIS_URL, prefix: deps.config.REDIS_KEY_PREFIX });
  const ctx: svc.ConferenceCtx = { deps, realtime, meeting: createMeetingProvider(deps.config) };
  const hub = new ConferenceHub(ctx, {
    graceMs: deps.config.CONFERENCE_GRACE_SECONDS * 1000,
    heartbeatMs: deps.config.CONFERENCE_HEARTBEAT_SECONDS * 1000,
    iceServers: (participantId) => iceServersFor(deps.config, participantId),
  });
  liveSessionCounters.set(deps, (trainingId, userId) => hub.liveSessions(trainingId, userId));
  app.decorate('conferenceHub', hub);

  defineCall(app, deps, API.getMeetingLink, ({ body, auth }) => svc.getMeetingLink(ctx, auth, body));
  defineCall(app, deps, API.endMeeting, ({ body, auth }) => svc.endMeeting(deps, auth, body));
  defineCall(app, deps, API.getTakeCallMeetingLink, ({ body, auth }) => svc.getTakeCallMeetingLink(ctx, auth, body.id));
  defineCall(app, deps, API.getMeetingStatus, ({ body }) => svc.getMeetingStatus(deps, body.meeting_id));
  defineCall(app, deps, API.getMeetingUrl, ({ body }) => svc.getMeetingUrl(ctx, body));
  defineCall(app, deps, API.getWhiteboard, ({ body, auth }) => svc.getWhiteboard(deps, auth, body.slug));
  defineCall(app, deps, API.saveWhiteboard, ({ body, auth }) => svc.saveWhiteboard(deps, auth, body));

  app.register(async (scope) => {
    // larger frames than WS_MAX_MESSAGE_BYTES get an error message; far larger ones close the socket (1009)
    await scope.register(websocket, {
      options: { maxPayload: WS_MAX_MESSAGE_BYTES * 2 },
      // on shutdown the sockets are told to reconnect (not closed silently); the server then stops
      // accepting upgrades and the close waits for the sockets to go
      preClose(done) {
        hub.restart();
        this.websocketServer.close(() => done());
      },
    });
    scope.get('/ws/conference', { websocket: true }, (socket) => hub.accept(socket));
  });
  app.addHook('onClose', async () => {
    await hub.close();
    await realtime.close();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    conferenceHub: ConferenceHub;
  }
}
