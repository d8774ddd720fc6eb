import {
  createImageSetRequestSchema,
  createImageSetResponseSchema,
  documentImageSetListSchema,
  documentImageSetSchema,
  imageSetAutocompleteQuery,
  imageSetAutocompleteResponseSchema,
  onlyOwnDataQuery,
  updateImageSetRequestSchema,
} from '@pim/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import type { LinksOf } from '../../platform/http/public-url.js';
import { SerializedOnce } from '../../platform/http/serialized-once.js';
import { presentImageSet, presentImageSetRef } from './presenter.js';
import type { ImageSetService } from './service.js';

export interface ImageSetRoutesOptions {
  imageSets: ImageSetService;
  links: LinksOf;
}

/** Path parameter of every call about one set. */
export const imageSetParams = z.object({ uuid: z.uuid('The image set id must be a UUID.') });

export const imageSetRoutes: FastifyPluginAsyncZod<ImageSetRoutesOptions> = async (app, { imageSets, links }) => {
  const tags = ['Image sets'];
  // The list comes from the service's cache: it is presented and serialized once per change.
  const listBodies = new SerializedOnce();

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
    async (req, reply) => {
      const sets = await imageSets.list(req.principal, req.query.onlyOwnData);
      const at = links(req);
      return listBodies.send(reply, sets, `${at.publicUrl} ${at.apiBase}`, () => sets.map((s) => presentImageSet(s, at)));
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
    '/pim/documentimageset/autocomplete',
    {
      schema: {
        tags,
        summary: 'Sets the caller may read whose name contains the filter, a page at a time',
        querystring: imageSetAutocompleteQuery,
        response: { 200: imageSetAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const page = await imageSets.autocomplete(req.principal, req.query);
      return { results: page.results.map(presentImageSetRef), pageSize: page.pageSize };
    },
  );

  app.post(
    '/pim/documentimageset/update',
    {
      schema: {
        tags,
        summary: 'Change the settings of a set (only the fields sent)',
        body: updateImageSetRequestSchema,
        response: { 200: documentImageSetSchema, ...errorResponses },
      },
    },
    async (req) => presentImageSet(await imageSets.update(req.principal, req.body), links(req)),
  );

  app.delete(
    '/pim/documentimageset/:uuid',
    {
      schema: {
        tags,
        summary: 'Delete a set (it disappears from lists, trees and pickers)',
        params: imageSetParams,
        response: { 204: z.null().describe('deleted'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await imageSets.delete(req.principal, req.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/pim/documentimageset/:uuid',
    {
      schema: {
        tags,
        summary: 'One image set',
        params: imageSetParams,
        response: { 200: documentImageSetSchema, ...errorResponses },
      },
    },
    async (req) => presentImageSet(await imageSets.detail(req.principal, req.params.uuid), links(req)),
  );
};
