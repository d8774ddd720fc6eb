import { dashboardSchema, onlyOwnDataQuery, statisticParams, statisticsSchema } from '@pim/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import type { StatisticsService } from './service.js';

/** Statistics (spec part 1 §7 "Statistics") and the dashboard's job queue and storage. */
export const statisticsRoutes: FastifyPluginAsyncZod<{ statistics: StatisticsService }> = async (app, { statistics }) => {
  const tags = ['Statistics'];

  app.get(
    '/pim/statistics/:name',
    {
      schema: {
        tags,
        summary: 'One of the nine statistics: a total and its series per day, per month or as shares, of what the caller may read',
        params: statisticParams,
        querystring: onlyOwnDataQuery,
        response: { 200: statisticsSchema, ...errorResponses },
      },
    },
    (req) => statistics.statistic(req.principal, req.params.name, req.query.onlyOwnData),
  );

  app.get(
    '/pim/dashboard',
    {
      schema: {
        tags,
        summary: "The job queue and the file store: the whole server's for an administrator, else the caller's own",
        response: { 200: dashboardSchema, ...errorResponses },
      },
    },
    (req) => statistics.dashboard(req.principal),
  );
};
