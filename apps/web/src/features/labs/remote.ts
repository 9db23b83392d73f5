/** WebSocket addresses and protocols of a lab's remote access (the server checks the session token). */
export const labSocketUrl = (kind: 'terminal' | 'vnc', name: string, query = '') =>
  `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/labs/${kind}/${encodeURIComponent(name)}${query}`;
export const labProtocols = (kind: 'terminal' | 'vnc', token: string) => [
  kind === 'terminal' ? 'tl-terminal' : 'binary',
  `auth.${token}`,
];
export const CLOSE_REASONS: Record<number, string> = {
  4401: 'Your session has ended. Sign in again.',
  4404: 'This VM is not available to you.',
  4409: 'The VM is not started.',
  4503: 'The VM did not answer.',
};

/** What every remote view of a lab takes: the lab, the session token, and who to tell when it closes. */
export interface RemoteViewProps {
  name: string;
  token: string;
  onClosed: (reason: string | null) => void;
}
