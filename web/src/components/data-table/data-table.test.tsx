import { screen, waitFor, within } from '@testing-library/react';
import { Button } from '@mantine/core';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../test/render';
import type { DataTableColumn } from './column-meta';
import { DataTable } from './data-table';

interface Item {
  name: string;
  size: number;
  public: boolean;
  created: string;
}

const items: Item[] = Array.from({ length: 25 }, (_, i) => ({
  name: `Set ${i + 1}`,
  size: i + 1,
  public: i % 2 === 0,
  created: `2024-01-${String(i + 1).padStart(2, '0')}`,
}));

const columns: DataTableColumn<Item>[] = [
  { accessorKey: 'name', header: 'name' },
  { accessorKey: 'size', header: 'size', meta: { filterVariant: 'range' } },
  { accessorKey: 'public', header: 'public', cell: ({ getValue }) => (getValue<boolean>() ? 'yes' : 'no'), meta: { filterVariant: 'boolean' } },
  { accessorKey: 'created', header: 'created' },
];

function renderTable(search = '') {
  return renderPage(
    <DataTable label="Sets" columns={columns} data={items} getRowId={(item) => item.name} defaultHiddenColumns={['created']} />,
    `/list${search}`,
  );
}

function shownNames(): string[] {
  const table = screen.getByRole('table', { name: 'Sets' });
  return Array.from(table.querySelectorAll('tbody tr')).map((row) => row.querySelector('td')?.textContent ?? '');
}

function urlState(router: ReturnType<typeof renderTable>['router']): unknown {
  const raw = new URLSearchParams(router.state.location.search).get('state');
  return raw === null ? null : JSON.parse(raw);
}

function headers(): string[] {
  const table = screen.getByRole('table', { name: 'Sets' });
  return within(table.querySelector('thead tr') as HTMLElement)
    .getAllByRole('columnheader')
    .map((th) => th.textContent ?? '');
}

describe('DataTable', () => {
  it('starts on the first page of 10 with the default hidden columns hidden', () => {
    const { router } = renderTable();
    expect(shownNames()).toEqual(items.slice(0, 10).map((i) => i.name));
    expect(headers()).toEqual(['name', 'size', 'public']);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(urlState(router)).toBeNull();
  });

  it('writes paging, sorting, filters and column choice into the state parameter', async () => {
    const user = userEvent.setup();
    const { router } = renderTable();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(urlState(router)).toMatchObject({ pageIndex: 1, pageSize: 10 });
    expect(shownNames()[0]).toBe('Set 11');

    // Numbers sort high to low first; a new sort goes back to the first page.
    await user.click(screen.getByRole('button', { name: 'size' }));
    expect(urlState(router)).toMatchObject({ pageIndex: 0, sorting: [{ id: 'size', desc: true }] });
    expect(shownNames()[0]).toBe('Set 25');

    await user.click(screen.getByRole('button', { name: 'Filter size' }));
    await user.type(await screen.findByRole('textbox', { name: 'Minimum size' }), '20');
    expect(urlState(router)).toMatchObject({ columnFilters: [{ id: 'size', value: [20, null] }] });
    expect(shownNames()).toEqual(['Set 25', 'Set 24', 'Set 23', 'Set 22', 'Set 21', 'Set 20']);

    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Filter public' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'public is' }), 'Yes');
    expect(shownNames()).toEqual(['Set 25', 'Set 23', 'Set 21']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '500');
    expect(urlState(router)).toMatchObject({ pageSize: 500 });

    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('checkbox', { name: 'created' }));
    expect(urlState(router)).toMatchObject({ columnVisibility: { created: true } });
    expect(headers()).toContain('created');
  });

  it('opens a permalink in the state it describes', async () => {
    const state = {
      pageIndex: 1,
      pageSize: 20,
      sorting: [{ id: 'size', desc: true }],
      columnFilters: [{ id: 'name', value: 'set' }],
      columnVisibility: { created: true, public: false },
    };
    renderTable(`?state=${encodeURIComponent(JSON.stringify(state))}`);
    expect(shownNames()).toEqual(['Set 5', 'Set 4', 'Set 3', 'Set 2', 'Set 1']);
    expect(headers()).toEqual(['name', 'size', 'created']);
    await userEvent.click(screen.getByRole('button', { name: 'Filter name' }));
    const contains = await screen.findByRole('textbox', { name: 'name contains' });
    expect(contains).toHaveProperty('value', 'set');
    // The input comes with its own code after the popover opened, and takes the focus then.
    await waitFor(() => expect(document.activeElement).toBe(contains));
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(1 + 5);
  });

  it('falls back to the defaults when the state parameter is invalid', () => {
    renderTable(`?state=${encodeURIComponent('{"pageIndex":"two","pageSize":7}')}`);
    expect(shownNames()).toEqual(items.slice(0, 10).map((i) => i.name));
    expect(headers()).toEqual(['name', 'size', 'public']);
  });
});

describe('DataTable in server-side mode', () => {
  function renderServerTable(search = '') {
    // The "server" sent page 3 of 25, already sorted and filtered: the table shows it as it is.
    const page = [items[24], items[3]] as Item[];
    return renderPage(
      <DataTable label="Sets" columns={columns} data={page} getRowId={(item) => item.name} serverSide={{ rowCount: 25 }} />,
      `/list${search}`,
    );
  }

  it("shows the server's page unchanged, with the server's total", () => {
    renderServerTable(`?state=${encodeURIComponent('{"pageIndex":2,"sorting":[{"id":"size","desc":false}]}')}`);
    expect(shownNames()).toEqual(['Set 25', 'Set 4']);
    expect(screen.getByText('Page 3 of 3')).toBeTruthy();
    expect(screen.getByText('21–25 of 25')).toBeTruthy();
  });

  it('keeps paging in the address for the caller to ask the server', async () => {
    const { router } = renderServerTable();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(urlState(router)).toMatchObject({ pageIndex: 1 });
    expect(shownNames()).toEqual(['Set 25', 'Set 4']);
  });

  it('keeps the actions cells mounted when the page renders again with a new renderActions', async () => {
    const user = userEvent.setup();
    function Counter() {
      const [count, setCount] = useState(0);
      return <Button onClick={() => setCount(count + 1)}>{`clicked ${count}`}</Button>;
    }
    function Page() {
      const [renders, setRenders] = useState(0);
      return (
        <>
          <Button onClick={() => setRenders(renders + 1)}>render again</Button>
          <DataTable label="Sets" columns={columns} data={items.slice(0, 1)} renderActions={() => <Counter />} />
        </>
      );
    }
    renderPage(<Page />, '/list');
    await user.click(screen.getByRole('button', { name: 'clicked 0' }));
    await user.click(screen.getByRole('button', { name: 'render again' }));
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBeTruthy();
  });
});
