import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorResponse } from '@pim/contract';
import { AppError } from '../errors.js';

/** Messages for the framework's own client errors, in words a person understands. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This kind of request body is not accepted here.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but should be JSON.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
};

/**
 * One handler turns every error into `{ error, message, details }`: our AppError, zod
 * validation failures (400) and the framework's client errors; anything else is a logged 500.
 */
export function installErrorHandler(app: FastifyInstance, apiBase: string): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).send(body(err.code, err.message, err.details));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'request';
      const issues = err.validation.map((v) => ({ path: `${where}${v.instancePath}`.replace(/\/$/, ''), message: v.message }));
      const message = issues.map((i) => (i.path.includes('/') ? `${i.path.split('/').slice(1).join('.')}: ${i.message}` : i.message));
      return reply.code(400).send(body('validation_failed', message.join(' '), issues));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500 && !isResponseSerializationError(err)) {
      const message = (err.code && FRAMEWORK_MESSAGES[err.code]) ?? err.message;
      return reply.code(err.statusCode).send(body(err.code?.toLowerCase() ?? 'bad_request', message));
    }
    req.log.error({ err }, 'request failed');
    return reply
      .code(500)
      .send(body('internal_error', `Something went wrong on the server. It has been logged with request id ${req.id}.`));
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? req.url;
    const message = path.startsWith(apiBase)
      ? `There is no API route ${req.method} ${path}.`
      : `There is nothing at ${path}.`;
    return reply.code(404).send(body('not_found', message));
  });
}

function body(error: string, message: string, details?: unknown): ErrorResponse {
  return details === undefined ? { error, message } : { error, message, details };
}
