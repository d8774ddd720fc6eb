import type { ReadingOrderGroup, ReadingOrderMember } from '../uploads/page-xml.js';
import type { UniqueId } from './page-xml-drawings.js';
import { escapeAttr, optionalAttr } from './page-xml-text.js';

const GROUP_TYPES = new Set(['paragraph', 'list', 'list-item', 'figure', 'article', 'div', 'other']);

/**
 * The ReadingOrder element of a stored reading order, or nothing. `regionIds` maps each stored
 * region id to the id it was exported under: a reference to a region that is not in the file
 * (PAGE's regionRef is an IDREF) is left out, and so is a group left empty (a group needs a member).
 */
export function readingOrderXml(order: ReadingOrderGroup | null, regionIds: ReadonlyMap<string, string>, uniqueId: UniqueId): string[] {
  const kept = order && prune(order, regionIds);
  if (!kept) return [];
  let groups = 0;
  const write = (group: ReadingOrderGroup, element: string, indent: string, index: number | null): string[] => {
    const id = uniqueId(group.id, `ro_${(groups += 1)}`);
    const ref = group.regionRef === null ? undefined : regionIds.get(group.regionRef);
    const attrs =
      `id="${escapeAttr(id)}"${index === null ? '' : ` index="${index}"`}${optionalAttr('regionRef', ref)}` +
      `${optionalAttr('caption', group.caption)}${optionalAttr('type', group.type && GROUP_TYPES.has(group.type) ? group.type : null)}`;
    const inner = `${indent}  `;
    const ordered = group.kind === 'ordered';
    const indices = ordered ? memberIndices(group.members) : [];
    const body = group.members.flatMap((member, i) => {
      const at = ordered ? indices[i]! : null;
      if (member.kind === 'region') {
        const regionRef = escapeAttr(regionIds.get(member.regionRef)!);
        return [ordered ? `${inner}<RegionRefIndexed index="${at}" regionRef="${regionRef}"/>` : `${inner}<RegionRef regionRef="${regionRef}"/>`];
      }
      const name = `${member.kind === 'ordered' ? 'Ordered' : 'Unordered'}Group${ordered ? 'Indexed' : ''}`;
      return write(member, name, inner, at);
    });
    return [`${indent}<${element} ${attrs}>`, ...body, `${indent}</${element}>`];
  };
  const root = `${kept.kind === 'ordered' ? 'Ordered' : 'Unordered'}Group`;
  return ['    <ReadingOrder>', ...write(kept, root, '      ', null), '    </ReadingOrder>'];
}

/** The group with only the members that are exported, or null when none is. */
function prune(group: ReadingOrderGroup, regionIds: ReadonlyMap<string, string>): ReadingOrderGroup | null {
  const members = group.members.flatMap((m): ReadingOrderMember[] => {
    if (m.kind === 'region') return regionIds.has(m.regionRef) ? [m] : [];
    const kept = prune(m, regionIds);
    return kept ? [kept] : [];
  });
  return members.length > 0 ? { ...group, members } : null;
}

/** The members' stored indices when each has one and they differ, else their positions. */
function memberIndices(members: ReadingOrderMember[]): number[] {
  const stored = members.map((m) => m.index);
  const usable = stored.every((i) => i !== null && i >= 0) && new Set(stored).size === stored.length;
  return usable ? (stored as number[]) : members.map((_, i) => i);
}
