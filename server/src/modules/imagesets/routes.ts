import {
  createImageSetRequestSchema,
  createImageSetResponseSchema,
  documentImageSetListSchema,
  documentImageSetSchema,
  onlyOwnDataQuery,
} from '@pim/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentImageSet } from './presenter.js';
import type { ImageSetService } from './service.js';

export interface ImageSetRoutesOptions {
  imageSets: ImageSetService;
  links: { publicUrl: string; apiBase: string };
}

export const imageSetRoutes: FastifyPluginAsyncZod<ImageSetRoutesOptions> = async (app, { imageSets, links }) => {
  const tags = ['Image sets'];

  app.get(
    '/pim/documentimageset',
    {
      schema: {
        tags,
        summary: 'Image sets the caller may see (only their own with onlyOwnData=true)',
        querystring: onlyOwnDataQuery,
        response: { 200: documentImageSetListSchema, ...errorResponses },
      },
    },
    async (req) => {
      const sets = await imageSets.list(req.principal, req.query.onlyOwnData);
      return sets.map((s) => presentImageSet(s, links));
    },
  );

  app.post(
    '/pim/documentimageset/create',
    {
      schema: {
        tags,
        summary: 'Create an image set owned by the caller',
        body: createImageSetRequestSchema,
        response: { 201: createImageSetResponseSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return imageSets.create(req.principal, req.body);
    },
  );

  app.get(
    '/pim/documentimageset/:uuid',
    {
      schema: {
        tags,
        summary: 'One image set',
        params: z.object({ uuid: z.uuid('The image set id must be a UUID.') }),
        response: { 200: documentImageSetSchema, ...errorResponses },
      },
    },
    async (req) => presentImageSet(await imageSets.get(req.principal, req.params.uuid), links),
  );
};
