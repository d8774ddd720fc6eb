import { documentImageSetSchema, type AclPermission } from '@pim/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';

/**
 * Whether the caller holds a permission on a set, from the set's `permissions`. Unknown (not asked
 * yet, or an answer without them) counts as allowed: the server decides either way.
 */
export type May = (permission: AclPermission) => boolean;

export function mayFrom(permissions: readonly AclPermission[] | undefined): May {
  return (permission) => permissions?.includes(permission) ?? true;
}

/**
 * What the caller may do with a set of the tree: the root's come with the page (`known`); a
 * sub-set's are asked for once its folder or menu opens (`wanted`), quietly, since the tree works
 * without them.
 */
export function useSetPermissions(uuid: string, known: readonly AclPermission[] | undefined, wanted: boolean): May {
  const asked = useQuery({
    queryKey: ['imagesets', 'permissions', uuid],
    queryFn: ({ signal }) =>
      apiFetch(`pim/documentimageset/${encodeURIComponent(uuid)}`, { schema: documentImageSetSchema, signal, quiet: true }),
    select: (set) => set.permissions,
    enabled: known === undefined && wanted,
    staleTime: Infinity,
  });
  return mayFrom(known ?? asked.data);
}
