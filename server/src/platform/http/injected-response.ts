import type { LightMyRequestResponse } from 'fastify';

/** An answer of `app.inject` as fetch gives one: for code that calls the server in its own process through a fetch. */
export function asFetchResponse(res: LightMyRequestResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of [value ?? []].flat()) headers.append(name, String(v));
  }
  const noBody = [101, 204, 205, 304].includes(res.statusCode);
  return new Response(noBody ? null : res.rawPayload, { status: res.statusCode, headers });
}
