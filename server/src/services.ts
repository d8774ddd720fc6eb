import type { CustomFetch } from 'openid-client';
import type { Config } from './config.js';
import type { Database } from './platform/db/database.js';
import { PgliteUpkeep } from './platform/db/pglite-upkeep.js';
import { ChangeNotices } from './platform/db/change-notices.js';
import { FileStore } from './platform/storage/file-store.js';
import { WorkerPool } from './platform/threads/worker-pool.js';
import { DEFAULT_REMOTE_FETCH, RemoteFetcher } from './platform/http/remote-fetch.js';
import { LocalSignIn } from './platform/auth/embedded-provider/local-sign-in.js';
import { ProviderStorage } from './platform/auth/embedded-provider/provider-storage.js';
import { LoginFailureRepository, ServerSecretRepository } from './platform/auth/embedded-provider/repository.js';
import { ProviderSecrets } from './platform/auth/embedded-provider/secrets.js';
import { ApiKeyRepository } from './modules/apikeys/repository.js';
import { ApiKeyService } from './modules/apikeys/service.js';
import { ImageSetAccess } from './modules/imagesets/access.js';
import { AccessRepository } from './modules/imagesets/access-repository.js';
import { ImageSetRepository } from './modules/imagesets/repository.js';
import { ImageSetService } from './modules/imagesets/service.js';
import { HierarchyRepository } from './modules/imagesets/hierarchy-repository.js';
import { ImageSetHierarchyService } from './modules/imagesets/hierarchy-service.js';
import { AclRepository } from './modules/acl/repository.js';
import { AclService } from './modules/acl/service.js';
import { GroupRepository } from './modules/groups/repository.js';
import { GroupService } from './modules/groups/service.js';
import { ElasticDocumentStore, ElasticForwarder } from './modules/search/elastic/index.js';
import { limitListCache } from './modules/search/engine/blocks.js';
import { PgDocumentStore } from './modules/search/engine/pg-store.js';
import { ThreadedDocumentStore } from './modules/search/engine/store-thread.js';
import { SearchIndexer } from './modules/search/indexer.js';
import { SearchRepository } from './modules/search/repository.js';
import { SearchService } from './modules/search/service.js';
import { SearchSync, TEXT_CHANGING_JOBS } from './modules/search/sync.js';
import { SearchIndexRepository } from './modules/searchindices/repository.js';
import { SearchIndexService } from './modules/searchindices/service.js';
import { FieldSetRepository } from './modules/fieldsets/repository.js';
import { FieldSetService } from './modules/fieldsets/service.js';
import { MetadataRepository } from './modules/metadata/repository.js';
import { MetadataService } from './modules/metadata/service.js';
import { IiifRepository } from './modules/iiif/repository.js';
import { IiifService } from './modules/iiif/service.js';
import { DocumentImageRepository } from './modules/documentimages/repository.js';
import { DocumentImageService } from './modules/documentimages/service.js';
import { DrawingRepository } from './modules/drawings/repository.js';
import { DrawingService } from './modules/drawings/service.js';
import { SimilarityRepository } from './modules/similarity/repository.js';
import { SimilarityService } from './modules/similarity/service.js';
import { DashboardRepository } from './modules/statistics/dashboard-repository.js';
import { StatisticsRepository } from './modules/statistics/repository.js';
import { StatisticsService } from './modules/statistics/service.js';
import { TextLineRepository } from './modules/textlines/repository.js';
import { TextLineService } from './modules/textlines/service.js';
import { UploadRepository } from './modules/uploads/repository.js';
import { DEFAULT_UPLOAD_LIMITS, UploadService } from './modules/uploads/service.js';
import { PdfSplitter } from './modules/uploads/pdf-split.js';
import { PdfPagesRepository } from './modules/uploads/pdf-pages-repository.js';
import { PdfPagesService } from './modules/uploads/pdf-pages-service.js';
import { ImageCheckRepository } from './modules/documentimages/image-check-repository.js';
import { ImageCheckService } from './modules/documentimages/image-check-service.js';
import { ReadingOrderRepository } from './modules/readingorder/repository.js';
import { ReadingOrderService } from './modules/readingorder/service.js';
import type { PublicLinks } from './platform/http/public-url.js';
import { DownloadRepository } from './modules/downloads/repository.js';
import { DownloadService } from './modules/downloads/service.js';
import { ModelRepository } from './modules/models/repository.js';
import { ModelService } from './modules/models/service.js';
import { RecognitionRepository } from './modules/recognition/repository.js';
import { RecognitionService } from './modules/recognition/service.js';
import { SessionRepository } from './modules/sessions/repository.js';
import { SessionService } from './modules/sessions/service.js';
import { relyingPartyFor } from './modules/signin/issuer.js';
import { localAccountsOf } from './modules/signin/local-accounts.js';
import { LoginStateRepository } from './modules/signin/repository.js';
import { SignInService } from './modules/signin/service.js';
import { UserRepository } from './modules/users/repository.js';
import { UserService } from './modules/users/service.js';
import { ConfigurationRepository } from './modules/configurations/repository.js';
import { ConfigurationService } from './modules/configurations/service.js';
import { EnvironmentRepository } from './modules/environments/repository.js';
import { EnvironmentService } from './modules/environments/service.js';
import { FontDescriptionRepository } from './modules/fontdescriptions/repository.js';
import { FontDescriptionService } from './modules/fontdescriptions/service.js';
import { ImageDescriptionRepository } from './modules/imagedescription/repository.js';
import { ImageDescriptionService } from './modules/imagedescription/service.js';
import { VisionClient } from './modules/imagedescription/vision.js';
import { JobQueue } from './jobs/queue.js';
import { JobRepository } from './modules/jobs/repository.js';
import { JobReferences } from './modules/jobs/references.js';
import { JobService } from './modules/jobs/service.js';
import { WorkerRepository } from './modules/workers/repository.js';
import { WorkerService } from './modules/workers/service.js';

export interface ServiceOptions {
  /** How the relying party reaches the embedded provider: in-process through the app (app.ts). */
  issuerFetch?: CustomFetch;
  /** Told when work started in the background (after a request has been answered) fails. */
  onBackgroundError?: (err: unknown, what: string) => void;
}

/** One thread's heap: parsing a large XML file takes several times its size. */
const THREAD_HEAP_MB = 2048;
/** A step of a request that runs longer than this in a thread is stopped. */
const THREAD_TIMEOUT_MS = 5 * 60_000;

/** Every service of the server, wired to its repositories once. Routes, the CLI and tests use these. */
export function createServices(database: Database, config: Config, options: ServiceOptions = {}) {
  const { db } = database;
  // Heard once the app starts them (buildApp); until then, and in the CLI, nothing is cached.
  const changes = new ChangeNotices();
  const sessions = new SessionService(new SessionRepository(db), config.sessionTtlHours, changes);
  const userRepository = new UserRepository(db);
  const accounts = localAccountsOf(userRepository);
  const providerSecrets = new ProviderSecrets(new ServerSecretRepository(db));
  const imageSetAccess = new ImageSetAccess(new AccessRepository(db), changes);
  const groups = new GroupService(new GroupRepository(db));
  const onBackgroundError = options.onBackgroundError ?? ((err, what) => console.error(what, err));
  const files = new FileStore(config.dataDir, {
    maxBytes: config.cacheMaxBytes,
    memoryBytes: config.cacheMemoryBytes,
    onError: (err) => onBackgroundError(err, 'the derivative cache failed (a sweep, or a background write: the derivative is made again when next asked for)'),
  });
  const threads = new WorkerPool({ size: config.threads, maxHeapMb: THREAD_HEAP_MB, timeoutMs: THREAD_TIMEOUT_MS });
  const pdfSplitter = new PdfSplitter(threads, {
    maxPages: config.pdfMaxPages,
    maxPagePixels: config.pdfMaxPagePixels,
    // An image inside a PDF may be as large as an uploaded one.
    maxImagePixels: DEFAULT_UPLOAD_LIMITS.maxPixels,
    pageTimeoutMs: config.pdfPageTimeoutMs,
  });
  const imageSetRepository = new ImageSetRepository(db);
  const fieldSets = new FieldSetService(new FieldSetRepository(db));
  const searchIndices = new SearchIndexService(new SearchIndexRepository(db));
  const models = new ModelService(new ModelRepository(db), files, { maxBytes: config.modelMaxBytes });
  const jobQueue = new JobQueue(database, files, { leaseMs: config.jobs.leaseMs, maxAttempts: config.jobs.maxAttempts });
  const jobs = new JobService(new JobRepository(db), jobQueue, imageSetAccess, new JobReferences(models, searchIndices, fieldSets), files);
  const searchRepository = new SearchRepository(db, database.search);
  const searchSync = new SearchSync(searchRepository, (owner, setId) => jobs.queueForUpload(owner, 'SendToElasticSearch', setId), onBackgroundError);
  jobQueue.onDone(async (job) => {
    if (!job.setId || !TEXT_CHANGING_JOBS.has(job.type)) return;
    const maker = await jobQueue.principalOf(job.ownerId, job.apiKeyId);
    if (maker) await searchSync.setChanged(maker, job.setId);
  });
  const imageSets = new ImageSetService(imageSetRepository, imageSetAccess, (caller, setId) => searchSync.setChanged(caller, setId), changes);
  const documentImages = new DocumentImageService(new DocumentImageRepository(db), imageSetAccess, files, changes);
  const iiif = new IiifService(new IiifRepository(db), imageSetAccess, imageSets, files, changes);
  // Pages of long PDFs and pyramids of large images are made by jobs (SplitPDF, ConvertToTiledTiff).
  const uploads = new UploadService(new UploadRepository(db), files, imageSetAccess, threads, pdfSplitter, { jobs: { queue: (type, setId, owner) => jobs.queueForUpload(owner, type, setId) }, searchChanged: (caller, setId) => searchSync.setChanged(caller, setId), onBackgroundError }, {
    ...DEFAULT_UPLOAD_LIMITS,
    maxXmlBytes: config.xmlMaxBytes,
  });
  // ELASTICSEARCH_URL: searches and search documents go to that cluster; else PostgreSQL is the engine.
  const cluster = config.elasticsearch;
  limitListCache(config.searchCacheBytes);
  // Its writes are a job's bulk work: on the background connections, and a large sync on a
  // PostgreSQL server in a process of its own; on PGlite on the search database's thread.
  const searchIndexer = cluster
    ? new SearchIndexer(database.background, new ElasticDocumentStore(cluster))
    : database.searchThread
      ? new SearchIndexer(database.background, new ThreadedDocumentStore(database.searchThread), { search: database.search })
      : new SearchIndexer(database.background, new PgDocumentStore(database.background), database.url ? { ownProcess: { url: database.url } } : {});
  const metadata = new MetadataService(new MetadataRepository(db), fieldSets, imageSetAccess, config.apiBase);
  const similarityRepository = new SimilarityRepository(db);
  const statistics = new StatisticsService(new StatisticsRepository(db, database.search), new DashboardRepository(db), files, onBackgroundError);
  const recognition = new RecognitionService(new RecognitionRepository(db), imageSetAccess, models, files, threads);
  // PGlite has no autovacuum and no checkpointer: the server vacuums, analyses and checkpoints itself.
  // The search database (a PGlite of its own, see search-database.ts) gets the same, once it was started.
  const upkeepFailed = (which: string) => (err: unknown) => onBackgroundError(err, `the ${which} upkeep failed (a vacuum, analyse or checkpoint: it is tried again later)`);
  const searchThread = database.searchThread;
  const upkeep =
    database.kind === 'pglite'
      ? [
          new PgliteUpkeep(db, upkeepFailed("embedded database's")),
          ...(searchThread ? [new PgliteUpkeep(database.search, upkeepFailed("search database's"), { when: () => searchThread.started })] : []),
        ]
      : [];
  return {
    upkeep,
    /** What changed, from the database's notices: the caches of sessions, access and lists follow it. */
    changes,
    files,
    threads,
    /** The links of work done outside a request (jobs): PUBLIC_URL, else http://localhost:PORT. */
    serverLinks: { publicUrl: config.serverUrl, apiBase: config.apiBase } satisfies PublicLinks,
    /** Fetches addresses users give (IIIF harvests), within limits and off private networks. */
    remoteFetch: new RemoteFetcher({ ...DEFAULT_REMOTE_FETCH, allowPrivate: config.harvestAllowPrivate }),
    sessions,
    users: new UserService(userRepository, sessions),
    apiKeys: new ApiKeyService(new ApiKeyRepository(db), changes),
    imageSetAccess,
    imageSets,
    imageSetHierarchy: new ImageSetHierarchyService(new HierarchyRepository(db), imageSetRepository, imageSetAccess, (caller, setId) => searchSync.setChanged(caller, setId)),
    groups,
    searchIndices,
    /** Keeps the search documents in step with the images, sets and transcriptions (run by jobs). */
    searchIndexer,
    search: new SearchService(database.search, searchRepository, cluster ? new ElasticForwarder(cluster) : null),
    fieldSets,
    metadata,
    similarity: new SimilarityService(similarityRepository, imageSetAccess, metadata, models, (caller, kind) => statistics.searched(caller, kind)),
    statistics,
    similarityRepository,
    acl: new AclService(new AclRepository(db), groups, imageSetAccess),
    iiif,
    textLines: new TextLineService(new TextLineRepository(db), imageSetAccess, iiif, (caller, imageId) => searchSync.imagesChanged(caller, [imageId])),
    uploads,
    pdfPages: new PdfPagesService(new PdfPagesRepository(db), imageSetAccess, files, pdfSplitter),
    imageChecks: new ImageCheckService(new ImageCheckRepository(db), imageSetAccess, files, DEFAULT_UPLOAD_LIMITS.maxPixels),
    readingOrder: new ReadingOrderService(new ReadingOrderRepository(db), imageSetAccess),
    documentImages,
    drawings: new DrawingService(new DrawingRepository(db), imageSetAccess),
    downloads: new DownloadService(
      new DownloadRepository(db),
      imageSetAccess,
      imageSets,
      documentImages,
      files,
      threads,
    ),
    models,
    recognition,
    fontDescriptions: new FontDescriptionService(new FontDescriptionRepository(db), files),
    /** Describes an uploaded image and keeps nothing; asks the vision model only when PIM_VISION_URL is set. */
    imageDescriptions: new ImageDescriptionService(
      new ImageDescriptionRepository(db),
      files,
      threads,
      DEFAULT_UPLOAD_LIMITS.maxPixels,
      config.vision ? new VisionClient(config.vision) : null,
    ),
    signIn: new SignInService({
      states: new LoginStateRepository(db),
      users: userRepository,
      sessions,
      relyingParty: relyingPartyFor(config, providerSecrets, options.issuerFetch),
      apiBase: config.apiBase,
    }),
    configurations: new ConfigurationService(new ConfigurationRepository(db)),
    jobQueue,
    jobs,
    workers: new WorkerService(new WorkerRepository(db), jobQueue, recognition, uploads, models, files, { maxXmlBytes: config.xmlMaxBytes }),
    environments: new EnvironmentService(new EnvironmentRepository(db)),
    embeddedProvider: {
      secrets: providerSecrets,
      storage: new ProviderStorage(db),
      accounts,
      signIn: new LocalSignIn(accounts, new LoginFailureRepository(db)),
    },
  };
}

export type Services = ReturnType<typeof createServices>;
