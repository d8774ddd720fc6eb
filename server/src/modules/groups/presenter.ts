import type { NamedRef } from '@pim/contract';
import type { GroupRecord } from './repository.js';

/** A group as pickers and ACL entries show it. */
export function presentGroupRef(group: GroupRecord): NamedRef {
  return { uuid: group.id, name: group.name };
}
