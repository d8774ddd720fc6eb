import {
  aclEntryListSchema,
  aclEntryParams,
  aclPermissionListSchema,
  aclSubjectParams,
  errorResponseSchema,
  addAclEntryRequestSchema,
} from '@pim/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentAclEntry } from './presenter.js';
import type { AclService } from './service.js';

/** The ACL editor's calls: entries of a subject, add, delete, and the options of its pickers. */
export const aclRoutes: FastifyPluginAsyncZod<{ acl: AclService }> = async (app, { acl }) => {
  const tags = ['ACL'];

  app.get(
    '/pim/acl/allfor/:subjectId',
    {
      schema: {
        tags,
        summary: 'The ACL entries of an image set',
        params: aclSubjectParams,
        response: { 200: aclEntryListSchema, ...errorResponses },
      },
    },
    async (req) => (await acl.list(req.principal, req.params.subjectId)).map(presentAclEntry),
  );

  app.post(
    '/pim/acl/subject/:subjectId',
    {
      schema: {
        tags,
        summary: "Grant a group's members with a role a permission on an image set (owner or admin)",
        params: aclSubjectParams,
        body: addAclEntryRequestSchema,
        response: { 200: aclEntryListSchema, ...errorResponses, 409: errorResponseSchema },
      },
    },
    async (req) => (await acl.add(req.principal, req.params.subjectId, req.body)).map(presentAclEntry),
  );

  app.delete(
    '/pim/acl/:uuid',
    {
      schema: {
        tags,
        summary: 'Remove an ACL entry (owner of its subject or admin)',
        params: aclEntryParams,
        response: { 204: z.null().describe('removed'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await acl.delete(req.principal, req.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/pim/acl/permissions',
    { schema: { tags, summary: 'The permissions an ACL entry can grant', response: { 200: aclPermissionListSchema, ...errorResponses } } },
    (req) => [...acl.permissions(req.principal)],
  );
};
