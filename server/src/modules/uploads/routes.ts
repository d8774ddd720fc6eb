import type { Multipart } from '@fastify/multipart';
import { errorResponseSchema, uploadResultSchema } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../platform/errors.js';
import { registerMultipart, translateMultipartError } from '../../platform/http/multipart-form.js';
import { errorResponses } from '../../platform/http/openapi.js';
import type { IncomingUpload, UploadService } from './service.js';

export interface UploadRoutesOptions {
  uploads: UploadService;
}

/** `POST pim/documentimageset/postfile`: one file per request, as FilePond sends them. */
export const uploadRoutes: FastifyPluginAsyncZod<UploadRoutesOptions> = async (app, { uploads }) => {
  // Registered here so multipart bodies are parsed only by this route's scope.
  await registerMultipart(app, { maxFileBytes: uploads.limits.maxBytes, maxFields: 10 });

  app.post(
    '/pim/documentimageset/postfile',
    {
      schema: {
        tags: ['Uploads'],
        summary: 'Upload one file (image, PDF, PAGE XML) into an image set; multipart, part "filepond"',
        consumes: ['multipart/form-data'],
        querystring: z.object({ dataSetId: z.uuid('The image set id (dataSetId) must be a UUID.') }),
        response: { 200: uploadResultSchema, ...errorResponses, 413: errorResponseSchema, 415: errorResponseSchema },
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw badRequest('Send the file as multipart/form-data in the part named filepond.');
      const parts = req.parts()[Symbol.asyncIterator]();
      const nextFile = async () => {
        for (let next = await parts.next(); !next.done; next = await parts.next()) {
          if (next.value.type === 'file') return next.value;
        }
        return undefined;
      };
      const incoming: IncomingUpload = {
        file: async () => {
          const part = await nextFile();
          return part && { fieldName: part.fieldname, fileName: part.filename, stream: part.file };
        },
        hasMoreFiles: async () => {
          try {
            const part: Multipart | undefined = await nextFile();
            if (part?.type === 'file') part.file.resume();
            return part !== undefined;
          } catch (err) {
            if ((err as { code?: string }).code === 'FST_FILES_LIMIT') return true;
            throw err;
          }
        },
      };
      try {
        return await uploads.upload(req.principal, req.query.dataSetId, incoming);
      } catch (err) {
        throw translateMultipartError(err, uploads.limits.maxBytes);
      }
    },
  );
};
