import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../../platform/http/openapi.js';
import type { LinksOf } from '../../platform/http/public-url.js';
import { imageSetParams } from '../imagesets/routes.js';
import type { Download, DownloadService } from './service.js';

export interface DownloadRoutesOptions {
  downloads: DownloadService;
  links: LinksOf;
}

/** `GET pim/imageset/{uuid}/get|page|zippedimages|pdf`: the set's downloads, as attachments. */
export const downloadRoutes: FastifyPluginAsyncZod<DownloadRoutesOptions> = async (app, { downloads, links }) => {
  const tags = ['Downloads'];
  const kinds: [string, string, (req: FastifyRequest, setId: string) => Promise<Download>][] = [
    [
      'get',
      'The set, its images and their transcriptions as JSON files in a zip ({uuid}_json.zip)',
      (req, setId) => downloads.jsonZip(req.principal, setId, links(req)),
    ],
    ['page', 'One PAGE 2019 XML file per image in a zip ({uuid}_page.zip)', (req, setId) => downloads.pageZip(req.principal, setId)],
    ['zippedimages', 'The original image files in a zip ({uuid}_images.zip)', (req, setId) => downloads.imagesZip(req.principal, setId)],
    ['pdf', 'A PDF with a page per image, in the set order ({uuid}.pdf)', (req, setId) => downloads.pdf(req.principal, setId)],
  ];
  for (const [path, summary, make] of kinds) {
    app.get(
      `/pim/imageset/:uuid/${path}`,
      { schema: { tags, summary, params: imageSetParams, response: errorResponses } },
      async (req, reply) => send(reply, await make(req, req.params.uuid)),
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
