import { type FieldErrors, MSG } from '@trainlab/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from './db/guarded-pglite';

/**
 * Typed errors with stable HTTP statuses. Use cases throw these; one handler turns them into the
 * wire format of the API conventions. Anything else is a bug: logged, answered with a bare 500.
 */
/** How long a client should wait before asking again when a service we depend on is down. */
export const RETRY_AFTER_SECONDS = 5;

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const unauthenticated = () => new AppError(401, MSG.unauthenticated);
export const forbidden = (message: string = MSG.forbidden) => new AppError(403, message);
export const notFound = (message: string = MSG.notFound) => new AppError(404, message);
export const tooManyAttempts = () => new AppError(429, MSG.tooManyAttempts);

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
      return reply.status(error.status).send(error.body ?? { message: error.message });
    }
    // the database is down, unreachable, or (embedded) being reopened after a failed call: try again soon
    if (isDatabaseUnavailable(error)) {
      reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return reply.status(503).send({ message: serviceUnavailable().message });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413) return reply.status(413).send({ message: 'The uploaded content is too large.' });
    if (status === 415) return reply.status(415).send({ message: 'Unsupported Media Type' });
    if (status === 400 && (error as FastifyError).code?.startsWith('FST_ERR_CTP')) {
      return reply.status(400).send({ message: 'The request body is not valid JSON.' });
    }
    if (status === 429) return reply.status(429).send({ message: MSG.tooManyAttempts });
    // a client error's own words are answered, unless they hold a statement (drizzle's "Failed
    // query: … params: …"): SQL, parameters and stacks stay in the log
    if (status >= 400 && status < 500 && !holdsStatement(error)) {
      return reply.status(status).send({ message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: MSG.internalError });
  });
}

/**
 * 503: a service we depend on (the database, Redis, the file store, a provider) did not answer. Not a
 * 500 (a bug) and never a 401: a person must not be told they are signed out because the database failed.
 */
export const serviceUnavailable = () => new AppError(503, 'Service temporarily unavailable.');
