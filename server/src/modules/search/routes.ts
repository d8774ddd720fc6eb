import { msearchResponseSchema, searchResponseSchema } from '@pim/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { allowAnyOrigin } from '../../platform/http/cors.js';
import type { LinksOf } from '../../platform/http/public-url.js';
import { AppError } from '../../platform/errors.js';
import { elasticError, type SearchService } from './service.js';

const params = z.object({ index: z.string().min(1).max(1000) });

function toElasticError(err: unknown, reply: FastifyReply) {
  if (err instanceof AppError) return reply.code(err.status).send(elasticError(err));
  const status = (err as { statusCode?: number }).statusCode;
  if (status && status >= 400 && status < 500) {
    const message = status === 415 ? 'Send the search as JSON (Content-Type: application/json).' : (err as Error).message;
    return reply.code(status).send(elasticError(new AppError(status, 'bad_request', message)));
  }
  throw err;
}

/**
 * Full-text search in Elasticsearch's language: `POST pim/elastic/{index}/_search`, `_msearch`
 * (NDJSON) and `_terms_enum`, `{index}` an index name, a comma list or `_all`. Errors come in
 * Elasticsearch's shape, and pages on any origin may call (the public search front-ends).
 */
export const searchRoutes: FastifyPluginAsync<{ search: SearchService; links: LinksOf }> = async (app, { search, links }) => {
  const tags = ['Search'];
  const base = (req: Parameters<LinksOf>[0]) => {
    const l = links(req);
    return { base: `${l.publicUrl}${l.apiBase}` };
  };
  allowAnyOrigin(app, ['/pim/elastic/:index/_search', '/pim/elastic/:index/_msearch', '/pim/elastic/:index/_terms_enum'], {
    methods: 'GET, POST, OPTIONS',
    headers: 'Authorization, Accept, Content-Type, X-Request-Id',
  });
  app.setErrorHandler((err, _req, reply) => toElasticError(err, reply));
  // Bodies are read as text: an _msearch body is NDJSON whatever content type a client names
  // (some send application/json), and a _search body that is not JSON gets Elasticsearch's error.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(['application/json', 'application/x-ndjson', 'text/plain'], { parseAs: 'string' }, (_req, body, done) => done(null, body));
  const json = (body: unknown): unknown => {
    if (typeof body !== 'string' || body.trim() === '') return body ?? {};
    try {
      return JSON.parse(body);
    } catch (err) {
      throw new AppError(400, 'search_parse', `The search body is not valid JSON: ${(err as Error).message}`);
    }
  };

  app.post(
    '/pim/elastic/:index/_search',
    { schema: { tags, summary: 'Search an index (Elasticsearch query DSL)', params, response: { 200: searchResponseSchema } } },
    async (req) => search.search(req.principal, (req.params as z.infer<typeof params>).index, json(req.body), base(req)),
  );

  app.post(
    '/pim/elastic/:index/_msearch',
    {
      schema: { tags, summary: 'Several searches in one call (NDJSON: a header line, then a body line, per search)', params, response: { 200: msearchResponseSchema } },
    },
    async (req) => {
      const body = typeof req.body === 'string' ? req.body : '';
      return search.msearch(req.principal, (req.params as z.infer<typeof params>).index, body, base(req));
    },
  );

  app.post(
    '/pim/elastic/:index/_terms_enum',
    { schema: { tags, summary: 'Terms of a field that start with a string (suggestions)', params } },
    async (req) => search.termsEnum(req.principal, (req.params as z.infer<typeof params>).index, json(req.body)),
  );
};
