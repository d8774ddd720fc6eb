import type { FastifyReply } from 'fastify';

/**
 * Response bodies serialized once per cached value. A service that answers from a cache gives the
 * same object until the facts behind it change; its presented and serialized (and so validated)
 * body is kept beside that object, per `variant` (what else the body depends on, such as the
 * public address), and goes away with it.
 */
export class SerializedOnce {
  private readonly bodies = new WeakMap<object, Map<string, Buffer>>();

  /** Sends `present()` as the route's JSON, serialized by the route's schema once per `source` and `variant`. */
  send(reply: FastifyReply, source: object, variant: string, present: () => unknown): FastifyReply {
    let byVariant = this.bodies.get(source);
    if (!byVariant) this.bodies.set(source, (byVariant = new Map()));
    let body = byVariant.get(variant);
    if (body === undefined) {
      // Kept as bytes: a string body would be encoded again for every answer.
      body = Buffer.from(reply.serialize(present()) as string);
      byVariant.set(variant, body);
    }
    return reply.type('application/json; charset=utf-8').send(body);
  }
}
