import { userSchema } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentUser } from './presenter.js';
import type { UserService } from './service.js';

export const userRoutes: FastifyPluginAsyncZod<{ users: UserService }> = async (app, { users }) => {
  app.get(
    '/pim/users/self',
    {
      schema: {
        tags: ['Users'],
        summary: "The signed-in user's own record",
        response: { 200: userSchema, ...errorResponses },
      },
    },
    async (req) => presentUser(await users.self(req.principal)),
  );
};
