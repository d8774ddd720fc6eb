import {
  addMembershipRequestSchema,
  createGroupRequestSchema,
  groupAutocompleteResponseSchema,
  groupHierarchySchema,
  groupIdParams,
  groupListSchema,
  groupParams,
  groupRoleListSchema,
  groupSchema,
  removeMembershipRequestSchema,
  renameGroupRequestSchema,
  subgroupRequestSchema,
  typeaheadQuery,
} from '@pim/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@pim/contract';
import { errorResponses } from '../../platform/http/openapi.js';
import { presentGroup, presentGroupRef, presentHierarchy } from './presenter.js';
import type { GroupService } from './service.js';

/** Groups (spec part 2 §7 "Users and groups"): the list, create, rename, delete, the hierarchy editor and the pickers. */
export const groupRoutes: FastifyPluginAsyncZod<{ groups: GroupService }> = async (app, { groups }) => {
  const tags = ['Groups'];
  const hierarchy = { 200: groupHierarchySchema, ...errorResponses, 409: errorResponseSchema };

  app.get(
    '/pim/pimgroups',
    { schema: { tags, summary: 'Every live group by name, with member and subgroup counts (admins)', response: { 200: groupListSchema, ...errorResponses } } },
    async (req) => (await groups.list(req.principal)).map(presentGroup),
  );

  app.post(
    '/pim/pimgroups/create',
    { schema: { tags, summary: 'Create a group (admins)', body: createGroupRequestSchema, response: { 200: groupSchema, ...errorResponses } } },
    async (req) => {
      const group = await groups.create(req.principal, req.body.name);
      return presentGroup(await groups.summary(group.id));
    },
  );

  app.post(
    '/pim/pimgroups/:uuid/update',
    {
      schema: { tags, summary: 'Rename a group (admins)', params: groupParams, body: renameGroupRequestSchema, response: { 200: groupSchema, ...errorResponses } },
    },
    async (req) => presentGroup(await groups.rename(req.principal, req.params.uuid, req.body.name)),
  );

  app.delete(
    '/pim/pimgroups/:uuid',
    {
      schema: {
        tags,
        summary: 'Delete a group (admins): it leaves every list and hierarchy and grants nothing any more',
        params: groupParams,
        response: { 204: z.null().describe('deleted'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await groups.delete(req.principal, req.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/pim/pimgroups/:uuid/membershiphierarchy',
    {
      schema: { tags, summary: "The group's name, its subgroups and its memberships (admins)", params: groupParams, response: { 200: groupHierarchySchema, ...errorResponses } },
    },
    async (req) => presentHierarchy(await groups.hierarchy(req.principal, req.params.uuid)),
  );

  app.put(
    '/pim/pimgroups/:id/hierarchy/addmembership',
    { schema: { tags, summary: 'Give a user a role in the group (admins)', params: groupIdParams, body: addMembershipRequestSchema, response: hierarchy } },
    async (req) => presentHierarchy(await groups.addMembership(req.principal, req.params.id, req.body)),
  );

  app.put(
    '/pim/pimgroups/:id/hierarchy/removemembership',
    { schema: { tags, summary: 'Remove a membership of the group (admins)', params: groupIdParams, body: removeMembershipRequestSchema, response: hierarchy } },
    async (req) => presentHierarchy(await groups.removeMembership(req.principal, req.params.id, req.body.membershipId)),
  );

  app.put(
    '/pim/pimgroups/:id/hierarchy/addSubgroup',
    {
      schema: {
        tags,
        summary: 'Put a group under this one; a group cannot become its own descendant (admins)',
        params: groupIdParams,
        body: subgroupRequestSchema,
        response: hierarchy,
      },
    },
    async (req) => presentHierarchy(await groups.addSubgroup(req.principal, req.params.id, req.body.uuid)),
  );

  app.put(
    '/pim/pimgroups/:id/hierarchy/removeSubgroup',
    { schema: { tags, summary: 'Take a subgroup from under this group (admins)', params: groupIdParams, body: subgroupRequestSchema, response: hierarchy } },
    async (req) => presentHierarchy(await groups.removeSubgroup(req.principal, req.params.id, req.body.uuid)),
  );

  app.get(
    '/pim/pimgroups/autocomplete',
    {
      schema: {
        tags,
        summary: 'Groups whose name contains the filter, a page at a time',
        querystring: typeaheadQuery,
        response: { 200: groupAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const page = await groups.autocomplete(req.principal, req.query);
      return { results: page.results.map(presentGroupRef), pageSize: page.pageSize };
    },
  );

  app.get(
    '/pim/pimgroups/autocomplete/:uuid',
    {
      schema: {
        tags,
        summary: 'Groups that may become a subgroup of this one (not itself, a group above it or a child already), by name (admins)',
        params: groupParams,
        querystring: typeaheadQuery,
        response: { 200: groupAutocompleteResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const page = await groups.subgroupCandidates(req.principal, req.params.uuid, req.query);
      return { results: page.results.map(presentGroupRef), pageSize: page.pageSize };
    },
  );

  app.get(
    '/pim/pimgroups/:id/possibleroles',
    {
      schema: {
        tags,
        summary: 'The roles a member of the group can hold, which ACL entries name',
        params: groupIdParams,
        response: { 200: groupRoleListSchema, ...errorResponses },
      },
    },
    async (req) => [...(await groups.possibleRoles(req.principal, req.params.id))],
  );
};
