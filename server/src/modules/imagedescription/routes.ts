import { describeImageResponseSchema, errorResponseSchema } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readMultipartForm, registerMultipart } from '../../platform/http/multipart-form.js';
import { errorResponses } from '../../platform/http/openapi.js';
import type { ImageDescriptionService } from './service.js';

/** `POST pim/describeimage` (spec part 2 §7): one image in the part `filepond`, described and not kept. */
export const imageDescriptionRoutes: FastifyPluginAsyncZod<{ imageDescriptions: ImageDescriptionService }> = async (app, { imageDescriptions }) => {
  // Registered here so multipart bodies are parsed only by this plugin's routes.
  await registerMultipart(app, imageDescriptions.limits);

  app.post(
    '/pim/describeimage',
    {
      schema: {
        tags: ['Image description'],
        summary:
          'Describe one image (JPEG, PNG, TIFF, WebP) sent as multipart/form-data in the part "filepond": size, resolution, colour, ' +
          'text lines and columns, skew, orientation, script, language and first words; nothing is stored',
        consumes: ['multipart/form-data'],
        response: { 200: describeImageResponseSchema, ...errorResponses, 413: errorResponseSchema, 415: errorResponseSchema },
      },
    },
    async (req) =>
      imageDescriptions.describe(req.principal, (options) => readMultipartForm(req, imageDescriptions.files, imageDescriptions.limits, options)),
  );
};
