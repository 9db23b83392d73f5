import { API_CALLS, type ApiAccess } from '@trainlab/contract';
import { z } from 'zod';

const describeAccess = (access: ApiAccess): string =>
  access === 'public' ? 'Public' : access === 'authenticated' ? 'Any signed-in account' : `Roles: ${access.join(', ')}`;

const toSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  } catch {
    return {};
  }
};

const errorBody = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };

/** OpenAPI 3.1 generated from the same zod schemas the server validates with. */
export function buildOpenApi(serverUrl: string) {
  const paths: Record<string, unknown> = {
    '/api/health': {
      get: { summary: 'Liveness: answers when the database answers.', responses: { 200: { description: 'ok' } } },
    },
  };
  for (const call of API_CALLS) {
    const responses: Record<string, unknown> = {
      200: { description: 'Success', content: { 'application/json': { schema: toSchema(call.response, 'output') } } },
      422: { description: 'Validation failed: one key per field, each a list of messages.' },
      500: { description: 'Internal Server Error.', content: { 'application/json': { schema: errorBody } } },
    };
    if (call.access !== 'public') {
      responses[401] = { description: 'Unauthenticated.', content: { 'application/json': { schema: errorBody } } };
      responses[403] = { description: 'Not allowed.', content: { 'application/json': { schema: errorBody } } };
    }
    paths[`/api/${call.path}`] = {
      post: {
        operationId: call.path.replace(/[^a-zA-Z0-9]+/g, '_'),
        summary: call.summary,
        description: describeAccess(call.access),
        security: call.access === 'public' ? [] : [{ bearer: [] }],
        requestBody: {
          required: false,
          content: {
            [call.multipart ? 'multipart/form-data' : 'application/json']: { schema: toSchema(call.request, 'input') },
          },
        },
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'TrainLab API', version: '1.0.0', description: 'Every call is POST /api/<path> with a JSON body.' },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A readable reference page rendered on the server: no scripts, no outside assets. */
export function renderApiReference(doc: ReturnType<typeof buildOpenApi>): string {
  const sections = Object.entries(doc.paths)
    .map(([path, ops]) => {
      const [method, op] = Object.entries(ops as Record<string, Record<string, unknown>>)[0]!;
      const body = (op.requestBody as { content: Record<string, { schema: unknown }> } | undefined)?.content;
      const schema = body ? Object.values(body)[0]?.schema : undefined;
      return `<section id="${escapeHtml(path)}"><h2><span class="m">${method.toUpperCase()}</span> ${escapeHtml(path)}</h2>
<p>${escapeHtml(String(op.summary ?? ''))}</p><p class="a">${escapeHtml(String(op.description ?? ''))}</p>
${schema ? `<details><summary>Request body</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>` : ''}</section>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>TrainLab API reference</title><style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:0 auto;padding:24px;color:#1a1b1e;line-height:1.5}
h1{margin-top:0}section{border-top:1px solid #e9ecef;padding:8px 0}h2{font-size:1.05rem;font-family:ui-monospace,monospace}
.m{background:#228be6;color:#fff;border-radius:4px;padding:2px 6px;margin-right:6px;font-size:.8rem}.a{color:#495057;font-size:.9rem}
pre{background:#f8f9fa;padding:12px;overflow:auto;font-size:.8rem}</style></head><body>
<h1>TrainLab API reference</h1><p>Every call is <code>POST /api/&lt;path&gt;</code> with a JSON body and, after sign-in, an
<code>Authorization: Bearer &lt;token&gt;</code> header. Errors: 401 <code>{"message":"Unauthenticated."}</code>, 403 with a reason,
422 with one list of messages per field. Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
${sections}</body></html>`;
}
