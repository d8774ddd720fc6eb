import type { AclEntry } from '@pim/contract';
import type { AclEntryRecord } from './repository.js';

/** An ACL entry as the editor lists it. */
export function presentAclEntry(entry: AclEntryRecord): AclEntry {
  return {
    uuid: entry.id,
    group: { uuid: entry.group.id, name: entry.group.name },
    role: entry.role,
    permission: entry.permission,
  };
}
