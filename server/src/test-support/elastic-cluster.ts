import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ElasticConfig } from '../config.js';

/** A request as the stand-in cluster received it. */
export interface ReceivedRequest {
  method: string;
  /** The path as sent, still percent-encoded. */
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** How the stand-in answers one request: a recorded response, or no answer at all (`hang`). */
export type ScriptedAnswer = { status: number; body?: unknown; contentType?: string } | { hang: true };

export interface ElasticTestCluster {
  url: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** Queues answers: each request takes the next one; a request with none left gets a 599. */
  answer(...answers: ScriptedAnswer[]): void;
  /** A config for a client of this stand-in (no credentials unless given). */
  config(overrides?: Partial<ElasticConfig>): ElasticConfig;
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback standing in for an Elasticsearch cluster: it records each request
 * and answers with the responses a test queued (recorded Elasticsearch 8 responses from
 * `elastic-responses.ts`). An unexpected request is answered 599, which no client maps to
 * success, so the test fails.
 */
export async function startElasticCluster(): Promise<ElasticTestCluster> {
  const requests: ReceivedRequest[] = [];
  const queue: ScriptedAnswer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://cluster');
      requests.push({
        method: req.method!,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const next = queue.shift() ?? { status: 599, body: { error: { type: 'unexpected', reason: `no answer queued for ${req.method} ${req.url}` }, status: 599 } };
      if ('hang' in next) return;
      const text = next.body === undefined ? '' : typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
      const type = next.contentType ?? 'application/json';
      res.writeHead(next.status, { 'content-type': type, 'x-elastic-product': 'Elasticsearch' }).end(req.method === 'HEAD' ? undefined : text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    requests,
    answer: (...answers) => void queue.push(...answers),
    config: (overrides) => ({ url, host: `127.0.0.1:${port}`, auth: null, indexPrefix: 'pim-', timeoutMs: 30_000, ...overrides }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback address nothing listens on: a port taken and given back. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The lines of an NDJSON body, parsed; the body must end with a newline, as Elasticsearch requires. */
export function ndjsonLines(body: string): unknown[] {
  if (!body.endsWith('\n')) throw new Error('An NDJSON body must end with a newline');
  return body.slice(0, -1).split('\n').map((line) => JSON.parse(line) as unknown);
}
