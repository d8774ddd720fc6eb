import { drawingParams, drawingSchema, saveDrawingRequestSchema } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentDrawing } from './presenter.js';
import type { DrawingService } from './service.js';

export const drawingRoutes: FastifyPluginAsyncZod<{ drawings: DrawingService }> = async (app, { drawings }) => {
  const tags = ['Drawings'];

  app.get(
    '/pim/documentimage/:uuid/drawing',
    {
      schema: {
        tags,
        summary: 'The lines and polygons drawn on an image (empty, updated null, when none are)',
        params: drawingParams,
        response: { 200: drawingSchema, ...errorResponses },
      },
    },
    async (req) => presentDrawing(await drawings.get(req.principal, req.params.uuid)),
  );

  app.put(
    '/pim/documentimage/:uuid/drawing',
    {
      schema: {
        tags,
        summary: "Replaces the image's drawing; an empty list of shapes clears it",
        params: drawingParams,
        body: saveDrawingRequestSchema,
        response: { 200: drawingSchema, ...errorResponses },
      },
    },
    async (req) => presentDrawing(await drawings.save(req.principal, req.params.uuid, req.body.shapes)),
  );
};
