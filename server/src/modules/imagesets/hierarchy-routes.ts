import { hierarchySchema, sortHierarchyRequestSchema, uuidBodySchema } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentHierarchy } from './presenter.js';
import type { ImageSetHierarchyService } from './hierarchy-service.js';
import { imageSetParams } from './routes.js';

/** The tree of a set: read it, add and remove sub-sets and images, sort it. Each answers the tree. */
export const imageSetHierarchyRoutes: FastifyPluginAsyncZod<{ hierarchy: ImageSetHierarchyService }> = async (
  app,
  { hierarchy },
) => {
  const tags = ['Image sets'];
  const response = { 200: hierarchySchema, ...errorResponses };

  app.get(
    '/pim/documentimageset/:uuid/hierarchy',
    { schema: { tags, summary: 'The set with its direct sub-sets and images, in order', params: imageSetParams, response } },
    async (req) => presentHierarchy(await hierarchy.get(req.principal, req.params.uuid)),
  );

  app.put(
    '/pim/documentimageset/:uuid/subsets',
    {
      schema: { tags, summary: 'Add a sub-set at the end (no change if it is there)', params: imageSetParams, body: uuidBodySchema, response },
    },
    async (req) => presentHierarchy(await hierarchy.addSubset(req.principal, req.params.uuid, req.body.uuid)),
  );

  app.delete(
    '/pim/documentimageset/:uuid/subsets',
    { schema: { tags, summary: 'Remove a sub-set from the set', params: imageSetParams, body: uuidBodySchema, response } },
    async (req) => presentHierarchy(await hierarchy.removeSubset(req.principal, req.params.uuid, req.body.uuid)),
  );

  app.put(
    '/pim/documentimageset/:uuid/documentimages',
    {
      schema: { tags, summary: 'Add an image at the end (no change if it is there)', params: imageSetParams, body: uuidBodySchema, response },
    },
    async (req) => presentHierarchy(await hierarchy.addImage(req.principal, req.params.uuid, req.body.uuid)),
  );

  app.delete(
    '/pim/documentimageset/:uuid/documentimages',
    { schema: { tags, summary: 'Remove an image from the set', params: imageSetParams, body: uuidBodySchema, response } },
    async (req) => presentHierarchy(await hierarchy.removeImage(req.principal, req.params.uuid, req.body.uuid)),
  );

  app.post(
    '/pim/documentimageset/:uuid/sort',
    {
      schema: {
        tags,
        summary: 'Order the sub-sets and images by name, naturally (page 2 before page 10)',
        description: 'Ours: the spec names only the Sort button of the tree.',
        params: imageSetParams,
        body: sortHierarchyRequestSchema.nullish(),
        response,
      },
    },
    async (req) => presentHierarchy(await hierarchy.sort(req.principal, req.params.uuid)),
  );
};
