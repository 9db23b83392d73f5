import { type Access, NO_UPGRADE, type OtherEndpoint, switching, upgrade } from '../../platform/http/other-endpoints';

const LAB_CLOSE_CODES = {
  4401: 'no live session in the auth.<token> subprotocol',
  4404: 'no such lab, or not the caller’s',
  4409: 'the lab is not started',
  4503: 'the lab engine (or the gateway) cannot reach the lab',
  1011: 'server error',
};
const labAccess = (extra = ''): Access => ({
  who: `Bearer session token sent as the WebSocket subprotocol auth.<token>: the learner the lab is assigned to, or a manager of the lab’s tenant${extra}`,
  security: [],
});
const LAB_NAME = { name: 'The lab’s vm_name.' };

/**
 * A lab's WebSockets: its terminal, its desktop (VNC) and a Windows lab's desktop (RDP through guacd).
 * These endpoints' handlers speak HTTP directly, so this is their one description for the API document;
 * apps/server/src/other-endpoints.ts hands it, with the other domains', to platform/http/openapi.ts.
 */
export const LAB_ENDPOINTS: readonly OtherEndpoint[] = [
  {
    path: '/ws/labs/terminal/{name}',
    methods: {
      get: {
        summary: 'A lab’s terminal: xterm.js ⇄ an SSH shell on the lab.',
        access: labAccess(),
        params: LAB_NAME,
        query: { cols: 'Terminal columns (default 120).', rows: 'Terminal rows (default 32).' },
        headers: upgrade('tl-terminal, auth.<token>'),
        responses: { 101: switching('tl-terminal'), 404: NO_UPGRADE },
        websocket: {
          subprotocols: 'tl-terminal, auth.<token>',
          messages:
            'Client: binary keystrokes, or JSON {"type":"data","data"} / {"type":"resize","cols","rows"}. Server: binary terminal output.',
          closeCodes: LAB_CLOSE_CODES,
        },
      },
    },
  },
  {
    path: '/ws/labs/vnc/{name}',
    methods: {
      get: {
        summary: 'A lab’s desktop: noVNC ⇄ the lab’s VNC server (a WebSocket-to-TCP proxy).',
        access: labAccess('; with ?view, a moderator of that training watching (input dropped)'),
        params: LAB_NAME,
        query: { view: 'A training slug: watch a learner’s desktop as its moderator, view only.' },
        headers: upgrade('binary, auth.<token>'),
        responses: { 101: switching('binary'), 404: NO_UPGRADE },
        websocket: {
          subprotocols: 'binary, auth.<token>',
          messages: 'Binary RFB both ways.',
          closeCodes: LAB_CLOSE_CODES,
        },
      },
    },
  },
  {
    path: '/ws/labs/rdp/{name}',
    methods: {
      get: {
        summary: 'A Windows lab’s desktop: guacamole-common-js ⇄ guacd (GUACD_HOST) ⇄ RDP.',
        access: labAccess(),
        params: LAB_NAME,
        headers: upgrade('guacamole, auth.<token>'),
        responses: { 101: switching('guacamole'), 404: NO_UPGRADE },
        websocket: {
          subprotocols: 'guacamole, auth.<token>',
          messages:
            'Guacamole instructions; the close reason carries the Guacamole status code guacamole-common-js reads.',
          closeCodes: LAB_CLOSE_CODES,
        },
      },
    },
  },
];
