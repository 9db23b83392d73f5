import { API, type Role } from '@trainlab/contract';
import { json, type OtherEndpoint, RANGE, rangeAnswers, roles } from '../../platform/http/other-endpoints';

/**
 * A meeting recording's file, served with byte ranges to the page's <video>/<audio> element.
 * These endpoints' handlers speak HTTP directly, so this is their one description for the API document;
 * apps/server/src/other-endpoints.ts hands it, with the other domains', to platform/http/openapi.ts.
 */
export const RECORDING_ENDPOINTS: readonly OtherEndpoint[] = [
  {
    path: '/api/recording-file/{id}',
    methods: {
      get: {
        summary: 'A meeting recording’s file for <video>/<audio> elements, with byte ranges.',
        access: {
          who: `${roles(API.getRecording.access as readonly Role[])} who may see the training, by bearer token or by the signed ?t= token from /get-recording`,
          security: [{ bearer: [] }, {}],
        },
        params: { id: 'The recording id.' },
        query: { t: 'The short-lived signed token from /get-recording (instead of a bearer token).' },
        headers: { Range: RANGE },
        responses: {
          ...rangeAnswers('audio/webm, video/webm, audio/ogg or audio/flac (the recording’s type)'),
          401: json('Unauthenticated: no bearer token and no valid ?t= token.'),
          403: json('The account’s role may not see recordings.'),
          404: json('Recording Not Available: unknown, not ready, or of a training the caller may not see.'),
        },
      },
    },
  },
];
