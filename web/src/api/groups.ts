import {
  groupHierarchySchema,
  groupListSchema,
  groupRoleListSchema,
  groupSchema,
  type AddMembershipRequest,
  type CreateGroupRequest,
  type Group,
  type GroupHierarchy,
  type RemoveMembershipRequest,
  type RenameGroupRequest,
  type SubgroupRequest,
} from '@pim/contract';
import { useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { apiFetch } from './client';

export const groupKeys = {
  all: ['groups'] as const,
  list: ['groups', 'list'] as const,
  hierarchy: (uuid: string) => ['groups', 'hierarchy', uuid] as const,
  possibleRoles: (uuid: string) => ['groups', 'possibleRoles', uuid] as const,
};

const groupPath = (uuid: string) => `pim/pimgroups/${encodeURIComponent(uuid)}`;

/** The picker of a group's candidate subgroups (`GET pim/pimgroups/autocomplete/{uuid}`). */
export const subgroupCandidatesUrl = (uuid: string) => `pim/pimgroups/autocomplete/${encodeURIComponent(uuid)}`;

/** `GET pim/pimgroups`: the live groups, by name (admins only; others get 403). */
export function useGroups() {
  return useQuery({
    queryKey: groupKeys.list,
    queryFn: ({ signal }) => apiFetch('pim/pimgroups', { schema: groupListSchema, signal }),
  });
}

/** `POST pim/pimgroups/create`: answers the new group. */
export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateGroupRequest) => apiFetch('pim/pimgroups/create', { method: 'POST', body: request, schema: groupSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.list }),
  });
}

/** `POST pim/pimgroups/{uuid}/update`: renames the group. */
export function useRenameGroup(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: RenameGroupRequest) =>
      apiFetch(`${groupPath(uuid)}/update`, { method: 'POST', body: request, schema: groupSchema }),
    onSuccess: (saved: Group) => {
      queryClient.setQueryData<GroupHierarchy>(groupKeys.hierarchy(uuid), (old) => old && { ...old, name: saved.name });
      // Other groups' cached children may name this one: stale, asked again when next shown.
      void queryClient.invalidateQueries({
        predicate: (query) => isHierarchyQuery(query) && query.queryKey[2] !== uuid,
        refetchType: 'none',
      });
      return queryClient.invalidateQueries({ queryKey: groupKeys.list });
    },
  });
}

/** `DELETE pim/pimgroups/{uuid}`; the list is asked again. */
export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiFetch(groupPath(uuid), { method: 'DELETE' }),
    onSuccess: (_, uuid) => {
      queryClient.removeQueries({ queryKey: groupKeys.hierarchy(uuid) });
      return queryClient.invalidateQueries({ queryKey: groupKeys.list });
    },
  });
}

/**
 * `GET pim/pimgroups/{uuid}/membershiphierarchy`: the group's direct subgroups and memberships.
 * Each node of the tree asks once, when it first opens; changes put the server's answer in the
 * cache themselves. Quiet: the screens say themselves what failed.
 */
export function useGroupHierarchy(uuid: string) {
  return useQuery({
    queryKey: groupKeys.hierarchy(uuid),
    queryFn: ({ signal }) =>
      apiFetch(`${groupPath(uuid)}/membershiphierarchy`, { schema: groupHierarchySchema, signal, quiet: true }),
    staleTime: Infinity,
  });
}

export type GroupHierarchyChange =
  | { action: 'addmembership'; body: AddMembershipRequest }
  | { action: 'removemembership'; body: RemoveMembershipRequest }
  | { action: 'addSubgroup' | 'removeSubgroup'; body: SubgroupRequest };

function isHierarchyQuery(query: Query): boolean {
  return query.queryKey[0] === 'groups' && query.queryKey[1] === 'hierarchy';
}

/** Typeahead caches of subgroup candidates: which groups may be added changes with every subgroup link. */
function isSubgroupCandidatesQuery(query: Query): boolean {
  const [kind, url] = query.queryKey;
  return kind === 'typeahead' && typeof url === 'string' && url.startsWith('pim/pimgroups/autocomplete/');
}

/** `PUT pim/pimgroups/{id}/hierarchy/{action}`: every change answers the updated hierarchy of group `id`. */
export function useGroupHierarchyChange(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, body }: GroupHierarchyChange) =>
      apiFetch(`${groupPath(groupId)}/hierarchy/${action}`, { method: 'PUT', body, schema: groupHierarchySchema }),
    onSuccess: (hierarchy, { action }) => {
      queryClient.setQueryData(groupKeys.hierarchy(groupId), hierarchy);
      if (action === 'addSubgroup' || action === 'removeSubgroup') {
        void queryClient.invalidateQueries({ predicate: isSubgroupCandidatesQuery, refetchType: 'none' });
      }
      // Member and subgroup counts of the list changed.
      return queryClient.invalidateQueries({ queryKey: groupKeys.list });
    },
  });
}

/**
 * `GET pim/pimgroups/{id}/possibleroles`: the roles a member can hold in the group, which
 * memberships and ACL entries name. Asked only once a group is chosen.
 */
export function useGroupPossibleRoles(groupId: string | null) {
  return useQuery({
    queryKey: groupKeys.possibleRoles(groupId ?? ''),
    queryFn: ({ signal }) => apiFetch(`${groupPath(groupId ?? '')}/possibleroles`, { schema: groupRoleListSchema, signal }),
    enabled: groupId !== null,
    staleTime: Infinity,
  });
}
