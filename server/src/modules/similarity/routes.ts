import {
  compareBody,
  compareImagesResponseSchema,
  confusionMatricesSchema,
  confusionMatrixParams,
  confusionMatrixSchema,
  dateEstimateQuery,
  dateEstimateSchema,
  distanceAlgorithmsSchema,
  findByModelBody,
  findSingleNewQuery,
  findSnippetQuery,
  siameseSnippetResultsSchema,
  similarityAutocompleteQuery,
  similarityFieldParams,
  similarityModelParams,
  similarityModelsSchema,
  similarityRefPageSchema,
  similaritySetParams,
  similarityValuePageSchema,
  validationSetQuery,
} from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { PICKER_PAGE } from './repository.js';
import { presentConfusionMatrix, presentConfusionSummary, presentDateEstimate, presentSnippet } from './presenter.js';
import type { SimilarityService } from './service.js';

export interface SimilarityRoutesOptions {
  similarity: SimilarityService;
}

const results = { 200: siameseSnippetResultsSchema, ...errorResponses };
const page = <T>(results: T[]) => ({ results, pageSize: PICKER_PAGE });

/** Similarity search (spec part 2 §7 "Similarity search") and the confusion matrices. */
export const similarityRoutes: FastifyPluginAsyncZod<SimilarityRoutesOptions> = async (app, { similarity }) => {
  const tags = ['Similarity'];

  app.get(
    '/pim/siamese/models',
    { schema: { tags, summary: 'The models with snippets the caller may read', response: { 200: similarityModelsSchema, ...errorResponses } } },
    async (req) => similarity.models(req.principal),
  );

  app.get(
    '/pim/siamese/distancealgorithms',
    { schema: { tags, summary: 'The distances a search may rank by', response: { 200: distanceAlgorithmsSchema, ...errorResponses } } },
    async (req) => similarity.distanceAlgorithms(req.principal),
  );

  app.get(
    '/pim/siamese/validationsetnew',
    { schema: { tags, summary: "The model's labelled snippets, the tags in turn", querystring: validationSetQuery, response: results } },
    async (req) => (await similarity.validationSet(req.principal, req.query.model)).map(presentSnippet),
  );

  app.get(
    '/pim/siamese/find',
    { schema: { tags, summary: 'The snippets nearest to one (Euclidean, all features)', querystring: findSnippetQuery, response: results } },
    async (req) => (await similarity.find(req.principal, req.query.id, req.query.model)).map(presentSnippet),
  );

  app.get(
    '/pim/siamese/findsinglenew',
    { schema: { tags, summary: 'The snippets nearest to one, by cosine or Euclidean distance over chosen features', querystring: findSingleNewQuery, response: results } },
    async (req) => (await similarity.findSingleNew(req.principal, req.query)).map(presentSnippet),
  );

  app.post(
    '/pim/siamese/findByModel',
    { schema: { tags, summary: "An image's snippets, or those of a set's images with a metadata value", body: findByModelBody, response: results } },
    async (req) => (await similarity.findByModel(req.principal, req.body)).map(presentSnippet),
  );

  app.post(
    '/pim/siamese/findsinglenewmetadata',
    { schema: { tags, summary: 'The snippets nearest to the example snippet, with filters', body: compareBody, response: results } },
    async (req) => (await similarity.findSingleNewMetadata(req.principal, req.body)).map(presentSnippet),
  );

  app.post(
    '/pim/siamese/compareimagesnippets',
    {
      schema: {
        tags,
        summary: "Image against image: each snippet of the first with its nearest in the second, and the images' distance",
        body: compareBody,
        response: { 200: compareImagesResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { distance, pairs } = await similarity.compareImages(req.principal, req.body);
      return { distance, pairs: pairs.map((p) => ({ query: presentSnippet(p.query), match: presentSnippet(p.match) })) };
    },
  );

  app.post(
    '/pim/siamese/comparewithimageset',
    { schema: { tags, summary: 'The images of a set (or every readable set) nearest to an image', body: compareBody, response: results } },
    async (req) => (await similarity.compareWithImageSet(req.principal, req.body)).map(presentSnippet),
  );

  app.get(
    '/pim/siamese/dateestimate',
    {
      schema: {
        tags,
        summary: "A date (and script) for an image from its nearest dated neighbours, with the interval of their middle 80 %",
        querystring: dateEstimateQuery,
        response: { 200: dateEstimateSchema, ...errorResponses },
      },
    },
    async (req) => presentDateEstimate(await similarity.dateEstimate(req.principal, req.query)),
  );

  const picker = { 200: similarityRefPageSchema, ...errorResponses };
  app.get(
    '/pim/siamese/models/autocomplete',
    {
      schema: {
        tags,
        summary: "Models with snippets, by label ('builtin' is the built-in descriptor)",
        querystring: similarityAutocompleteQuery,
        response: { 200: similarityValuePageSchema, ...errorResponses },
      },
    },
    async (req) => page(await similarity.modelPicker(req.principal, req.query)),
  );
  app.get(
    '/pim/siamese/:model/metadatafields/autocomplete',
    { schema: { tags, summary: 'Metadata fields with values on images with snippets', params: similarityModelParams, querystring: similarityAutocompleteQuery, response: picker } },
    async (req) => page(await similarity.fieldPicker(req.principal, req.params.model, req.query)),
  );
  app.get(
    '/pim/siamese/:model/:field/metadataFieldValues/autocomplete',
    {
      schema: {
        tags,
        summary: "A field's values on images with snippets",
        params: similarityFieldParams,
        querystring: similarityAutocompleteQuery,
        response: { 200: similarityValuePageSchema, ...errorResponses },
      },
    },
    async (req) => page(await similarity.valuePicker(req.principal, req.params.model, req.params.field, req.query)),
  );
  app.get(
    '/pim/siamese/:model/imagesets/autocomplete',
    { schema: { tags, summary: 'Readable image sets with snippets', params: similarityModelParams, querystring: similarityAutocompleteQuery, response: picker } },
    async (req) => page(await similarity.setPicker(req.principal, req.params.model, req.query)),
  );
  app.get(
    '/pim/siamese/:model/:imageset/images/autocomplete',
    { schema: { tags, summary: "A set's images with snippets", params: similaritySetParams, querystring: similarityAutocompleteQuery, response: picker } },
    async (req) => page(await similarity.imagePicker(req.principal, req.params.model, req.params.imageset, req.query)),
  );

  app.get(
    '/pim/siameseconfusionmatrix',
    { schema: { tags, summary: 'The confusion matrices of sets the caller may read, newest first', response: { 200: confusionMatricesSchema, ...errorResponses } } },
    async (req) => (await similarity.confusionMatrices(req.principal)).map(presentConfusionSummary),
  );
  app.get(
    '/pim/siameseconfusionmatrix/:uuid',
    { schema: { tags, summary: 'A confusion matrix with its report', params: confusionMatrixParams, response: { 200: confusionMatrixSchema, ...errorResponses } } },
    async (req) => presentConfusionMatrix(await similarity.confusionMatrix(req.principal, req.params.uuid)),
  );
};
