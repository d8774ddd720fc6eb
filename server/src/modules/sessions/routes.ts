import { rolesResponseSchema, sessionTokenParams } from '@pim/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import type { SessionService } from './service.js';

export const sessionRoutes: FastifyPluginAsyncZod<{ sessions: SessionService }> = async (app, { sessions }) => {
  const tags = ['Session'];

  app.post(
    '/google/getRoles',
    {
      schema: {
        tags,
        summary: "The caller's roles; 403 for an invalid or expired token",
        response: { 200: rolesResponseSchema, ...errorResponses },
      },
    },
    async (req) => sessions.roles(req.principal),
  );

  app.delete(
    '/google/:token',
    {
      schema: {
        tags,
        summary: 'End the session of this token (sign out)',
        params: sessionTokenParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (req, reply) => {
      await sessions.end(req.params.token);
      return reply.code(204).send(null);
    },
  );
};
