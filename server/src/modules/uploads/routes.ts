import multipart, { type Multipart } from '@fastify/multipart';
import { errorResponseSchema, uploadResultSchema } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest, tooLarge } from '../../platform/errors.js';
import { errorResponses } from '../../platform/http/openapi.js';
import type { IncomingUpload, UploadService } from './service.js';

export interface UploadRoutesOptions {
  uploads: UploadService;
}

/** `POST pim/documentimageset/postfile`: one file per request, as FilePond sends them. */
export const uploadRoutes: FastifyPluginAsyncZod<UploadRoutesOptions> = async (app, { uploads }) => {
  // Registered here so multipart bodies are parsed only by this route's scope.
  await app.register(multipart, {
    // One byte over the limit reaches the file store, which refuses it with a clear message.
    limits: { fileSize: uploads.limits.maxBytes + 1, files: 1, fields: 10, parts: 11, fieldSize: 64 * 1024 },
  });

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

/** The multipart parser's own errors, in words a person understands. */
function translateMultipartError(err: unknown, maxBytes: number): unknown {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_FILES_LIMIT':
      return badRequest('Upload one file per request.');
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(`The file is larger than the limit of ${Math.round(maxBytes / (1024 * 1024))} MB.`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('The upload has too many form fields: send only the file, in the part named filepond.');
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest('The upload was interrupted before the whole file arrived. Try again.');
    default:
      return err;
  }
}
