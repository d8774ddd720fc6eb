import type { ElasticConfig } from '../../../config.js';
import { AppError } from '../../../platform/errors.js';

/** An Elasticsearch error body (`{ error: { type, reason, root_cause, ... }, status }`). */
export interface ElasticErrorBody {
  error: { type: string; reason: string; root_cause?: { type: string; reason: string }[]; [key: string]: unknown };
  status: number;
}

export interface ElasticRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  /** Below the cluster's address, already percent-encoded (`/pim-charters/_search`). */
  path: string;
  query?: Record<string, string>;
  /** A JSON body, or the lines of an NDJSON body (`_bulk`, `_msearch`), each serialised already. */
  json?: unknown;
  ndjson?: string[];
  /** Statuses besides 2xx that the caller handles itself (a HEAD's 404, a delete of a missing index). */
  accept?: number[];
}

export interface ElasticResponse {
  status: number;
  body: unknown;
}

/**
 * The HTTP client of the search cluster, on Node's fetch: one attempt per call, a time limit, the
 * credentials of the configuration, and every failure turned into an AppError that says what went
 * wrong in words an operator can act on.
 */
export class ElasticClient {
  constructor(readonly config: ElasticConfig) {}

  async send(req: ElasticRequest): Promise<ElasticResponse> {
    const url = `${this.config.url}${req.path}${req.query ? `?${new URLSearchParams(req.query)}` : ''}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    const auth = this.config.auth;
    if (auth?.kind === 'basic') headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
    if (auth?.kind === 'apiKey') headers.authorization = `ApiKey ${auth.key}`;
    let body: string | undefined;
    if (req.ndjson) {
      headers['content-type'] = 'application/x-ndjson';
      // Every line ends in a newline, the last one too: Elasticsearch refuses a body without it.
      body = req.ndjson.map((line) => `${line}\n`).join('');
    } else if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { method: req.method, headers, body, signal: AbortSignal.timeout(this.config.timeoutMs) });
      text = await res.text();
    } catch (err) {
      throw this.transportError(err);
    }
    const parsed = parseJson(text);
    if (res.ok || req.accept?.includes(res.status)) return { status: res.status, body: parsed };
    throw this.statusError(res.status, parsed, text);
  }

  private transportError(err: unknown): AppError {
    const host = this.config.host;
    if (err instanceof DOMException && err.name === 'TimeoutError') {
      return new AppError(504, 'search_timeout', `The search cluster at ${host} did not answer within ${this.config.timeoutMs / 1000} s (ELASTICSEARCH_TIMEOUT_S).`);
    }
    return new AppError(502, 'search_unreachable', `The search cluster at ${host} cannot be reached: ${causeOf(err)}.`);
  }

  private statusError(status: number, parsed: unknown, text: string): AppError {
    const host = this.config.host;
    const error = isElasticError(parsed) ? parsed : null;
    const reason = error ? reasonOf(error) : text.trim().slice(0, 200) || `HTTP ${status}`;
    if (status === 401 || status === 403) {
      const what = status === 401 ? 'refused the credentials PIM signs in with' : 'refused PIM this action with its credentials';
      return new AppError(502, 'search_credentials_refused', `The search cluster at ${host} ${what} (${status}: ${reason}). Check the user and password in ELASTICSEARCH_URL or ELASTICSEARCH_API_KEY, and the privileges they have.`);
    }
    if (status === 429) {
      return new AppError(503, 'search_busy', `The search cluster at ${host} is busy right now; try again in a moment.`);
    }
    if (status === 400 && error) {
      // The route answers in Elasticsearch's error shape: the cluster's own error goes on as it is.
      return new AppError(400, 'search_request_refused', reason, { elastic: error });
    }
    return new AppError(502, 'search_cluster_failed', `The search cluster at ${host} answered ${status}: ${reason}`, error ? { elastic: error } : undefined);
  }
}

/** The most telling reason of an error: the first root cause's, as the top one of a search is "all shards failed". */
function reasonOf(body: ElasticErrorBody): string {
  return body.error.root_cause?.[0]?.reason ?? body.error.reason;
}

export function isElasticError(value: unknown): value is ElasticErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { reason?: unknown }).reason === 'string';
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** fetch's "fetch failed" says nothing; its cause (ECONNREFUSED, ENOTFOUND, a certificate) does. */
function causeOf(err: unknown): string {
  let cause: unknown = err;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  if (cause instanceof AggregateError && cause.errors[0] instanceof Error) cause = cause.errors[0];
  return cause instanceof Error ? cause.message : String(cause);
}
