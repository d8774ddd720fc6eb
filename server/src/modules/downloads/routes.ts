import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../platform/http/openapi.js';
import { imageSetParams } from '../imagesets/routes.js';
import type { Download, DownloadService } from './service.js';

export interface DownloadRoutesOptions {
  downloads: DownloadService;
}

/** `GET pim/imageset/{uuid}/get|page|zippedimages|pdf`: the set's downloads, as attachments. */
export const downloadRoutes: FastifyPluginAsyncZod<DownloadRoutesOptions> = async (app, { downloads }) => {
  const tags = ['Downloads'];
  const kinds = [
    ['get', 'The set, its images and their transcriptions as JSON files in a zip ({uuid}_json.zip)', downloads.jsonZip],
    ['page', 'One PAGE 2019 XML file per image in a zip ({uuid}_page.zip)', downloads.pageZip],
    ['zippedimages', 'The original image files in a zip ({uuid}_images.zip)', downloads.imagesZip],
    ['pdf', 'A PDF with a page per image, in the set order ({uuid}.pdf)', downloads.pdf],
  ] as const;
  for (const [path, summary, make] of kinds) {
    app.get(
      `/pim/imageset/:uuid/${path}`,
      { schema: { tags, summary, params: imageSetParams, response: errorResponses } },
      async (req, reply) => send(reply, await make.call(downloads, req.principal, req.params.uuid)),
    );
  }
};

function send(reply: FastifyReply, download: Download) {
  return reply
    .type(download.contentType)
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="${download.fileName}"`)
    .send(download.body);
}
