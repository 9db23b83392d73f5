import { COURSE_MSG, RDP_GATEWAY_MISSING } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { labsFor } from '../../adapters/labs';
import type { Deps } from '../../platform/deps';
import { buildOpenApi, renderApiReference } from '../../platform/http/openapi';
import { mediaToolsAvailable } from '../courses/media-tools';
import { mediaTools } from '../courses/video';
import { backupRoute } from './backup-route';
import { operationsRoutes } from './operations';

export function systemRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/api/health', async (_request, reply) => {
    try {
      await deps.database.ping();
      const video = mediaToolsAvailable(mediaTools(deps));
      // the lab engine's readiness is reported, never fatal: labs are one feature among many
      const engine = labsFor(deps);
      const problem = await engine.problem().catch((e: unknown) => String(e));
      return {
        status: 'ok',
        video: video ? 'ok' : COURSE_MSG.ffmpegMissing,
        labs: { engine: engine.name, ready: !problem, ...(problem ? { problem } : {}) },
        // Windows labs' desktops go through guacd; without it they have no remote desktop
        rdp: deps.config.GUACD_HOST ? 'ok' : RDP_GATEWAY_MISSING,
        // 'test' on a live site means anyone can mark an order paid: visible to monitoring at a glance
        payments: deps.config.PAYMENT_GATEWAY,
      };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
  backupRoute(app, deps);
  operationsRoutes(app, deps);
  const doc = buildOpenApi(deps.config.PUBLIC_URL);
  app.get('/api/openapi.json', async () => doc);
  const page = renderApiReference(doc);
  app.get('/api/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}
