import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import * as svc from './service';
import { PlaybackTokens } from './tokens';

/**
 * Meeting recordings: the POST calls of the permission table, and GET /api/recording-file/:id
 * (byte ranges, bearer token or signed ?t= token) for <video>/<audio> elements.
 */
export function recordingRoutes(app: FastifyInstance, deps: Deps): void {
  const ctx: svc.RecordingCtx = {
    deps,
    files: deps.files,
    tokens: new PlaybackTokens(() => deps.secrets.get('RECORDING_URL_SECRET')),
  };
  defineCall(app, deps, API.recordingStart, ({ body, auth }) => svc.startRecording(ctx, auth, body));
  defineCall(app, deps, API.recordingChunk, ({ auth, request }) => svc.appendChunk(ctx, auth, request));
  defineCall(app, deps, API.recordingFinish, ({ body, auth }) => svc.finishRecording(ctx, auth, body.id));
  defineCall(app, deps, API.getRecording, ({ body, auth }) => svc.getRecording(ctx, auth, body.id));
  app.get('/api/recording-file/:id', (request, reply) => svc.sendRecordingFile(ctx, request, reply));
}
