import type { ServerResponse } from 'node:http';
import { type ErrorCode, errorCodeForStatus, type FieldErrors, MSG } from '@trainlab/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { isDatabaseUnavailable } from './db/guarded-pglite';

/**
 * Typed errors with stable HTTP statuses. Use cases throw these; one handler turns them into the
 * wire format of the API conventions. Anything else is a bug: logged, answered with a bare 500.
 */
/** How long a client should wait before asking again when a service we depend on is down. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The response header every refusal (status 400 and up) carries its code in. A 422's body is the
 * field bag, where a field may itself be named `code` (/sso-exchange has one), so the header is the
 * one place a client always finds the code (docs/decisions/0058-error-codes.md).
 */
export const ERROR_CODE_HEADER = 'X-Error-Code';

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: Record<string, unknown>,
    readonly code: ErrorCode = errorCodeForStatus(status),
  ) {
    super(message);
  }
}

/** The body of a refusal that answers in words: `{"message": "...", "code": "..."}`. */
export const refusalBody = (status: number, message: string, code: ErrorCode = errorCodeForStatus(status)) => ({
  message,
  code,
});

/** Sends a refusal in words, its code in the body and in X-Error-Code (the same value). */
export function sendRefusal(
  reply: FastifyReply,
  status: number,
  message: string,
  code: ErrorCode = errorCodeForStatus(status),
): FastifyReply {
  return reply
    .status(status)
    .header(ERROR_CODE_HEADER, code)
    .send(refusalBody(status, message, code));
}

export const unauthenticated = () => new AppError(401, MSG.unauthenticated);
/** 403; sign-in's refusals name a more specific code (awaiting_approval, account_inactive, ...). */
export const forbidden = (message: string = MSG.forbidden, code?: ErrorCode) =>
  new AppError(403, message, undefined, code);
export const notFound = (message: string = MSG.notFound) => new AppError(404, message);
export const tooManyAttempts = () => new AppError(429, MSG.tooManyAttempts);
export const invalidJson = () => new AppError(400, 'The request body is not valid JSON.', undefined, 'invalid_json');

export class ValidationError extends AppError {
  constructor(readonly fields: FieldErrors) {
    super(422, MSG.givenDataInvalid, fields);
  }
}

/** One field's 422, e.g. `invalidField('email', 'The email has already been taken.')`. */
export const invalidField = (field: string, message: string) => new ValidationError({ [field]: [message] });

/** Does this error, or one it wraps, carry a database statement or its parameters? */
export function holdsStatement(error: unknown): boolean {
  for (
    let e = error as { message?: unknown; query?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (typeof e.query === 'string') return true;
    if (typeof e.message === 'string' && /failed query|params:/i.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status === 503) reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      // a body of its own (a 422's field bag) is answered as it is: the code travels in the header
      if (error.body) return reply.status(error.status).header(ERROR_CODE_HEADER, error.code).send(error.body);
      return sendRefusal(reply, error.status, error.message, error.code);
    }
    // the database is down, unreachable, or (embedded) being reopened after a failed call: try again soon
    if (isDatabaseUnavailable(error)) {
      reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return sendRefusal(reply, 503, serviceUnavailable().message);
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413) return sendRefusal(reply, 413, 'The uploaded content is too large.');
    if (status === 415) return sendRefusal(reply, 415, 'Unsupported Media Type');
    if (status === 400 && (error as FastifyError).code?.startsWith('FST_ERR_CTP')) {
      return sendRefusal(reply, 400, invalidJson().message, 'invalid_json');
    }
    if (status === 429) return sendRefusal(reply, 429, MSG.tooManyAttempts);
    // a client error's own words are answered, unless they hold a statement (drizzle's "Failed
    // query: … params: …"): SQL, parameters and stacks stay in the log
    if (status >= 400 && status < 500 && !holdsStatement(error)) {
      return sendRefusal(reply, status, error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendRefusal(reply, 500, MSG.internalError);
  });
  // Every other refusal (one sent with its own body, a plugin's, an empty one) gets the code of its
  // status in the header, so a client reads the code of any refusal from one place. Callback style:
  // no promise per request.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode >= 400 && !reply.hasHeader(ERROR_CODE_HEADER)) {
      reply.header(ERROR_CODE_HEADER, errorCodeForStatus(reply.statusCode));
    }
    done(null, payload);
  });
}

/**
 * A response Fastify does not send (one a route hijacked for a protocol library, such as tus) gets
 * the code of its status in X-Error-Code when it refuses, as every other refusal does.
 */
export function codeRawRefusals(res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    if (status >= 400 && !this.hasHeader(ERROR_CODE_HEADER))
      this.setHeader(ERROR_CODE_HEADER, errorCodeForStatus(status));
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as unknown as ServerResponse['writeHead'];
}

/**
 * 503: a service we depend on (the database, Redis, the file store, a provider) did not answer. Not a
 * 500 (a bug) and never a 401: a person must not be told they are signed out because the database failed.
 */
export const serviceUnavailable = () => new AppError(503, 'Service temporarily unavailable.');
