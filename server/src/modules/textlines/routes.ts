import {
  differentTextLinesPageSchema,
  differentTextLinesQuerySchema,
  groundTruthOfImageSchema,
  simpleTextLineSchema,
  textLineCorrectionSchema,
  textLineParams,
  textLineParentParams,
} from '@pim/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/http/openapi.js';
import type { RenderedImage } from '../iiif/service.js';
import type { TextLineRecord } from './repository.js';
import { presentDifferentTextLine, presentGroundTruth, presentTextLine } from './presenter.js';
import type { TextLineService } from './service.js';

export interface TextLineRoutesOptions {
  textLines: TextLineService;
}

/** No line left to correct: the spec's 204, with an empty body. */
const noMoreLines = z.null().describe('no uncorrected line is left');

/** Per caller (access is checked), so only the browser may keep it. */
function sendImage(reply: FastifyReply, image: RenderedImage) {
  reply.header('cache-control', 'private, max-age=86400').header('etag', image.etag);
  if (!image.bytes) return reply.code(304).send();
  return reply.type(image.mediaType).send(image.bytes);
}

function sendLineOrNone(reply: FastifyReply, line: TextLineRecord | undefined) {
  return line ? presentTextLine(line) : reply.code(204).send(null);
}

export const textLineRoutes: FastifyPluginAsyncZod<TextLineRoutesOptions> = async (app, { textLines }) => {
  const tags = ['Text lines'];

  app.get(
    '/pim/pimsimpletextline/random',
    {
      schema: {
        tags,
        summary: 'A random uncorrected line the caller may read and has not skipped (204 when none is left)',
        response: { 200: simpleTextLineSchema, 204: noMoreLines, ...errorResponses },
      },
    },
    async (req, reply) => sendLineOrNone(reply, await textLines.random(req.principal)),
  );

  app.get(
    '/pim/pimsimpletextline/random/parent/:parentuuid',
    {
      schema: {
        tags,
        summary: 'A random uncorrected line of one image, or of an image set and its sub-sets (204 when none is left)',
        params: textLineParentParams,
        response: { 200: simpleTextLineSchema, 204: noMoreLines, ...errorResponses },
      },
    },
    async (req, reply) => sendLineOrNone(reply, await textLines.random(req.principal, req.params.parentuuid)),
  );

  app.get(
    '/pim/pimsimpletextline/different',
    {
      schema: {
        tags,
        summary: 'Corrected lines whose ground truth differs from the recognised text, worst CER first',
        querystring: differentTextLinesQuerySchema,
        response: { 200: differentTextLinesPageSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { rows, total } = await textLines.different(req.principal, req.query);
      return { results: rows.map(presentDifferentTextLine), total, page: req.query.page, pageSize: req.query.pageSize };
    },
  );

  app.get(
    '/pim/pimsimpletextline/:uuid',
    {
      schema: { tags, summary: 'One text line', params: textLineParams, response: { 200: simpleTextLineSchema, ...errorResponses } },
    },
    async (req) => presentTextLine(await textLines.get(req.principal, req.params.uuid)),
  );

  app.get(
    '/pim/pimsimpletextline/:uuid/image',
    {
      schema: {
        tags,
        summary: "The line's bounding box cut from its page image, as JPEG",
        params: textLineParams,
        response: errorResponses,
      },
    },
    async (req, reply) => sendImage(reply, await textLines.lineImage(req.principal, req.params.uuid, req.headers['if-none-match'])),
  );

  app.post(
    '/pim/pimsimpletextline/update',
    {
      schema: {
        tags,
        summary: 'Saves the ground truth of a line (needs WRITE on its image) and returns the line',
        body: textLineCorrectionSchema,
        response: { 200: simpleTextLineSchema, ...errorResponses },
      },
    },
    async (req) => presentTextLine(await textLines.update(req.principal, req.body)),
  );

  app.post(
    '/pim/pimsimpletextline/skip',
    {
      schema: {
        tags,
        summary: "Hides a line from the caller's random picks; its groundtruth is ignored (nothing is saved)",
        body: textLineCorrectionSchema,
        response: { 204: z.null().describe('skipped'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await textLines.skip(req.principal, req.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/pim/documentimage/:uuid/groundtruth',
    {
      schema: {
        tags,
        summary: 'Per transcription of the image (oldest first): its number of lines and the corrected ones',
        params: z.object({ uuid: z.uuid('The document image id must be a UUID.') }),
        response: { 200: groundTruthOfImageSchema, ...errorResponses },
      },
    },
    async (req) => presentGroundTruth(await textLines.groundTruthOfImage(req.principal, req.params.uuid)),
  );
};
