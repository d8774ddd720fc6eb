import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { AppError, badRequest, tooLarge } from '../errors.js';
import { formatBytes } from '../storage/file-store.js';
import { isPrivateAddress } from './private-addresses.js';

export interface RemoteFetchOptions {
  /** Loopback, private-network and link-local addresses may be fetched (PIM_HARVEST_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** How long the other server may take to start answering (its headers). */
  headersTimeoutMs: number;
  /** The longest silence on the connection, before or while the body arrives. */
  idleTimeoutMs: number;
  /** Redirects followed at most, each one checked like the first address. */
  maxRedirects: number;
}

export const DEFAULT_REMOTE_FETCH: Omit<RemoteFetchOptions, 'allowPrivate'> = { headersTimeoutMs: 30_000, idleTimeoutMs: 60_000, maxRedirects: 5 };

/** An answer whose body has not been read yet: read it or destroy it. */
export interface RemoteResponse {
  /** Where it came from after redirects. */
  url: string;
  contentType: string | null;
  body: Readable;
}

/** A remote server failed us (an error status, a broken connection, silence): not the caller's fault. */
const remoteFailed = (message: string) => new AppError(502, 'remote_failed', message);

/**
 * Fetches addresses that users give (IIIF manifests and images), for jobs: http(s) only, at most
 * `maxRedirects` redirects, time limits on the answer and on silence, a size cap, and no
 * connection to loopback, private or link-local addresses unless allowed. The address check is
 * made on the addresses DNS gives for the very connection that is opened, so a name that
 * resolves elsewhere between a check and the connection (DNS rebinding) gains nothing.
 */
export class RemoteFetcher {
  constructor(private readonly options: RemoteFetchOptions) {}

  /** GET `address`, following redirects; a status other than 2xx is an error naming it. */
  async get(address: string, request: { accept: string; maxBytes: number; signal?: AbortSignal }): Promise<RemoteResponse> {
    let url = webAddress(address);
    for (let hop = 0; ; hop += 1) {
      const res = await this.once(url, request);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location) {
        res.resume();
        if (hop >= this.options.maxRedirects) throw remoteFailed(`${address} redirects more than ${this.options.maxRedirects} times.`);
        url = webAddress(new URL(location, url).href);
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw remoteFailed(`${url.href} answered ${status} ${res.statusMessage ?? ''}`.trimEnd() + '.');
      }
      const length = Number(res.headers['content-length']);
      if (Number.isFinite(length) && length > request.maxBytes) {
        res.destroy();
        throw tooLarge(`${url.href} is ${formatBytes(length)}, more than the limit of ${formatBytes(request.maxBytes)}.`);
      }
      return { url: url.href, contentType: res.headers['content-type'] ?? null, body: res };
    }
  }

  /** GET a JSON document (a manifest), read whole within `maxBytes`. */
  async getJson(address: string, request: { maxBytes: number; signal?: AbortSignal }): Promise<{ url: string; json: unknown }> {
    const res = await this.get(address, { ...request, accept: 'application/ld+json, application/json;q=0.9, */*;q=0.1' });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > request.maxBytes) {
        res.body.destroy();
        throw tooLarge(`${res.url} is more than the limit of ${formatBytes(request.maxBytes)}.`);
      }
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
    try {
      return { url: res.url, json: JSON.parse(text) };
    } catch {
      const type = res.contentType ? ` (it sent ${res.contentType.split(';')[0]})` : '';
      throw badRequest(`${res.url} did not answer with JSON${type}: give the address of a IIIF manifest or collection.`);
    }
  }

  /** One request, no redirects followed. */
  private once(url: URL, request: { accept: string; signal?: AbortSignal }): Promise<http.IncomingMessage> {
    this.checkLiteral(url);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const fail = (err: unknown) => reject(translate(err, url, request.signal));
      const req = client.get(url, {
        headers: { accept: request.accept, 'user-agent': 'PIM IIIF harvester' },
        lookup: this.lookup,
        signal: request.signal,
        timeout: this.options.idleTimeoutMs,
      });
      const deadline = setTimeout(
        () => req.destroy(remoteFailed(`${url.href} did not answer within ${duration(this.options.headersTimeoutMs)}.`)),
        this.options.headersTimeoutMs,
      );
      let response: http.IncomingMessage | undefined;
      req.on('timeout', () => (response ?? req).destroy(remoteFailed(`${url.href} stopped sending for ${duration(this.options.idleTimeoutMs)}.`)));
      req.on('error', (err) => {
        clearTimeout(deadline);
        fail(err);
      });
      req.on('response', (res) => {
        clearTimeout(deadline);
        response = res;
        res.on('error', () => undefined); // its reader sees the error; this keeps it from being unhandled
        resolve(res);
      });
    });
  }

  /** A host written as an address is connected to without a DNS lookup, so it is checked here. */
  private checkLiteral(url: URL): void {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !this.options.allowPrivate && isPrivateAddress(host)) throw privateAddress(url.hostname, host);
  }

  /** DNS lookup for the connection, refusing private addresses (see the class comment). */
  private readonly lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const refused = this.options.allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (refused) return callback(privateAddress(hostname, refused.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address.`), { code: 'ENOTFOUND' }), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}

function privateAddress(host: string, address: string): AppError {
  const named = host === address ? host : `${host} (${address})`;
  return badRequest(
    `${named} is a loopback, private-network or link-local address, which a harvest may not fetch from: give a public address (an operator can allow them with PIM_HARVEST_ALLOW_PRIVATE=true).`,
  );
}

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} seconds`);

/** Only absolute http(s) addresses are fetched. */
function webAddress(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw badRequest(`${address} is not an absolute web address.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`${address} is not an http or https address.`);
  return url;
}

/** A network error in words a user can act on; our own errors and the job's stop pass as they are. */
function translate(err: unknown, url: URL, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return remoteFailed(`The host ${url.hostname} was not found.`);
  if (code === 'ECONNREFUSED') return remoteFailed(`${url.host} refused the connection.`);
  return remoteFailed(`Fetching ${url.href} failed: ${err instanceof Error ? err.message : String(err)}.`);
}
