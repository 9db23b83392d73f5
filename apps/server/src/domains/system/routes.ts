import { COURSE_MSG, RDP_GATEWAY_MISSING } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { buildOpenApi, renderApiReference } from '../../platform/http/openapi';
import type { OtherEndpoint } from '../../platform/http/other-endpoints';
import { microCache } from '../../platform/micro-cache';
import type { LabProvider } from '../../platform/ports/labs';
import { mediaToolsAvailable } from '../courses/media-tools';
import { mediaTools } from '../courses/video';
import { backupRoute } from './backup-route';
import { operationsRoutes } from './operations';

/** how long /api/health reuses the lab engine's answer */
export const LAB_READINESS_CACHE_MS = 5_000;

/**
 * The lab engine's readiness as /api/health reports it: asked at most once per 5 s per engine.
 * Health is public and polled; each ask is a ping and an image lookup on Docker (over SSH or TLS
 * when the labs run elsewhere), which no caller should be able to multiply.
 */
const readiness = new WeakMap<LabProvider, () => Promise<string | null>>();
function labProblem(engine: LabProvider): Promise<string | null> {
  let ask = readiness.get(engine);
  if (!ask) {
    ask = microCache(LAB_READINESS_CACHE_MS, () => engine.problem().catch((e: unknown) => String(e)));
    readiness.set(engine, ask);
  }
  return ask();
}

/** How the engine holds labs apart from the host (disk cap, user namespaces, system calls), cached alike. */
const isolations = new WeakMap<LabProvider, () => Promise<Record<string, unknown> | null>>();
function labIsolation(engine: LabProvider): Promise<Record<string, unknown> | null> {
  let ask = isolations.get(engine);
  if (!ask) {
    ask = microCache(LAB_READINESS_CACHE_MS, async () => (engine.isolation ? engine.isolation() : null));
    isolations.set(engine, ask);
  }
  return ask().catch(() => null);
}

/** otherEndpoints: every domain's endpoints that are not calls, gathered on the top floor for the API document */
export function systemRoutes(app: FastifyInstance, deps: Deps, otherEndpoints: readonly OtherEndpoint[]): void {
  app.get('/api/health', async (_request, reply) => {
    try {
      await deps.database.ping();
      const video = mediaToolsAvailable(mediaTools(deps));
      // the lab engine's readiness is reported, never fatal: labs are one feature among many
      const engine = deps.labs;
      const [problem, isolation] = await Promise.all([labProblem(engine), labIsolation(engine)]);
      return {
        status: 'ok',
        video: video ? 'ok' : COURSE_MSG.ffmpegMissing,
        labs: {
          engine: engine.name,
          ready: !problem,
          ...(problem ? { problem } : {}),
          ...(isolation ? { isolation } : {}),
        },
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
  const doc = buildOpenApi(deps.config.PUBLIC_URL, otherEndpoints);
  app.get('/api/openapi.json', async () => doc);
  const page = renderApiReference(doc);
  app.get('/api/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
}
