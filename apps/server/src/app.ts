import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import { MSG } from '@trainlab/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { assessmentRoutes } from './domains/assessments/routes';
import { auditRoutes } from './domains/audit/routes';
import { authRoutes } from './domains/auth/routes';
import { LANDING_PATHS, landingShell } from './domains/catalog/landing-noscript';
import { catalogRoutes } from './domains/catalog/routes';
import { certificateRoutes } from './domains/certificates/routes';
import { CONFERENCE_SOCKETS, conferenceRoutes } from './domains/conference/routes';
import { courseRoutes } from './domains/courses/routes';
import { dashboardRoutes } from './domains/dashboards/routes';
import { devRoutes } from './domains/dev/routes';
import { labRoutes } from './domains/labs/routes';
import { LAB_SOCKETS } from './domains/labs/ws';
import { masterDataRoutes } from './domains/master-data/routes';
import { organizationRoutes } from './domains/organizations/routes';
import { paymentRoutes } from './domains/payments/routes';
import { recordingRoutes } from './domains/recordings/routes';
import { ssoRoutes } from './domains/sso/routes';
import { studentRegistrationRoutes } from './domains/student-registration/routes';
import { systemRoutes } from './domains/system/routes';
import { takeCallRoutes } from './domains/take-calls/routes';
import { trainerRoutes } from './domains/trainers/routes';
import { trainingRoutes } from './domains/trainings/routes';
import { OTHER_ENDPOINTS } from './other-endpoints';
import type { Deps } from './platform/deps';
import {
  ERROR_CODE_HEADER,
  installErrorHandler,
  invalidJson,
  RETRY_AFTER_SECONDS,
  sendRefusal,
  serviceUnavailable,
} from './platform/errors';
import { registerMultipart } from './platform/excel';
import { installSecurityHeaders } from './platform/http/security-headers';
import { installWebSockets } from './platform/http/websocket';
import { logDestination } from './platform/log-output';
import { logRedactPaths, REDACTED } from './platform/sensitive-fields';

const DOMAINS = [
  // the API document describes every domain's other endpoints: a domain cannot gather them itself
  (app: FastifyInstance, deps: Deps) => systemRoutes(app, deps, OTHER_ENDPOINTS),
  authRoutes,
  organizationRoutes,
  masterDataRoutes,
  trainingRoutes,
  certificateRoutes,
  studentRegistrationRoutes,
  conferenceRoutes,
  recordingRoutes,
  labRoutes,
  assessmentRoutes,
  catalogRoutes,
  paymentRoutes,
  courseRoutes,
  ssoRoutes,
  trainerRoutes,
  takeCallRoutes,
  auditRoutes,
  dashboardRoutes,
  devRoutes,
];

function webDist(deps: Deps): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [deps.config.WEB_DIST, path.resolve(here, '../../web/dist'), path.resolve(here, '../web')];
  return candidates.find((c): c is string => !!c && existsSync(path.join(c, 'index.html'))) ?? null;
}

export async function buildApp(
  deps: Deps,
  /**
   * logStream: where the log lines go instead of stdout (a test reads them);
   * starting: true while the server waits for the database at start-up (every call but /api/live is 503);
   * databaseReady: settles when that wait is over (the domains' background tasks start then)
   */
  opts: {
    logger?: boolean;
    logStream?: NodeJS.WritableStream;
    /** the log for a person (pino-pretty) instead of JSON lines: platform/log-output.ts */
    prettyLogs?: boolean;
    starting?: () => boolean;
    databaseReady?: Promise<void>;
  } = {},
): Promise<FastifyInstance> {
  const logStream = opts.logger
    ? await logDestination({ pretty: !!opts.prettyLogs, stream: opts.logStream })
    : undefined;
  const app = Fastify({
    logger: opts.logger
      ? {
          level: deps.config.LOG_LEVEL,
          // secrets and KYC numbers never reach the logs (platform/sensitive-fields.ts), pretty or not
          redact: { paths: logRedactPaths(), censor: REDACTED },
          ...(logStream ? { stream: logStream } : {}),
        }
      : false,
    bodyLimit: 1024 * 1024,
    // a client can write X-Forwarded-For itself: believe it only from the proxies configured
    trustProxy: deps.config.TRUST_PROXY,
    return503OnClosing: true,
    // @fastify/static lists the web build's thousand files when it registers: on a busy host that
    // took longer than Fastify's 10 s plugin limit and the start failed; a slow start is not a failure
    pluginTimeout: 120_000,
    // every log line of a request carries its id: the proxy's X-Request-Id when sane, else a new one
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
  });
  // callback hooks on every answer: no promise per request
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  if (opts.starting) startupGate(app, opts.starting);
  app.decorate('databaseReady', opts.databaseReady ?? null);
  // Closing closes the keep-alive connections idle at that moment only; one that goes idle later (its
  // last request answered, or refused with 503) would hold the close open: close those as they idle.
  let idleSweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    idleSweep = setInterval(() => app.server.closeIdleConnections(), 100);
    idleSweep.unref();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    clearInterval(idleSweep);
    done();
  });

  // Existing clients send calls without parameters with no body; an empty JSON body reads as {}.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalidJson(), undefined);
    }
  });

  await app.register(cors, {
    origin: deps.config.CORS_ORIGINS.length ? deps.config.CORS_ORIGINS : false,
    allowedHeaders: ['authorization', 'content-type'],
    // a refusal's code, readable by the configured origins' scripts as it is by the app's own
    exposedHeaders: [ERROR_CODE_HEADER],
    methods: ['POST', 'GET', 'OPTIONS'],
  });
  installErrorHandler(app);
  const dist = webDist(deps);
  installSecurityHeaders(app, deps.config, dist);
  // Kept so a test can prove every API route came from the contract's permission table, and that
  // every other route is in the API document.
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      routes.push({
        method,
        url: route.url,
        declared: Boolean(
          (route.config as { apiCall?: unknown; protocolEndpoint?: unknown })?.apiCall ??
            (route.config as { protocolEndpoint?: unknown })?.protocolEndpoint,
        ),
        // a route its plugin keeps out of API documentation: @fastify/static's files
        hidden: (route.schema as { hide?: boolean } | undefined)?.hide === true,
      });
    }
  });
  await registerMultipart(app);
  // once, before any route: one handler of each upgrade for every route (decision 0034)
  await installWebSockets(app, [CONFERENCE_SOCKETS, LAB_SOCKETS]);
  for (const register of DOMAINS) register(app, deps);

  if (dist) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // the build writes .br and .gz beside each asset: sent as the browser accepts, never compressed per request
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // hashed file names change with their content: cache for a year; everything else revalidates
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // The app's shell (index.html, half a kilobyte) is read once: every page route answers it from memory
  // rather than from the disk on each request. A new web build is served after a restart.
  const shell = dist ? shellOf(readFileSync(path.join(dist, 'index.html'))) : null;
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return sendRefusal(reply, 404, MSG.notFound);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return sendRefusal(reply, 405, MSG.methodNotAllowed);
    }
    // Deep links (/training-register/x, /reset-password/y) all load the single-page app.
    if (shell && LANDING_PATHS.has(request.url.split('?')[0]!)) {
      return landingShell(deps, shell.html).then((html) =>
        reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html),
      );
    }
    if (shell) {
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').header('ETag', shell.etag);
      if (request.headers['if-none-match'] === shell.etag) return reply.status(304).send();
      return reply.send(shell.html);
    }
    return sendRefusal(reply, 404, 'The web app is not built. Run npm run build.');
  });
  return app;
}

/**
 * Until the database has answered and been migrated, nothing may query it: calls answer 503 with
 * Retry-After (readiness and health say 'starting'); only the process's liveness answers 200.
 */
function startupGate(app: FastifyInstance, starting: () => boolean): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!starting()) return done();
    const url = request.url.split('?')[0];
    if (url === '/api/live') return done();
    reply.header('Retry-After', String(RETRY_AFTER_SECONDS)).status(503);
    if (url === '/api/ready' || url === '/api/health') reply.send({ status: 'starting' });
    else sendRefusal(reply, 503, serviceUnavailable().message);
  });
}

export interface RegisteredRoute {
  method: string;
  url: string;
  declared: boolean;
  hidden: boolean;
}

function shellOf(html: Buffer) {
  return { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"` };
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: RegisteredRoute[];
  }
}
