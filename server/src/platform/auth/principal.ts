/** Who is calling: a signed-in user (session token) or a service account (API key). */
export type Principal =
  | { kind: 'user'; userId: string; name: string; email: string | null; roles: string[] }
  | { kind: 'apikey'; apiKeyId: string; userName: string; userId: null; roles: string[] };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook before any handler runs; null for anonymous calls. */
    principal: Principal | null;
  }
}
