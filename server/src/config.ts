import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defaultThreadCount } from './platform/threads/worker-pool.js';

/**
 * Everything the server reads from its environment, parsed and validated once at boot.
 * Nothing else in the code reads process.env: the parsed config is passed in.
 */
const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: z.url().optional(),
    PIM_DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
      .optional(),
    API_BASE: z
      .string()
      .regex(/^\/([a-z0-9-]+\/)*$/, 'API_BASE must be a path that starts and ends with "/", e.g. /api/')
      .default('/api/'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    OIDC_ISSUER: z.url().optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_PROVIDER_NAME: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'OIDC_PROVIDER_NAME must be one word (letters, digits, - or _)')
      .default('Google'),
    SESSION_TTL_HOURS: z.coerce.number().positive().default(24 * 7),
    PIM_ADMIN_EMAIL: z.email().optional(),
    PIM_ADMIN_PASSWORD: z.string().min(8, 'PIM_ADMIN_PASSWORD must have at least 8 characters').optional(),
    BODY_LIMIT_MB: z.coerce.number().positive().default(2),
    PIM_CACHE_MAX_MB: z.coerce
      .number({ error: 'PIM_CACHE_MAX_MB must be a number of megabytes (0: no limit)' })
      .int('PIM_CACHE_MAX_MB must be a whole number of megabytes (0: no limit)')
      .min(0, 'PIM_CACHE_MAX_MB must be 0 (no limit) or more megabytes')
      .default(2048),
    PIM_CACHE_MEMORY_MB: z.coerce
      .number({ error: 'PIM_CACHE_MEMORY_MB must be a number of megabytes (0: keep none in memory)' })
      .int('PIM_CACHE_MEMORY_MB must be a whole number of megabytes (0: keep none in memory)')
      .min(0, 'PIM_CACHE_MEMORY_MB must be 0 (keep none in memory) or more megabytes')
      .default(64),
    PIM_SEARCH_CACHE_MB: z.coerce
      .number({ error: 'PIM_SEARCH_CACHE_MB must be a number of megabytes' })
      .int('PIM_SEARCH_CACHE_MB must be a whole number of megabytes')
      .min(0, 'PIM_SEARCH_CACHE_MB must be 0 (keep no lists) or more megabytes')
      .default(512),
    PIM_MODEL_MAX_MB: z.coerce
      .number({ error: 'PIM_MODEL_MAX_MB must be a number of megabytes' })
      .positive('PIM_MODEL_MAX_MB must be more than 0 megabytes')
      .default(4096),
    PIM_PDF_MAX_PAGES: z.coerce
      .number({ error: 'PIM_PDF_MAX_PAGES must be a number of pages' })
      .int('PIM_PDF_MAX_PAGES must be a whole number of pages')
      .min(1, 'PIM_PDF_MAX_PAGES must be at least 1')
      .default(500),
    PIM_PDF_MAX_PAGE_MEGAPIXELS: z.coerce
      .number({ error: 'PIM_PDF_MAX_PAGE_MEGAPIXELS must be a number of megapixels' })
      .min(0.1, 'PIM_PDF_MAX_PAGE_MEGAPIXELS must be at least 0.1 megapixels')
      .max(250, 'PIM_PDF_MAX_PAGE_MEGAPIXELS must be at most 250 megapixels')
      .default(36),
    PIM_PDF_PAGE_TIMEOUT_S: z.coerce
      .number({ error: 'PIM_PDF_PAGE_TIMEOUT_S must be a number of seconds' })
      .positive('PIM_PDF_PAGE_TIMEOUT_S must be more than 0 seconds')
      .max(3600, 'PIM_PDF_PAGE_TIMEOUT_S must be at most 3600 seconds')
      .default(60),
    PIM_XML_MAX_MB: z.coerce
      .number({ error: 'PIM_XML_MAX_MB must be a number of megabytes' })
      .positive('PIM_XML_MAX_MB must be more than 0 megabytes')
      .default(64),
    PIM_THREADS: z.coerce
      .number({ error: 'PIM_THREADS must be a number of threads' })
      .int('PIM_THREADS must be a whole number of threads')
      .min(1, 'PIM_THREADS must be at least 1')
      .max(64, 'PIM_THREADS must be at most 64')
      .optional(),
    PIM_WORKER: z
      .enum(['true', 'false'], { error: 'PIM_WORKER must be true (this server runs jobs) or false (it only answers the API)' })
      .default('true'),
    PIM_JOB_CONCURRENCY: z.coerce
      .number({ error: 'PIM_JOB_CONCURRENCY must be a number of jobs' })
      .int('PIM_JOB_CONCURRENCY must be a whole number of jobs')
      .min(1, 'PIM_JOB_CONCURRENCY must be at least 1')
      .max(64, 'PIM_JOB_CONCURRENCY must be at most 64')
      .optional(),
    PIM_JOB_LEASE_S: z.coerce
      .number({ error: 'PIM_JOB_LEASE_S must be a number of seconds' })
      .min(1, 'PIM_JOB_LEASE_S must be at least 1 second')
      .max(3600, 'PIM_JOB_LEASE_S must be at most 3600 seconds')
      .default(60),
    PIM_JOB_MAX_ATTEMPTS: z.coerce
      .number({ error: 'PIM_JOB_MAX_ATTEMPTS must be a number of runs' })
      .int('PIM_JOB_MAX_ATTEMPTS must be a whole number of runs')
      .min(1, 'PIM_JOB_MAX_ATTEMPTS must be at least 1')
      .max(100, 'PIM_JOB_MAX_ATTEMPTS must be at most 100')
      .default(3),
    PIM_HARVEST_ALLOW_PRIVATE: z
      .enum(['true', 'false'], { error: 'PIM_HARVEST_ALLOW_PRIVATE must be true or false' })
      .default('false'),
    WEB_DIST_DIR: z.string().optional(),
    ELASTICSEARCH_URL: z
      .url({ protocol: /^https?$/, error: 'ELASTICSEARCH_URL must be an http:// or https:// URL of the cluster, e.g. https://user:password@search.example.org:9200' })
      .refine((url) => !new URL(url).search && !new URL(url).hash, 'ELASTICSEARCH_URL must not have a query (?...) or fragment (#...)')
      .optional(),
    ELASTICSEARCH_API_KEY: z.string().trim().min(1, 'ELASTICSEARCH_API_KEY must not be empty').optional(),
    ELASTICSEARCH_INDEX_PREFIX: z
      .string()
      .regex(/^([a-z0-9][a-z0-9._-]*)?$/, 'ELASTICSEARCH_INDEX_PREFIX must be lower case letters, digits, ".", "_" or "-", not starting with "-", "_" or "."')
      .default('pim-'),
    ELASTICSEARCH_TIMEOUT_S: z.coerce
      .number({ error: 'ELASTICSEARCH_TIMEOUT_S must be a number of seconds' })
      .positive('ELASTICSEARCH_TIMEOUT_S must be more than 0 seconds')
      .max(3600, 'ELASTICSEARCH_TIMEOUT_S must be at most 3600 seconds')
      .default(30),
    PIM_VISION_URL: z
      .url({ protocol: /^https?$/, error: 'PIM_VISION_URL must be the http:// or https:// base URL of an OpenAI-compatible API, e.g. http://localhost:11434/v1' })
      .refine((url) => !new URL(url).search && !new URL(url).hash, 'PIM_VISION_URL must not have a query (?...) or fragment (#...)')
      .optional(),
    PIM_VISION_MODEL: z.string().trim().min(1, 'PIM_VISION_MODEL must name the model, e.g. qwen2.5vl:7b').optional(),
    PIM_VISION_API_KEY: z.string().trim().min(1, 'PIM_VISION_API_KEY must not be empty').optional(),
    PIM_VISION_TIMEOUT_S: z.coerce
      .number({ error: 'PIM_VISION_TIMEOUT_S must be a number of seconds' })
      .positive('PIM_VISION_TIMEOUT_S must be more than 0 seconds')
      .max(600, 'PIM_VISION_TIMEOUT_S must be at most 600 seconds')
      .default(60),
    TRUST_PROXY: z
      .string()
      .regex(/^(true|false|\d+|[\d.:a-fA-F/, ]+)$/, 'TRUST_PROXY must be true, false, a hop count, or proxy addresses/CIDRs')
      .default('false'),
  })
  .superRefine((env, ctx) => {
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        message: 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three or none',
      });
    }
    if (env.ELASTICSEARCH_API_KEY && !env.ELASTICSEARCH_URL) {
      ctx.addIssue({ code: 'custom', message: 'ELASTICSEARCH_API_KEY needs ELASTICSEARCH_URL: set the cluster\'s address too' });
    }
    if (env.PIM_VISION_URL && !env.PIM_VISION_MODEL) {
      ctx.addIssue({ code: 'custom', message: 'PIM_VISION_URL needs PIM_VISION_MODEL: name the vision model to ask, e.g. qwen2.5vl:7b' });
    }
    if (!env.PIM_VISION_URL && (env.PIM_VISION_MODEL || env.PIM_VISION_API_KEY)) {
      ctx.addIssue({ code: 'custom', message: 'PIM_VISION_MODEL and PIM_VISION_API_KEY need PIM_VISION_URL: set the address of the vision model too' });
    }
    if (env.ELASTICSEARCH_API_KEY && env.ELASTICSEARCH_URL && new URL(env.ELASTICSEARCH_URL).username) {
      ctx.addIssue({
        code: 'custom',
        message: 'Give the search cluster either a user and password in ELASTICSEARCH_URL or ELASTICSEARCH_API_KEY, not both',
      });
    }
  });

export interface Config {
  port: number;
  host: string;
  /**
   * PUBLIC_URL without a trailing slash: where browsers reach this server, pinned. Unset: each
   * request's own address is used (its protocol and Host; X-Forwarded-* only from a trusted
   * proxy), so the app works at whatever address it is opened (platform/http/public-url.ts).
   */
  publicUrl: string | undefined;
  /**
   * PUBLIC_URL, else http://localhost:$PORT: the address for what no request names (the CLI's
   * messages) and the embedded provider's issuer identifier, which must not change per request.
   */
  serverUrl: string;
  dataDir: string;
  /** Unset: the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  apiBase: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  oidc:
    | { kind: 'embedded'; providerName: string }
    | { kind: 'external'; providerName: string; issuer: string; clientId: string; clientSecret: string };
  sessionTtlHours: number;
  admin: { email: string | undefined; password: string | undefined };
  bodyLimitBytes: number;
  /** The size cap of the derivative cache (tiles, thumbnails) under dataDir; 0: no cap. */
  cacheMaxBytes: number;
  /** The derivatives used most recently are also kept in memory, up to this many bytes; 0: none. */
  cacheMemoryBytes: number;
  /** How many bytes of decoded posting lists the search keeps in memory (engine/blocks.ts). */
  searchCacheBytes: number;
  /** The largest model file an upload may bring (models are often hundreds of MB). */
  modelMaxBytes: number;
  /** The most pages one uploaded PDF may have; a longer one is refused before any page is rendered. */
  pdfMaxPages: number;
  /** The most pixels of one page rendered from a PDF (its resolution is lowered to fit). */
  pdfMaxPagePixels: number;
  /** How long opening a PDF, or rendering one of its pages, may take. */
  pdfPageTimeoutMs: number;
  /**
   * The largest PAGE, ALTO or hOCR file an upload may bring: XML is read whole into memory, and a
   * thread needs several times the file's size to parse it.
   */
  xmlMaxBytes: number;
  /** Worker threads for the CPU-heavy steps of requests (reading large XML, rendering PDF pages). */
  threads: number;
  /** The jobs this server runs itself, and how its queue treats workers. */
  jobs: JobsConfig;
  /**
   * Whether a IIIF harvest may fetch from loopback, private-network and link-local addresses.
   * Off by default: the harvest fetches addresses users give, and must not become their way into
   * the server's own network (SSRF). Tests, and harvests from an institution's internal IIIF
   * server, turn it on.
   */
  harvestAllowPrivate: boolean;
  /** The built web app; unset: web/dist of this checkout. */
  webDistDir: string;
  /**
   * Which proxies in front of us to believe about the client (X-Forwarded-For, -Proto, -Host):
   * sign-in rate limits count per client address, which behind a proxy is otherwise the proxy's,
   * and without PUBLIC_URL the browser's address is the one the proxy was asked for.
   */
  trustProxy: boolean | number | string;
  /** The Elasticsearch/OpenSearch cluster searches go to and indexing writes to; unset: PostgreSQL. */
  elasticsearch: ElasticConfig | undefined;
  /** The vision model image descriptions also ask (PIM_VISION_*); unset: nothing leaves the server. */
  vision: VisionConfig | undefined;
}

/** PIM_VISION_*: an OpenAI-compatible chat-completions API with a vision model. */
export interface VisionConfig {
  /** The API's base URL without a trailing slash (`http://localhost:11434/v1`): `/chat/completions` is added. */
  url: string;
  /** `host:port`, for what the description says. */
  host: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  apiKey: string | undefined;
  timeoutMs: number;
}

/** ELASTICSEARCH_*: where the cluster is, how PIM signs in there and how it names its indices. */
export interface ElasticConfig {
  /** The cluster's address without credentials and without a trailing slash (safe to log). */
  url: string;
  /** `host:port` of the cluster, for messages. */
  host: string;
  /** A user and password from the URL (Basic), or an API key (`Authorization: ApiKey ...`). */
  auth: { kind: 'basic'; username: string; password: string } | { kind: 'apiKey'; key: string } | null;
  /** Put before our index names there (`pim-` + `charters`), so PIM keeps to its own indices. */
  indexPrefix: string;
  timeoutMs: number;
}

export interface JobsConfig {
  /** Whether this process runs a worker for the types it has executors for (PIM_WORKER). */
  worker: boolean;
  /** How many jobs the built-in worker runs at once. */
  concurrency: number;
  /** How long a claimed job stays a worker's without a heartbeat before the reaper takes it back. */
  leaseMs: number;
  /** Runs of a job whose worker died before it fails for good. */
  maxAttempts: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || 'environment'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const publicUrl = e.PUBLIC_URL?.replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    serverUrl: publicUrl ?? `http://localhost:${e.PORT}`,
    dataDir: path.resolve(e.PIM_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    apiBase: e.API_BASE,
    logLevel: e.LOG_LEVEL,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            kind: 'external',
            providerName: e.OIDC_PROVIDER_NAME,
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
          }
        : { kind: 'embedded', providerName: e.OIDC_PROVIDER_NAME },
    sessionTtlHours: e.SESSION_TTL_HOURS,
    admin: { email: e.PIM_ADMIN_EMAIL, password: e.PIM_ADMIN_PASSWORD },
    bodyLimitBytes: Math.round(e.BODY_LIMIT_MB * 1024 * 1024),
    cacheMaxBytes: e.PIM_CACHE_MAX_MB * 1024 * 1024,
    cacheMemoryBytes: e.PIM_CACHE_MEMORY_MB * 1024 * 1024,
    searchCacheBytes: e.PIM_SEARCH_CACHE_MB * 1024 * 1024,
    modelMaxBytes: Math.round(e.PIM_MODEL_MAX_MB * 1024 * 1024),
    pdfMaxPages: e.PIM_PDF_MAX_PAGES,
    pdfMaxPagePixels: Math.round(e.PIM_PDF_MAX_PAGE_MEGAPIXELS * 1_000_000),
    pdfPageTimeoutMs: Math.round(e.PIM_PDF_PAGE_TIMEOUT_S * 1000),
    xmlMaxBytes: Math.round(e.PIM_XML_MAX_MB * 1024 * 1024),
    threads: e.PIM_THREADS ?? defaultThreadCount(),
    jobs: {
      worker: e.PIM_WORKER === 'true',
      concurrency: e.PIM_JOB_CONCURRENCY ?? defaultJobConcurrency(),
      leaseMs: Math.round(e.PIM_JOB_LEASE_S * 1000),
      maxAttempts: e.PIM_JOB_MAX_ATTEMPTS,
    },
    harvestAllowPrivate: e.PIM_HARVEST_ALLOW_PRIVATE === 'true',
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    elasticsearch: e.ELASTICSEARCH_URL
      ? parseElastic(e.ELASTICSEARCH_URL, e.ELASTICSEARCH_API_KEY, e.ELASTICSEARCH_INDEX_PREFIX, e.ELASTICSEARCH_TIMEOUT_S)
      : undefined,
    vision:
      e.PIM_VISION_URL && e.PIM_VISION_MODEL
        ? {
            url: e.PIM_VISION_URL.replace(/\/+$/, ''),
            host: new URL(e.PIM_VISION_URL).host,
            model: e.PIM_VISION_MODEL,
            apiKey: e.PIM_VISION_API_KEY,
            timeoutMs: Math.round(e.PIM_VISION_TIMEOUT_S * 1000),
          }
        : undefined,
  };
}

/**
 * The credentials leave the URL: fetch refuses URLs that carry them, and a URL without them can be
 * logged as it is.
 */
function parseElastic(address: string, apiKey: string | undefined, indexPrefix: string, timeoutS: number): ElasticConfig {
  const url = new URL(address);
  const basic = url.username ? { kind: 'basic' as const, username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : null;
  url.username = '';
  url.password = '';
  return {
    url: url.href.replace(/\/+$/, ''),
    host: url.host,
    auth: apiKey ? { kind: 'apiKey', key: apiKey } : basic,
    indexPrefix,
    timeoutMs: Math.round(timeoutS * 1000),
  };
}

/**
 * Half the cores, at least one: a job's heavy steps run in child processes or threads, and the
 * other half keeps answering the API (one job at a time on two cores).
 */
function defaultJobConcurrency(): number {
  return Math.max(1, Math.floor(os.availableParallelism() / 2));
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}
