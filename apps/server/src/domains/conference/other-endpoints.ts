import { clientMessage, serverMessage, WS_MAX_MESSAGE_BYTES } from '@trainlab/contract';
import { NO_UPGRADE, type OtherEndpoint, switching, upgrade } from '../../platform/http/other-endpoints';

/**
 * The live conference's WebSocket.
 * These endpoints' handlers speak HTTP directly, so this is their one description for the API document;
 * apps/server/src/other-endpoints.ts hands it, with the other domains', to platform/http/openapi.ts.
 */
export const CONFERENCE_ENDPOINTS: readonly OtherEndpoint[] = [
  {
    path: '/ws/conference',
    methods: {
      get: {
        summary: 'The live conference: signalling, chat, whiteboard, hands, recording and SFU negotiation.',
        access: {
          who: 'Anyone may connect; the first message {"type":"auth","token"} (a session) or {"type":"auth","ticket"} (a guest ticket) decides',
          security: [],
        },
        headers: upgrade(),
        responses: { 101: switching(), 404: NO_UPGRADE },
        websocket: {
          subprotocols: 'none',
          messages: `JSON text frames (docs/conference-protocol.md); a frame over ${WS_MAX_MESSAGE_BYTES} bytes gets an error message.`,
          closeCodes: {
            4401: 'unauthenticated',
            4409: 'the same account already has this room open',
            4000: 'the meeting was ended',
            1012: 'server restart: reconnect',
            1001: 'server shutdown',
            1009: 'a frame far over the limit',
          },
          client: clientMessage,
          server: serverMessage,
        },
      },
    },
  },
];
