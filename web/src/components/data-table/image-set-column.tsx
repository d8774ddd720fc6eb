import { Anchor } from '@mantine/core';
import type { NamedRef } from '@pim/contract';
import { Link } from 'react-router';
import type { DataTableColumn } from './column-meta';

/** The image set a row belongs to: its name, sorted and filtered as text, linking to the set's page. */
export function imageSetColumn<T>(header: string, imageSetOf: (row: T) => NamedRef | null | undefined): DataTableColumn<T> {
  return {
    id: 'imageSet',
    header,
    accessorFn: (row) => imageSetOf(row)?.name ?? '',
    cell: ({ row }) => {
      const set = imageSetOf(row.original);
      if (!set) return null;
      return (
        <Anchor component={Link} to={`/imageset?uuid=${encodeURIComponent(set.uuid)}`} size="sm">
          {set.name}
        </Anchor>
      );
    },
  };
}
