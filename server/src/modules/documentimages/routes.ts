import {
  documentImageAutocompletePageSchema,
  documentImageAutocompleteQuery,
  documentImageFieldDefinitionListSchema,
  documentImageListQuerySchema,
  documentImagePageSchema,
  documentImageSchema,
  namedRefListSchema,
  transcriptionLayoutSchema,
  transcriptionSchema,
} from '@pim/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http/openapi.js';
import type { LinksOf } from '../../platform/http/public-url.js';
import type { StoredFileRecord } from './repository.js';
import { presentLayout } from './layout-presenter.js';
import { presentDocumentImage, presentFieldDefinitions, presentRef, presentTranscription } from './presenter.js';
import { AUTOCOMPLETE_PAGE_SIZE, type DocumentImageService } from './service.js';

export interface DocumentImageRoutesOptions {
  documentImages: DocumentImageService;
  links: LinksOf;
}

const imageParams = z.object({ uuid: z.uuid('The document image id must be a UUID.') });

export const documentImageRoutes: FastifyPluginAsyncZod<DocumentImageRoutesOptions> = async (app, { documentImages, links }) => {
  const tags = ['Document images'];

  app.get(
    '/pim/documentimage/getfielddefinition',
    {
      schema: {
        tags,
        summary: 'The columns of the image table: each field of a document image and its type',
        response: { 200: documentImageFieldDefinitionListSchema, ...errorResponses },
      },
    },
    (req) => {
      documentImages.fieldDefinitions(req.principal);
      return presentFieldDefinitions();
    },
  );

  app.get(
    '/pim/documentimage/autocomplete',
    {
      schema: {
        tags,
        summary: 'Images the caller may read whose label contains filter, 20 at a time (setUuid: of one set)',
        querystring: documentImageAutocompleteQuery,
        response: { 200: documentImageAutocompletePageSchema, ...errorResponses },
      },
    },
    async (req) => {
      const found = await documentImages.autocomplete(req.principal, req.query);
      return { results: found.map((i) => presentRef({ id: i.id, name: i.label })), pageSize: AUTOCOMPLETE_PAGE_SIZE };
    },
  );

  app.get(
    '/pim/documentimage/:uuid',
    {
      schema: { tags, summary: 'One document image', params: imageParams, response: { 200: documentImageSchema, ...errorResponses } },
    },
    async (req) => presentDocumentImage(await documentImages.get(req.principal, req.params.uuid), links(req)),
  );

  app.get(
    '/pim/documentimage/:uuid/transcriptions',
    {
      schema: {
        tags,
        summary: 'The transcriptions of an image, oldest first',
        params: imageParams,
        response: { 200: z.array(transcriptionSchema), ...errorResponses },
      },
    },
    async (req) => (await documentImages.transcriptions(req.principal, req.params.uuid)).map(presentTranscription),
  );

  app.get(
    '/pim/documentimage/:uuid/transcriptions/:transcriptionUuid/layout',
    {
      schema: {
        tags,
        summary: "A transcription's regions and lines (outlines, baselines, text) in the pixels of the image as shown",
        params: imageParams.extend({ transcriptionUuid: z.uuid('The transcription id must be a UUID.') }),
        response: { 200: transcriptionLayoutSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { image, layout } = await documentImages.layout(req.principal, req.params.uuid, req.params.transcriptionUuid);
      return presentLayout(req.params.transcriptionUuid, layout, image);
    },
  );

  app.get(
    '/pim/documentimage/:uuid/documentimagesets',
    {
      schema: {
        tags,
        summary: 'The image sets holding the image that the caller may read',
        params: imageParams,
        response: { 200: namedRefListSchema, ...errorResponses },
      },
    },
    async (req) => (await documentImages.setsOfImage(req.principal, req.params.uuid)).map(presentRef),
  );

  app.get(
    '/pim/documentimageset/:uuid/documentimages',
    {
      schema: {
        tags,
        summary: 'One page of the images of a set: sorted, filtered and paged by the server',
        params: z.object({ uuid: z.uuid('The image set id must be a UUID.') }),
        querystring: documentImageListQuerySchema,
        response: { 200: documentImagePageSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { details, total } = await documentImages.pageOfSet(req.principal, req.params.uuid, req.query);
      return { results: details.map((d) => presentDocumentImage(d, links(req))), total, pageSize: req.query.pageSize };
    },
  );

  const original = {
    schema: { tags, summary: 'The original image file', params: imageParams, response: errorResponses },
  };
  const sendImage = async (req: FastifyRequest<{ Params: { uuid: string } }>, reply: FastifyReply) => {
    const { file, open } = await documentImages.imageFile(req.principal, req.params.uuid);
    return sendFile(req, reply, file, open, 'inline');
  };
  app.get('/pim/image/:uuid', original, sendImage);
  app.get('/pim/image/byid/:uuid', original, sendImage);

  app.get(
    '/pim/pimfile/:uuid',
    {
      schema: {
        tags,
        summary: 'A PDF or XML file uploaded into a set the caller may read, as a download',
        params: z.object({ uuid: z.uuid('The file id must be a UUID.') }),
        response: errorResponses,
      },
    },
    async (req, reply) => {
      const { file, open } = await documentImages.setFile(req.principal, req.params.uuid);
      return sendFile(req, reply, file, open, 'attachment');
    },
  );
};

/** Streams a stored file; its SHA-256 is a strong ETag, so a revalidation costs no bytes. */
function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  file: StoredFileRecord,
  open: () => NodeJS.ReadableStream,
  disposition: 'inline' | 'attachment',
) {
  const etag = `"${file.sha256}"`;
  reply.header('cache-control', 'private, max-age=3600').header('etag', etag);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  const ascii = file.originalName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return reply
    .type(file.mediaType)
    .header('content-length', file.sizeBytes)
    .header('content-disposition', `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.originalName)}`)
    .send(open());
}
