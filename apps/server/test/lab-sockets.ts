import { createRequire } from 'node:module';

/** The parts of a `ws` client the lab socket tests use (the package ships no types). */
export interface Ws {
  readonly protocol: string;
  send(data: string | Buffer): void;
  close(): void;
  on(event: 'message', cb: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'close', cb: (code: number) => void): void;
  once(event: 'open', cb: () => void): void;
  once(event: 'error', cb: (e: Error) => void): void;
  once(event: 'close', cb: (code: number) => void): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string, protocols?: string[]) => Ws;

/** Opens /ws/labs/{kind}/{name} on `base` (ws://…) with the session token as the auth subprotocol. */
export const openLabSocket = (base: string, kind: 'terminal' | 'vnc', name: string, token: string | null) =>
  new Promise<{ ws: Ws; code?: number }>((resolve) => {
    const protocols = [kind === 'terminal' ? 'tl-terminal' : 'binary', ...(token ? [`auth.${token}`] : [])];
    const ws = new WebSocket(`${base}/ws/labs/${kind}/${name}`, protocols);
    ws.once('open', () => resolve({ ws }));
    ws.once('error', () => resolve({ ws, code: -1 }));
  });

export const closeCode = (ws: Ws) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
