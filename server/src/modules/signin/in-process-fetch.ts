import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { CustomFetch } from 'openid-client';
import { asFetchResponse } from '../../platform/http/injected-response.js';

/**
 * A fetch for the relying party that hands requests to the embedded provider through
 * `app.inject` instead of the network: sign-in then works whatever PUBLIC_URL or proxy sits in
 * front of the server, and in tests that never listen on a port.
 */
export function inProcessFetch(app: FastifyInstance): CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const res = await app.inject({
      method: options.method as HTTPMethods,
      url: target.pathname + target.search,
      headers: { ...options.headers, host: target.host },
      ...(options.body != null && { payload: bodyOf(options.body) }),
    });
    return asFetchResponse(res);
  };
}

function bodyOf(body: NonNullable<Parameters<CustomFetch>[1]['body']>): string | Buffer {
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('A streamed request body cannot be sent to the embedded sign-in provider.');
}
