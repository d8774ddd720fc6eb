import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import helmet from 'helmet';
import { type DestinationStream, destination } from 'pino';
import { METADATA_URI_MAX } from '@pim/contract';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { createAuthenticator } from './platform/auth/authenticate.js';
import { type Database, openDatabase } from './platform/db/database.js';
import { migrate } from './platform/db/migrate.js';
import { installErrorHandler } from './platform/http/error-handler.js';
import { fixedHeadersOf } from './platform/http/fixed-headers.js';
import { refuseUnstorableText } from './platform/http/storable-text.js';
import { logSerializers } from './platform/http/log-serializers.js';
import { type LinksOf, registerPublicUrl } from './platform/http/public-url.js';
import { serveWebApp } from './platform/http/web-app.js';
import { createServices, type Services } from './services.js';
import { imageSetRoutes } from './modules/imagesets/routes.js';
import { imageSetHierarchyRoutes } from './modules/imagesets/hierarchy-routes.js';
import { aclRoutes } from './modules/acl/routes.js';
import { groupRoutes } from './modules/groups/routes.js';
import { searchRoutes } from './modules/search/routes.js';
import { searchIndexRoutes } from './modules/searchindices/routes.js';
import { fieldSetRoutes } from './modules/fieldsets/routes.js';
import { metadataRoutes } from './modules/metadata/routes.js';
import { iiifApiRoutes, iiifImageRoutes } from './modules/iiif/routes.js';
import { documentImageRoutes } from './modules/documentimages/routes.js';
import { drawingRoutes } from './modules/drawings/routes.js';
import { similarityRoutes } from './modules/similarity/routes.js';
import { statisticsRoutes } from './modules/statistics/routes.js';
import { textLineRoutes } from './modules/textlines/routes.js';
import { uploadRoutes } from './modules/uploads/routes.js';
import { downloadRoutes } from './modules/downloads/routes.js';
import { modelRoutes } from './modules/models/routes.js';
import { sessionRoutes } from './modules/sessions/routes.js';
import { inProcessFetch } from './modules/signin/in-process-fetch.js';
import { registerSignIn } from './modules/signin/register.js';
import { userRoutes } from './modules/users/routes.js';
import { apiKeyRoutes } from './modules/apikeys/routes.js';
import { configurationRoutes } from './modules/configurations/routes.js';
import { environmentRoutes } from './modules/environments/routes.js';
import { fontDescriptionRoutes } from './modules/fontdescriptions/routes.js';
import { imageDescriptionRoutes } from './modules/imagedescription/routes.js';
import { jobRoutes } from './modules/jobs/routes.js';
import { workerRoutes } from './modules/workers/routes.js';
import type { ExecutorRegistry } from './jobs/executor.js';
import { executors as serverExecutors } from './jobs/executors/index.js';
import { Reaper } from './jobs/reaper.js';
import { JobWorker } from './jobs/worker.js';

export interface AppOptions {
  /** A database opened by the caller (tests); otherwise the one the config names is opened. */
  database?: Database;
  /** Where the log goes (tests read it); otherwise standard output. */
  logStream?: DestinationStream;
  /** The executors of the built-in worker (tests give their own); otherwise the server's, `jobs/executors/index.ts`. */
  executors?: ExecutorRegistry;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    database: Database;
    /** Every API route as "METHOD /path", for the OpenAPI coverage test and diagnostics. */
    apiRoutes: string[];
    /** The built-in worker, when this server runs jobs (PIM_WORKER). */
    jobWorker: JobWorker | null;
    reaper: Reaper;
  }
}

/** The whole server as a Fastify instance: `npm start` listens with it, tests inject into it. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  // Standard output is written asynchronously (lines written while a write is under way go out
  // together with the next): a synchronous write per log line held every request up.
  const stdout = options.logStream ? null : destination({ dest: 1, sync: false });
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: logSerializers,
      stream: options.logStream ?? stdout!,
    },
    logController: new OneLinePerRequest(),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimitBytes,
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_addr: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // A dataset (manifest) URI is one path parameter of the metadata overview: allow a whole one.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: METADATA_URI_MAX },
  });
  let database: Database;
  try {
    database =
      options.database ??
      (await openDatabase(
        config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
        { onConnectionError: (err) => app.log.warn({ err }, 'a database connection failed; the pool replaces it') },
      ));
  } catch (err) {
    await app.close();
    throw err;
  }
  if (!options.database) app.addHook('onClose', () => database.close());
  const apiRoutes: string[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(config.apiBase) || route.schema?.hide) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') apiRoutes.push(`${method} ${route.url}`);
  });
  if (stdout) app.addHook('onClose', async () => stdout.flushSync());
  try {
    await migrate(database);
    const services = createServices(database, config, {
      issuerFetch: inProcessFetch(app),
      onBackgroundError: (err, what) => app.log.error({ err }, what),
    });
    app.decorate('services', services);
    await services.changes.start(database);
    app.addHook('onClose', () => services.changes.close());
    for (const upkeep of services.upkeep) {
      app.addHook('onRequest', (_req, _reply, done) => {
        upkeep.noteActivity();
        done();
      });
      upkeep.start();
      app.addHook('preClose', () => upkeep.stop());
    }
    app.addHook('onClose', () => services.threads.close());
    app.addHook('onClose', async () => services.files.close());
    sweepStagingLeftovers(app, services);
    app.decorate('database', database);
    // Transcriptions stored before text lines existed get theirs once (migration 0004 lists them).
    const backfilled = await services.textLines.backfill();
    if (backfilled > 0) app.log.info(`made the text lines of ${backfilled} transcriptions stored before text lines existed`);

    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    acceptEmptyJsonBodies(app);
    installErrorHandler(app, config.apiBase);
    refuseUnstorableText(app);

    // The security headers are the same for every answer: helmet works them out once, and each
    // request gets them, with its id, in one synchronous hook (helmet's middleware chain per
    // request, or @fastify/helmet's, was a tenth of a cached tile's time).
    const securityHeaders = fixedHeadersOf(
      helmet({
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            imgSrc: ["'self'", 'data:', 'blob:'],
            styleSrc: ["'self'", "'unsafe-inline'"],
            scriptSrc: ["'self'"],
            connectSrc: ["'self'"],
            frameAncestors: ["'none'"],
            formAction: ["'self'", ...(config.oidc.kind === 'external' ? [new URL(config.oidc.issuer).origin] : [])],
            // On a plain-http deployment this would send the browser's form posts and calls to https.
            upgradeInsecureRequests: config.publicUrl?.startsWith('https:') ? [] : null,
          },
        },
      }),
    );
    app.addHook('onRequest', (req, reply, done) => {
      reply.headers(securityHeaders).header('x-request-id', req.id);
      done();
    });

    await app.register(swagger, {
      openapi: {
        info: { title: 'PIM API', version: '0.1.0', description: 'Every call of the PIM web app.' },
        components: {
          securitySchemes: {
            session: { type: 'http', scheme: 'bearer', description: `or "${config.oidc.providerName} <token>"` },
            apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: '"ApiKey <key>"' },
          },
        },
        security: [{ session: [] }, { apiKey: [] }],
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: `${config.apiBase}docs` });
    app.get(`${config.apiBase}openapi.json`, { schema: { hide: true } }, () => app.swagger());

    const authenticate = createAuthenticator({
      providerName: config.oidc.providerName,
      session: (token) => services.sessions.authenticate(token),
      apiKey: (key) => services.apiKeys.authenticate(key),
    });
    app.decorateRequest('principal', null);
    app.addHook('onRequest', async (req) => {
      if (req.url.startsWith(config.apiBase) || req.url.startsWith('/iiif/')) req.principal = await authenticate(req.headers.authorization);
    });

    registerPublicUrl(app, config.publicUrl);
    await registerSignIn(app, config, services);

    const links: LinksOf = (req) => ({ publicUrl: req.publicUrl, apiBase: config.apiBase });
    await app.register(
      async (api) => {
        await api.register(sessionRoutes, { sessions: services.sessions });
        await api.register(userRoutes, { users: services.users });
        await api.register(apiKeyRoutes, { apiKeys: services.apiKeys });
        await api.register(imageSetRoutes, { imageSets: services.imageSets, links });
        await api.register(imageSetHierarchyRoutes, { hierarchy: services.imageSetHierarchy });
        await api.register(aclRoutes, { acl: services.acl });
        await api.register(groupRoutes, { groups: services.groups });
        await api.register(searchIndexRoutes, { searchIndices: services.searchIndices });
        await api.register(searchRoutes, { search: services.search, links });
        await api.register(fieldSetRoutes, { fieldSets: services.fieldSets });
        await api.register(metadataRoutes, { metadata: services.metadata });
        await api.register(iiifApiRoutes, { iiif: services.iiif, links });
        await api.register(textLineRoutes, { textLines: services.textLines });
        await api.register(similarityRoutes, { similarity: services.similarity });
        await api.register(statisticsRoutes, { statistics: services.statistics });
        await api.register(uploadRoutes, { uploads: services.uploads });
        await api.register(downloadRoutes, { downloads: services.downloads, links });
        await api.register(documentImageRoutes, { documentImages: services.documentImages, links });
        await api.register(drawingRoutes, { drawings: services.drawings });
        await api.register(modelRoutes, { models: services.models, files: services.files });
        await api.register(configurationRoutes, { configurations: services.configurations });
        await api.register(environmentRoutes, { environments: services.environments, links });
        await api.register(fontDescriptionRoutes, { fontDescriptions: services.fontDescriptions });
        await api.register(imageDescriptionRoutes, { imageDescriptions: services.imageDescriptions });
        await api.register(jobRoutes, { jobs: services.jobs });
        await api.register(workerRoutes, { workers: services.workers, maxFileBytes: services.uploads.limits.maxBytes });
      },
      { prefix: config.apiBase.replace(/\/$/, '') },
    );

    await app.register(iiifImageRoutes, { iiif: services.iiif, links });
    await serveWebApp(app, config.webDistDir, { apiBase: config.apiBase, providerName: config.oidc.providerName });
    const startJobs = setUpJobs(app, config, services, options.executors ?? serverExecutors);
    await app.ready();
    await startJobs();
    return app;
  } catch (err) {
    await app.close();
    if (!options.database) await database.close().catch(() => {});
    throw err;
  }
}

/** One log line per request, when it is answered, with the request in it (Fastify logs one on arrival and one at the end). */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * The reaper (every server: remote workers die too) and, unless PIM_WORKER=false, the built-in
 * worker. Both stop before the database closes: running executors are aborted and their jobs go
 * back to the queue.
 */
function setUpJobs(app: FastifyInstance, config: Config, services: Services, executors: ExecutorRegistry): () => Promise<void> {
  const reaper = new Reaper(services.jobQueue, app.log);
  const worker = config.jobs.worker
    ? new JobWorker({ queue: services.jobQueue, executors, services, files: services.files, log: app.log, concurrency: config.jobs.concurrency })
    : null;
  app.decorate('reaper', reaper);
  app.decorate('jobWorker', worker);
  app.addHook('preClose', async () => {
    await worker?.stop();
    await reaper.stop();
  });
  return async () => {
    reaper.start();
    await worker?.start();
  };
}

/**
 * What crashed processes left staged in the data dir's tmp/ is removed at start, whatever its age.
 * Leftovers only take space: a sweep that fails is logged, and the server starts all the same.
 */
function sweepStagingLeftovers(app: FastifyInstance, services: Services): void {
  try {
    for (const left of services.files.sweepStaging()) {
      app.log.info({ tmp: left.name, files: left.files, bytes: left.bytes }, `removed staged files that no live process owns: ${left.reason}`);
    }
  } catch (err) {
    app.log.warn({ err }, 'could not remove the staged files that crashed processes left in tmp/; pim files gc tries again');
  }
}

/** Calls without a body but with a JSON content type (e.g. `POST google/getRoles`) are fine. */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
    if (String(text).trim() === '') return done(null, undefined);
    return parseJson(req, String(text), done);
  });
}
