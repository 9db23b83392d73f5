/** Types of scripts/janus-local.mjs (a plain script, so the journeys and benchmarks can run it too). */
export const JANUS_BIN: string;
export const JANUS_PP_REC_BIN: string;
export const JANUS_MISSING: string;
export function freePort(): Promise<number>;
export interface LocalJanus {
  /** the WebSocket API, e.g. ws://127.0.0.1:41234 (subprotocol janus-protocol) */
  url: string;
  port: number;
  /** the VideoRoom admin_key (JANUS_ADMIN_SECRET) */
  adminKey: string;
  /** the core api_secret (JANUS_API_SECRET), when one was asked for */
  apiSecret?: string;
  /** where rooms record (JANUS_RECORD_DIR) */
  recordDir: string;
  logFile: string;
  dir: string;
  pid: number;
  stop(): Promise<void>;
}
export function startJanus(opts?: {
  adminKey?: string;
  apiSecret?: string;
  recordDir?: string;
  debugLevel?: number;
  rtpPortRange?: string;
  iceEnforceList?: string;
  /** the WebSocket port (default: a free one) */
  port?: number;
}): Promise<LocalJanus>;
