import type { IncomingMessage, ServerResponse } from 'node:http';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * The headers a middleware sets on every response whatever the request (helmet's security
 * headers without nonces), worked out once by running it against a response that only notes
 * them: lower-cased names, ready for `reply.headers()`.
 */
export function fixedHeadersOf(middleware: Middleware): Record<string, string> {
  const headers = new Map<string, string>();
  const noting = {
    setHeader(name: string, value: number | string | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
      return noting;
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
    getHeader(name: string) {
      return headers.get(name.toLowerCase());
    },
  };
  let failed: unknown;
  middleware({ headers: {}, method: 'GET', url: '/' } as IncomingMessage, noting as unknown as ServerResponse, (err) => {
    failed = err;
  });
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return Object.fromEntries(headers);
}
