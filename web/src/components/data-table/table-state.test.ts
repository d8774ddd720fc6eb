import { describe, expect, it } from 'vitest';
import { decodeTableState, defaultTableState, encodeTableState, type TableUrlState } from './table-state';

const columns = ['name', 'size', 'public', 'created'];
const defaults = defaultTableState(['created']);

describe('table state in the URL', () => {
  it('has the spec defaults: first page of 10, default hidden columns hidden', () => {
    expect(defaults).toEqual({
      pageIndex: 0,
      pageSize: 10,
      sorting: [],
      columnFilters: [],
      columnVisibility: { created: false },
    });
  });

  it('decodes what it encodes', () => {
    const state: TableUrlState = {
      pageIndex: 2,
      pageSize: 50,
      sorting: [{ id: 'name', desc: true }],
      columnFilters: [
        { id: 'name', value: 'psalter' },
        { id: 'size', value: [10, null] },
        { id: 'public', value: false },
      ],
      columnVisibility: { created: true, size: false },
    };
    const encoded = encodeTableState(state);
    expect(JSON.parse(encoded)).toEqual(state);
    expect(decodeTableState(encoded, defaults, columns)).toEqual(state);
  });

  it('keeps the defaults for parts the address leaves out', () => {
    expect(decodeTableState('{"pageIndex":1}', defaults, columns)).toEqual({ ...defaults, pageIndex: 1 });
  });

  it.each([
    ['not JSON', '{pageIndex:1'],
    ['a page size that is not offered', '{"pageSize":7}'],
    ['a negative page', '{"pageIndex":-1}'],
    ['a wrong sorting shape', '{"sorting":[{"id":"name"}]}'],
    ['an unknown column', '{"sorting":[{"id":"password","desc":false}]}'],
    ['an unknown key', '{"pageIndex":1,"evil":true}'],
    ['a filter value of the wrong type', '{"columnFilters":[{"id":"size","value":{"min":1}}]}'],
    ['not an object', '[1,2,3]'],
  ])('falls back to the defaults for %s', (_, raw) => {
    expect(decodeTableState(raw, defaults, columns)).toEqual(defaults);
  });

  it('uses the defaults when there is no state parameter', () => {
    expect(decodeTableState(null, defaults, columns)).toBe(defaults);
  });
});
