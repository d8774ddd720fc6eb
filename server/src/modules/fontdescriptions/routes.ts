import {
  errorResponseSchema,
  fontDescriptionListSchema,
  fontDescriptionParams,
  fontDescriptionSchema,
  fontDownloadName,
  updateFontDescriptionRequestSchema,
} from '@pim/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readMultipartForm, registerMultipart } from '../../platform/http/multipart-form.js';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentFontDescription } from './presenter.js';
import type { FontDescriptionService, FontFile } from './service.js';

/** Font descriptions (spec part 1 §7 "Font descriptions"): list, read, create with the font file, update, delete, download. */
export const fontDescriptionRoutes: FastifyPluginAsyncZod<{ fontDescriptions: FontDescriptionService }> = async (
  app,
  { fontDescriptions },
) => {
  const tags = ['Font descriptions'];
  // Registered here so multipart bodies are parsed only by this plugin's routes.
  await registerMultipart(app, fontDescriptions.limits);

  app.get(
    '/pim/fontdescription',
    { schema: { tags, summary: 'Every font description, by name', response: { 200: fontDescriptionListSchema, ...errorResponses } } },
    async (req) => (await fontDescriptions.list(req.principal)).map(presentFontDescription),
  );

  app.get(
    '/pim/fontdescription/:uuid',
    {
      schema: { tags, summary: 'One font description', params: fontDescriptionParams, response: { 200: fontDescriptionSchema, ...errorResponses } },
    },
    async (req) => presentFontDescription(await fontDescriptions.get(req.principal, req.params.uuid)),
  );

  app.post(
    '/pim/fontdescription',
    {
      schema: {
        tags,
        summary:
          'Create a font description (admin). multipart/form-data: the fields uri, name, type, license, handwritten, containsLongS, ' +
          'containsLigatures, romanScript, serif as text parts ("true"/"false" for the yes/no ones) and the .ttf or .otf file in the part "file"; ' +
          'a blank name or type is read from the font',
        consumes: ['multipart/form-data'],
        response: {
          201: fontDescriptionSchema,
          ...errorResponses,
          409: errorResponseSchema,
          413: errorResponseSchema,
          415: errorResponseSchema,
        },
      },
    },
    async (req, reply) => {
      const font = await fontDescriptions.create(req.principal, (options) =>
        readMultipartForm(req, fontDescriptions.files, fontDescriptions.limits, options),
      );
      return reply.code(201).send(presentFontDescription(font));
    },
  );

  app.put(
    '/pim/fontdescription/:uuid',
    {
      schema: {
        tags,
        summary: 'Change a font description (admin); the URI cannot be changed and the file is not replaced',
        params: fontDescriptionParams,
        body: updateFontDescriptionRequestSchema,
        response: { 200: fontDescriptionSchema, ...errorResponses },
      },
    },
    async (req) => presentFontDescription(await fontDescriptions.update(req.principal, req.params.uuid, req.body)),
  );

  app.delete(
    '/pim/fontdescription/:uuid',
    {
      schema: {
        tags,
        summary: 'Delete a font description and its font file (admin)',
        params: fontDescriptionParams,
        response: { 204: z.null().describe('deleted'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await fontDescriptions.delete(req.principal, req.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/pim/fontdescription/:uuid/binary',
    {
      schema: {
        tags,
        summary: 'The font file as a download named {uuid}.ttf (font/ttf or font/otf)',
        params: fontDescriptionParams,
        response: errorResponses,
      },
    },
    async (req, reply) => sendFont(reply, await fontDescriptions.fontFile(req.principal, req.params.uuid)),
  );
};

/** Streams the font file as an attachment named `{uuid}.ttf`, whatever its flavour (spec part 1 §9). */
function sendFont(reply: FastifyReply, { font, file, open }: FontFile) {
  return reply
    .type(file.mediaType)
    .header('content-length', file.sizeBytes)
    .header('cache-control', 'private, no-cache')
    .header('etag', `"${file.sha256}"`)
    .header('content-disposition', `attachment; filename="${fontDownloadName(font.id)}"`)
    .send(open());
}
