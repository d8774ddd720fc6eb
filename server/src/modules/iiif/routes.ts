import {
  IIIF_IMAGE_CONTENT_TYPE,
  IIIF_PRESENTATION_CONTENT_TYPE,
  iiifImageInfoSchema,
  iiifImageRequestParams,
  iiifManifestSchema,
} from '@pim/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { allowAnyOrigin } from '../../platform/http/cors.js';
import { errorResponses } from '../../platform/http/openapi.js';
import { type LinksOf, imageManifestUrl, imageServiceUrl, setManifestUrl } from './links.js';
import { presentImageInfo, presentImageManifest, presentSetManifest } from './presenter.js';
import type { IiifService, RenderedImage } from './service.js';

export interface IiifRoutesOptions {
  iiif: IiifService;
  links: LinksOf;
}

const OPEN_IMAGE = 'Also for anonymous callers when a public, published set holds the image.';

/** Derivatives are per user (access is checked), so only the browser may keep them. */
const CACHE_CONTROL = 'private, max-age=86400';

function sendImage(reply: FastifyReply, image: RenderedImage) {
  reply.header('cache-control', CACHE_CONTROL).header('etag', image.etag);
  if (!image.bytes) return reply.code(304).send();
  return reply.type(image.mediaType).send(image.bytes);
}

/**
 * IIIF Image API 3 at the server root: `/iiif/3/{id}/...`. Authenticated by header like the API;
 * images of public, published sets also without. Open to pages on any origin (CORS).
 */
export const iiifImageRoutes: FastifyPluginAsyncZod<IiifRoutesOptions> = async (app, { iiif, links }) => {
  const tags = ['IIIF'];
  allowAnyOrigin(app, ['/iiif/3/*']);
  const idParams = z.object({ id: z.string() });

  app.get(
    '/iiif/3/:id',
    { schema: { tags, summary: 'The image service: redirects to its info.json', description: OPEN_IMAGE, params: idParams, response: errorResponses } },
    async (req, reply) => {
      await iiif.openImage(req.principal, req.params.id);
      return reply.redirect(`${imageServiceUrl(links(req), req.params.id)}/info.json`, 303);
    },
  );

  app.get(
    '/iiif/3/:id/info.json',
    {
      schema: { tags, summary: 'Image information (IIIF Image API 3)', description: OPEN_IMAGE, params: idParams, response: { 200: iiifImageInfoSchema, ...errorResponses } },
    },
    async (req, reply) => {
      const image = await iiif.openImage(req.principal, req.params.id);
      reply.type(IIIF_IMAGE_CONTENT_TYPE).header('cache-control', CACHE_CONTROL);
      return presentImageInfo(image, links(req));
    },
  );

  app.get(
    '/iiif/3/:id/:region/:size/:rotation/:qualityFormat',
    { schema: { tags, summary: 'A region of the image, scaled, rotated and encoded', description: OPEN_IMAGE, params: iiifImageRequestParams, response: errorResponses } },
    async (req, reply) => {
      const { id, ...parts } = req.params;
      return sendImage(reply, await iiif.render(req.principal, id, parts, req.headers['if-none-match']));
    },
  );
};

/**
 * Thumbnails and Presentation 3 manifests, under the API base; open to pages on any origin
 * (CORS), and the manifests of public, published sets and their images to anonymous clients.
 */
export const iiifApiRoutes: FastifyPluginAsyncZod<IiifRoutesOptions> = async (app, { iiif, links }) => {
  const tags = ['IIIF'];
  allowAnyOrigin(app, ['/pim/documentimage/:uuid/thumbnail', '/pim/imageset/:uuid/manifest', '/pim/documentimage/:uuid/manifest']);
  const uuidParams = z.object({ uuid: z.uuid('The id must be a UUID.') });

  app.get(
    '/pim/documentimage/:uuid/thumbnail',
    { schema: { tags, summary: 'A JPEG thumbnail of the image (fits 320 x 212)', params: uuidParams, response: errorResponses } },
    async (req, reply) => sendImage(reply, await iiif.thumbnail(req.principal, req.params.uuid, req.headers['if-none-match'])),
  );

  app.get(
    '/pim/imageset/:uuid/manifest',
    {
      schema: {
        tags,
        summary: 'IIIF Presentation 3 manifest of the set: a canvas per image, in order',
        description:
          'Also for anonymous callers when the set is public and published. A set without images has no manifest (a manifest needs a canvas): 404 no_canvases.',
        params: uuidParams,
        response: { 200: iiifManifestSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { set, images } = await iiif.setForManifest(req.principal, req.params.uuid);
      reply.type(IIIF_PRESENTATION_CONTENT_TYPE);
      return presentSetManifest(setManifestUrl(links(req), set.id), set, images, links(req));
    },
  );

  app.get(
    '/pim/documentimage/:uuid/manifest',
    {
      schema: {
        tags,
        summary: 'IIIF Presentation 3 manifest of one image',
        description: OPEN_IMAGE,
        params: uuidParams,
        response: { 200: iiifManifestSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const image = await iiif.openImage(req.principal, req.params.uuid);
      reply.type(IIIF_PRESENTATION_CONTENT_TYPE);
      return presentImageManifest(imageManifestUrl(links(req), image.id), image, links(req));
    },
  );
};
