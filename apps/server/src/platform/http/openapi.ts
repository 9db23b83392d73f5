import { API_CALLS, type ApiAccess, ERROR_CODE_LIST, ERROR_CODES } from '@trainlab/contract';
import { z } from 'zod';
import { ERROR_CODE_HEADER } from '../errors';
import {
  type Field,
  MESSAGE_BODY,
  type Operation,
  OTHER_SECURITY_SCHEMES,
  type OtherEndpoint,
} from './other-endpoints';

const describeAccess = (access: ApiAccess): string =>
  access === 'public' ? 'Public' : access === 'authenticated' ? 'Any signed-in account' : `Roles: ${access.join(', ')}`;

const toSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  } catch {
    return {};
  }
};

// Every refusal's code, once in the components: the body of a refusal in words carries it, and
// every refusal (status 400 and up, a 422's field bag included) carries it in X-Error-Code.
const errorBody = { $ref: '#/components/schemas/ErrorBody' };
const errorHeaders = { [ERROR_CODE_HEADER]: { $ref: `#/components/headers/${ERROR_CODE_HEADER}` } };
const ERROR_COMPONENTS = {
  schemas: {
    ErrorCode: {
      type: 'string',
      enum: ERROR_CODE_LIST,
      description: 'The machine-readable code of a refusal (a closed set; the API reference lists their meanings).',
    },
    ErrorBody: {
      type: 'object',
      properties: { message: { type: 'string' }, code: { $ref: '#/components/schemas/ErrorCode' } },
      required: ['message', 'code'],
    },
  },
  headers: {
    [ERROR_CODE_HEADER]: {
      description: 'The code of the refusal, on every answer with status 400 and up (the same as the body’s code).',
      schema: { $ref: '#/components/schemas/ErrorCode' },
    },
  },
};

const parameters = (where: 'query' | 'header', fields: Record<string, Field> | undefined) =>
  Object.entries(fields ?? {}).map(([name, f]) => ({
    name,
    in: where,
    required: typeof f !== 'string',
    description: typeof f === 'string' ? f : f.description,
    schema: { type: 'string' },
  }));

/** One operation of an endpoint that is not a call (described with other-endpoints.ts). */
function otherOperation(method: string, path: string, op: Operation) {
  const params = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: op.params?.[name as string] ?? '',
    schema: { type: 'string' },
  }));
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, answer]) => {
      const refusal = Number(status) >= 400;
      const schema =
        answer.schema instanceof z.ZodType
          ? toSchema(answer.schema, 'output')
          : refusal && answer.schema === MESSAGE_BODY
            ? errorBody
            : answer.schema;
      const headers = Object.fromEntries(
        Object.entries(answer.headers ?? {}).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }]),
      );
      return [
        status,
        {
          description: answer.description,
          ...(answer.headers || refusal ? { headers: { ...headers, ...(refusal ? errorHeaders : {}) } } : {}),
          ...(answer.type ? { content: { [answer.type]: schema ? { schema } : {} } } : {}),
        },
      ];
    }),
  );
  const ws = op.websocket;
  return {
    operationId: `${method}${path.replace(/[^a-zA-Z0-9]+/g, '_')}`,
    summary: op.summary,
    description: op.only ? `${op.access.who}. ${op.only}` : op.access.who,
    security: op.access.security,
    parameters: [...params, ...parameters('query', op.query), ...parameters('header', op.headers)],
    ...(op.body
      ? {
          requestBody: {
            required: false,
            description: op.body.description,
            content: Object.fromEntries(
              [op.body.type].flat().map((type) => [type, op.body?.schema ? { schema: op.body.schema } : {}]),
            ),
          },
        }
      : {}),
    responses,
    ...(op.only ? { 'x-only': op.only } : {}),
    ...(ws
      ? {
          'x-websocket': {
            subprotocols: ws.subprotocols,
            messages: ws.messages,
            closeCodes: ws.closeCodes,
            ...(ws.client ? { clientMessage: toSchema(ws.client, 'input') } : {}),
            ...(ws.server ? { serverMessage: toSchema(ws.server, 'output') } : {}),
          },
        }
      : {}),
  };
}

/**
 * OpenAPI 3.1 generated from the same zod schemas the server validates with. The endpoints that are not
 * calls are the domains' descriptions, handed in by the top floor (apps/server/src/other-endpoints.ts):
 * the platform imports no domain.
 */
export function buildOpenApi(serverUrl: string, otherEndpoints: readonly OtherEndpoint[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of API_CALLS) {
    const responses: Record<string, unknown> = {
      200: { description: 'Success', content: { 'application/json': { schema: toSchema(call.response, 'output') } } },
      422: { description: 'Validation failed: one key per field, each a list of messages.', headers: errorHeaders },
      500: {
        description: 'Internal Server Error.',
        headers: errorHeaders,
        content: { 'application/json': { schema: errorBody } },
      },
    };
    if (call.access !== 'public') {
      responses[401] = {
        description: 'Unauthenticated.',
        headers: errorHeaders,
        content: { 'application/json': { schema: errorBody } },
      };
      responses[403] = {
        description: 'Not allowed.',
        headers: errorHeaders,
        content: { 'application/json': { schema: errorBody } },
      };
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
  for (const endpoint of otherEndpoints) {
    // one declaration per path: a second would silently replace the first's methods
    if (paths[endpoint.path]) throw new Error(`${endpoint.path} is declared twice in the API document`);
    paths[endpoint.path] = Object.fromEntries(
      Object.entries(endpoint.methods).map(([method, op]) => [method, otherOperation(method, endpoint.path, op)]),
    );
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'TrainLab API',
      version: '1.0.0',
      description:
        'Every call is POST /api/<path> with a JSON body. The other endpoints (operations, signed media, tus uploads, ' +
        'single sign-on, payment webhooks, WebSockets) are listed with their own methods; each plain GET also answers HEAD.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, ...OTHER_SECURITY_SCHEMES },
      ...ERROR_COMPONENTS,
    },
    paths,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type DocOperation = {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { description?: string; content: Record<string, { schema?: unknown }> };
  responses?: Record<
    string,
    { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }
  >;
  'x-websocket'?: {
    subprotocols: string;
    messages: string;
    closeCodes: Record<string, string>;
    clientMessage?: unknown;
    serverMessage?: unknown;
  };
};

const schemaBlock = (title: string, schema: unknown) =>
  schema && Object.keys(schema as object).length
    ? `<details><summary>${escapeHtml(title)}</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`
    : '';

function renderOperation(method: string, path: string, op: DocOperation): string {
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<li><code>${escapeHtml(p.name)}</code> (${escapeHtml(p.in)}${p.required ? ', required' : ''})${
          p.description ? ` ${escapeHtml(p.description)}` : ''
        }</li>`,
    )
    .join('');
  const body = op.requestBody?.content;
  const bodyTypes = body ? Object.keys(body) : [];
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]) => {
      const types = Object.keys(r.content ?? {});
      const headers = Object.keys(r.headers ?? {});
      return `<li><b>${escapeHtml(status)}</b> ${escapeHtml(r.description ?? '')}${
        types.length ? ` <code>${escapeHtml(types.join(', '))}</code>` : ''
      }${headers.length ? ` (headers: ${escapeHtml(headers.join(', '))})` : ''}</li>`;
    })
    .join('');
  const ws = op['x-websocket'];
  const closeCodes = ws
    ? Object.entries(ws.closeCodes)
        .map(([code, why]) => `${escapeHtml(code)} ${escapeHtml(why)}`)
        .join('; ')
    : '';
  return `<article><h2><span class="m">${method.toUpperCase()}</span> ${escapeHtml(path)}</h2>
<p>${escapeHtml(String(op.summary ?? ''))}</p><p class="a">${escapeHtml(String(op.description ?? ''))}</p>
${params ? `<p class="l">Parameters</p><ul>${params}</ul>` : ''}
${
  bodyTypes.length
    ? `<p class="l">Request body <code>${escapeHtml(bodyTypes.join(', '))}</code>${
        op.requestBody?.description ? ` ${escapeHtml(op.requestBody.description)}` : ''
      }</p>`
    : ''
}${schemaBlock('Request body', body ? Object.values(body)[0]?.schema : undefined)}
${
  ws
    ? `<p class="l">WebSocket</p><ul><li>Subprotocols: ${escapeHtml(ws.subprotocols)}</li><li>${escapeHtml(ws.messages)}</li>
<li>Close codes: ${closeCodes}</li></ul>${schemaBlock('Client messages', ws.clientMessage)}${schemaBlock('Server messages', ws.serverMessage)}`
    : ''
}
${responses ? `<p class="l">Responses</p><ul>${responses}</ul>` : ''}</article>`;
}

/** The codes refusals carry, with their meanings: a client matches on these, never on the wording. */
const ERROR_CODE_TABLE = `<h2 id="error-codes">Error codes</h2><p>Every refusal (status 400 and up) carries a
<code>code</code> in the <code>${ERROR_CODE_HEADER}</code> header, and a refusal in words also in its body:
<code>{"message":"...","code":"..."}</code>. A 422's body stays the field bag (a field may itself be named
<code>code</code>), so its code is in the header only.</p><table><thead><tr><th>code</th><th>meaning</th></tr></thead><tbody>
${Object.entries(ERROR_CODES)
  .map(([code, meaning]) => `<tr><td><code>${escapeHtml(code)}</code></td><td>${escapeHtml(meaning)}</td></tr>`)
  .join('\n')}
</tbody></table>`;

/** A readable reference page rendered on the server: no scripts, no outside assets. */
export function renderApiReference(doc: ReturnType<typeof buildOpenApi>): string {
  // every method of a path, each in its own block (a tus upload answers HEAD, PATCH and DELETE on one path)
  const sections = Object.entries(doc.paths)
    .map(
      ([path, ops]) =>
        `<section id="${escapeHtml(path)}">${Object.entries(ops as Record<string, DocOperation>)
          .map(([method, op]) => renderOperation(method, path, op))
          .join('\n')}</section>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>TrainLab API reference</title><style>
body{font-family:system-ui,sans-serif;max-width:960px;margin:0 auto;padding:24px;color:#1a1b1e;line-height:1.5}
h1{margin-top:0}section{border-top:1px solid #e9ecef;padding:8px 0}h2{font-size:1.05rem;font-family:ui-monospace,monospace}
.m{background:#228be6;color:#fff;border-radius:4px;padding:2px 6px;margin-right:6px;font-size:.8rem}.a{color:#495057;font-size:.9rem}
pre{background:#f8f9fa;padding:12px;overflow:auto;font-size:.8rem}.l{font-weight:600;margin-bottom:0}
ul{margin-top:4px}article+article{border-top:1px dashed #e9ecef}table{border-collapse:collapse}
th,td{text-align:left;vertical-align:top;padding:2px 8px}</style></head><body>
<h1>TrainLab API reference</h1><p>Every call is <code>POST /api/&lt;path&gt;</code> with a JSON body and, after sign-in, an
<code>Authorization: Bearer &lt;token&gt;</code> header. Errors: 401 <code>{"message":"Unauthenticated.","code":"unauthenticated"}</code>, 403 with a reason,
422 with one list of messages per field. The endpoints that are not calls (operations, signed media, tus uploads, single sign-on,
payment webhooks, WebSockets) follow the calls, each with its methods. Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
${ERROR_CODE_TABLE}
${sections}</body></html>`;
}
