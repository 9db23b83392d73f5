import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Settles once migrations and the start-up data are done, when the server listened before its
     * database answered (main.ts); null when the database was prepared before the app was built.
     */
    databaseReady: Promise<void> | null;
  }
}

/**
 * Runs a background task of a domain (reconciling labs, catching up schedules, marking ended
 * trainings) once the server is ready and its database prepared. main.ts listens before migrating,
 * so a task started at listen would meet a fresh database without its tables; it starts after the
 * migrations instead, and never once the server has closed. With the database already prepared
 * (tests, tools) the task runs as part of the app's readiness, as before.
 */
export function whenDatabaseReady(app: FastifyInstance, task: () => Promise<void>): void {
  let closed = false;
  app.addHook('onReady', async () => {
    if (!app.databaseReady) return task();
    void app.databaseReady.then(() => (closed ? undefined : task()));
  });
  app.addHook('onClose', async () => {
    closed = true;
  });
}
