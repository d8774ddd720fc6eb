import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Where the browser reached us for this request, without a trailing slash: PUBLIC_URL when
     * set, else the request's protocol and Host. Reading it answers 400 for a Host that is not
     * a host name or IP address, so a forged header never reaches a link or a redirect.
     */
    readonly publicUrl: string;
  }
}

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST_NAME = `${LABEL}(?:\\.${LABEL})*\\.?`;
const IPV4 = '\\d{1,3}(?:\\.\\d{1,3}){3}';
const IPV6 = '\\[[0-9a-f:.]+\\]';
const HOST = new RegExp(`^(?:${HOST_NAME}|${IPV4}|${IPV6})(?::\\d{1,5})?$`, 'i');

/**
 * The origin `protocol://host` when both are what a browser could have used: http or https, and a
 * host name or IP address with an optional port. Anything else (a path, credentials, spaces, a
 * second host) is null. The URL parser then canonicalises it: lower case, no default port.
 */
export function originOf(protocol: string, host: string): string | null {
  if ((protocol !== 'http' && protocol !== 'https') || !HOST.test(host)) return null;
  // The parser refuses what the pattern lets through but no address is (port 70000, 1.2.3.999).
  return URL.canParse(`${protocol}://${host}`) ? new URL(`${protocol}://${host}`).origin : null;
}

/**
 * Gives every request its `publicUrl`. Fastify's `protocol` and `host` take X-Forwarded-Proto
 * and X-Forwarded-Host only from a proxy TRUST_PROXY trusts; from anyone else they are ignored.
 */
export function registerPublicUrl(app: FastifyInstance, configured: string | undefined): void {
  app.decorateRequest('publicUrl', {
    getter(this: FastifyRequest): string {
      if (configured) return configured;
      const origin = originOf(this.protocol, this.host);
      if (!origin) throw badRequest('The Host header must be a host name or an IP address, with an optional port.');
      return origin;
    },
  });
}

/** Where the server is reached from outside (per request) and where its API lives under it. */
export interface PublicLinks {
  publicUrl: string;
  apiBase: string;
}

/** The links of a request: its public address and the API base. */
export type LinksOf = (req: FastifyRequest) => PublicLinks;
