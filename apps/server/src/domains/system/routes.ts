import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { buildOpenApi, renderApiReference } from '../../platform/http/openapi';

export function systemRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/api/health', async (_request, reply) => {
    try {
      await deps.database.ping();
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
  const doc = buildOpenApi(deps.config.PUBLIC_URL);
  app.get('/api/openapi.json', async () => doc);
  const page = renderApiReference(doc);
  app.get('/api/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}
