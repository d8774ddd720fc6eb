import type { FastifyReply, FastifyRequest } from 'fastify';

/** The session token in `DELETE google/{token}` (not the login, callback and getRoles routes beside it). */
const TOKEN_IN_PATH = /(\/google\/)(?!(?:login|callback|getRoles)(?:$|[/?#]))[^/?#]+/;
/** Query parameters that carry a secret: the session token of the landing page, the provider's code. */
const SECRET_PARAM = /([?&](?:gsid|code)=)[^&#]*/gi;

/**
 * A URL (a request's path and query, or a Location) with its secrets replaced by `[redacted]`:
 * a session token must never sit in a log file, where anyone who reads the logs could use it.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const query = at < 0 ? '' : url.slice(at);
  return path.replace(TOKEN_IN_PATH, '$1[redacted]') + query.replace(SECRET_PARAM, '$1[redacted]');
}

/**
 * Fastify's request and reply serializers with secrets redacted; a redirect also logs where it
 * sent the browser, which tells an operator where a sign-in went.
 */
export const logSerializers = {
  req(req: FastifyRequest) {
    return {
      method: req.method,
      url: redactUrl(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
  res(reply: { statusCode: number; getHeader?: FastifyReply['getHeader'] }) {
    const location = reply.getHeader?.('location');
    return {
      statusCode: reply.statusCode,
      ...(typeof location === 'string' && { location: redactUrl(location) }),
    };
  },
};
