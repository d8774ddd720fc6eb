import type { FastifyInstance } from 'fastify';

/**
 * Opens the routes of the calling plugin's scope to pages on any origin, as the IIIF Image and
 * Presentation APIs ask of image services and manifests: viewers (Mirador, the Universal
 * Viewer) and public front-ends fetch them from their own origins. `*` carries no cookies, and
 * we use none: a client that may see more sends its Authorization header, which the preflight
 * allows. Errors get the headers too, so a viewer can tell 401 from a network failure.
 *
 * `preflightPaths` are answered for OPTIONS (204), the preflight a browser sends before a
 * request with an Authorization header.
 */
export function allowAnyOrigin(
  app: FastifyInstance,
  preflightPaths: string[],
  allow: { methods: string; headers: string } = { methods: 'GET, HEAD, OPTIONS', headers: 'Authorization, Accept, If-None-Match, X-Request-Id' },
): void {
  // Set as the request comes in: an error's answer keeps them, and a synchronous hook costs no
  // promise per request.
  app.addHook('onRequest', (_req, reply, done) => {
    reply
      .header('access-control-allow-origin', '*')
      .header('access-control-expose-headers', 'ETag, Content-Length, X-Request-Id')
      // Helmet's same-origin default would make browsers drop the answer for pages elsewhere.
      .header('cross-origin-resource-policy', 'cross-origin');
    done();
  });
  for (const path of preflightPaths) {
    app.options(path, { schema: { hide: true } }, (_req, reply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', allow.methods)
        .header('access-control-allow-headers', allow.headers)
        .header('access-control-max-age', '86400')
        .send(),
    );
  }
}
