import { createRequire } from 'node:module';
import type { ServerMessage } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { trainings, trainingTrainers, trainingUsers } from '../src/db/schema';
import type { TestApp } from './helpers';
import { makeTraining } from './trainings-fixtures';

/** The parts of the `ws` client used here (the package ships no types). */
interface WebSocket {
  send(data: string | Buffer): void;
  close(): void;
  terminate(): void;
  on(event: 'message', listener: (raw: Buffer) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  once(event: 'open', listener: () => void): void;
  once(event: 'error', listener: (err: Error) => void): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string) => WebSocket;

/** A real `ws` client of /ws/conference that queues what it receives. */
export class Client {
  received: ServerMessage[] = [];
  closed: { code: number } | null = null;
  private waiters: (() => void)[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      this.received.push(JSON.parse(String(raw)));
      this.wake();
    });
    ws.on('close', (code) => {
      this.closed = { code };
      this.wake();
    });
  }
  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
  static async open(base: string): Promise<Client> {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/conference`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new Client(ws);
  }
  send(msg: unknown) {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }
  /** The next received message of this type (removed from the queue), within `ms`. */
  async next<T extends ServerMessage['type']>(type: T, ms = 3000): Promise<Extract<ServerMessage, { type: T }>> {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = this.received.findIndex((m) => m.type === type);
      if (i >= 0) return this.received.splice(i, 1)[0] as Extract<ServerMessage, { type: T }>;
      const left = deadline - Date.now();
      if (left <= 0 || this.closed)
        throw new Error(
          `no '${type}' message; got ${JSON.stringify(this.received)} closed=${JSON.stringify(this.closed)}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
  /** Nothing of this type arrives within `ms`. */
  async none(type: ServerMessage['type'], ms = 200): Promise<boolean> {
    await new Promise((r) => setTimeout(r, ms));
    return !this.received.some((m) => m.type === type);
  }
  async waitClosed(ms = 3000): Promise<number> {
    const deadline = Date.now() + ms;
    while (!this.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (!this.closed) throw new Error('not closed');
    return this.closed.code;
  }
  close() {
    this.ws.close();
  }
}

export async function listen(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address;
}

/** A client authenticated with a token (or guest ticket) and joined to `slug`. */
export async function joined(base: string, auth: { token: string } | { ticket: string }, slug: string) {
  const c = await Client.open(base);
  c.send({ type: 'auth', ...auth });
  await c.next('authed');
  c.send({ type: 'join', slug });
  return { client: c, joined: await c.next('joined') };
}

export async function enrol(t: TestApp, trainingId: number, userId: number): Promise<number> {
  const [row] = await t.deps.db.insert(trainingUsers).values({ training_id: trainingId, user_id: userId }).returning();
  return row!.id;
}

/** A provider's training with an enrolled learner and an assigned trainer. */
export async function scenario(t: TestApp, opts: { started?: boolean; isPublic?: boolean } = {}) {
  const provider = await t.loginAs({ role: 'provider', first_name: 'Prov' });
  const tr = await makeTraining(t, provider.token);
  const learner = await t.loginAs({ role: 'user', first_name: 'Lena' });
  const enrolmentId = await enrol(t, tr.id, learner.user.id);
  const trainer = await t.loginAs({ role: 'trainer', first_name: 'Tara' });
  await t.deps.db.insert(trainingTrainers).values({ training_id: tr.id, trainer_id: trainer.user.id });
  await t.deps.db
    .update(trainings)
    .set({ status: opts.started ? 1 : 0, is_public: opts.isPublic ? 1 : 0 })
    .where(eq(trainings.id, tr.id));
  return { tr, provider, learner, trainer, enrolmentId };
}
