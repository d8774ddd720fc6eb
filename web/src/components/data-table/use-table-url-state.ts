import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { decodeTableState, defaultTableState, encodeTableState, type TableUrlState } from './table-state';

/**
 * The table's state lives in one query parameter (JSON). Updates replace the history entry so
 * paging through a table does not fill the back button.
 */
export function useTableUrlState(
  param: string,
  hiddenColumns: readonly string[],
  columnIds: readonly string[],
): [TableUrlState, (next: TableUrlState) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const raw = searchParams.get(param);
  // Callers pass fresh arrays each render; their contents are what matters.
  const hiddenKey = hiddenColumns.join('\n');
  const idsKey = columnIds.join('\n');
  const state = useMemo(
    () => decodeTableState(raw, defaultTableState(hiddenKey ? hiddenKey.split('\n') : []), idsKey.split('\n')),
    [raw, hiddenKey, idsKey],
  );
  const setState = useCallback(
    (next: TableUrlState) =>
      setSearchParams(
        (previous) => {
          const params = new URLSearchParams(previous);
          params.set(param, encodeTableState(next));
          return params;
        },
        { replace: true },
      ),
    [param, setSearchParams],
  );
  return [state, setState];
}
