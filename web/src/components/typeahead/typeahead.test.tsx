import { Button } from '@mantine/core';
import { namedRefSchema, type NamedRef } from '@pim/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useOwnDataOnly } from '../../session/own-data';
import { fetchedUrls, jsonResponse, renderPage, stubFetch } from '../../test/render';
import { shouldSearch } from './typeahead-source';
import { Typeahead } from './typeahead';

const URL_PATH = 'pim/pimfieldset/autocomplete';
const BASE = `/api/${URL_PATH}`;

function ref(n: number): NamedRef {
  return { uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `Field set ${n}` };
}

function Harness({ onChange = () => undefined }: { onChange?: (item: NamedRef | null) => void }) {
  const [value, setValue] = useState<NamedRef | null>(null);
  const [onlyOwnData, setOnlyOwnData] = useOwnDataOnly();
  return (
    <>
      <Typeahead
        label="Field set"
        url={URL_PATH}
        itemSchema={namedRefSchema}
        getKey={(item) => item.uuid}
        getLabel={(item) => item.name}
        value={value}
        onChange={(item) => {
          setValue(item);
          onChange(item);
        }}
      />
      <Button onClick={() => setOnlyOwnData(!onlyOwnData)}>toggle own data</Button>
      <Button onClick={() => setValue(null)}>reset</Button>
    </>
  );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Typeahead', () => {
  it('empties the input when the value is cleared from outside, but keeps what the user types', async () => {
    const user = userEvent.setup();
    stubFetch(() => jsonResponse([ref(1), ref(2)]));
    renderPage(<Harness />);
    const input = screen.getByLabelText('Field set');
    await user.click(input);
    await user.click(await screen.findByRole('option', { name: 'Field set 1' }));
    expect(input).toHaveProperty('value', 'Field set 1');

    await user.click(screen.getByRole('button', { name: 'reset' }));
    expect(input).toHaveProperty('value', '');

    await user.click(input);
    await user.click(await screen.findByRole('option', { name: 'Field set 2' }));
    await user.type(input, 'x');
    expect(input).toHaveProperty('value', 'Field set 2x');
  });

  it("keeps the last term's options while the next term's are asked, and shows the new ones when they come", async () => {
    const user = userEvent.setup();
    let answerNext: (() => void) | null = null;
    stubFetch(async (url) => {
      if (url.searchParams.get('filter') === '') return jsonResponse([ref(1), ref(12)]);
      // The answer for 'Field set 1' waits until the test lets it go.
      await new Promise<void>((resolve) => (answerNext = resolve));
      return jsonResponse([ref(1)]);
    });
    renderPage(<Harness />);
    await user.click(screen.getByLabelText('Field set'));
    expect(await screen.findByRole('option', { name: 'Field set 12' })).toBeTruthy();
    await user.type(screen.getByLabelText('Field set'), 'Field set 1');
    await waitFor(() => expect(answerNext).not.toBeNull());
    expect(screen.getByRole('option', { name: 'Field set 12' })).toBeTruthy();
    answerNext!();
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Field set 12' })).toBeNull());
    expect(screen.getByRole('option', { name: 'Field set 1' })).toBeTruthy();
  });

  it('searches only for an empty term or one longer than 2 characters', () => {
    expect(shouldSearch('')).toBe(true);
    expect(shouldSearch('a')).toBe(false);
    expect(shouldSearch('ab')).toBe(false);
    expect(shouldSearch('abc')).toBe(true);
  });

  it('asks the server for the empty term on open, not for 1-2 characters, again from 3', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => jsonResponse([ref(1), ref(2)]));
    renderPage(<Harness />);

    await user.click(screen.getByLabelText('Field set'));
    await waitFor(() => expect(fetchedUrls(fetchMock)).toEqual([`${BASE}?onlyOwnData=false&filter=`]));
    expect(await screen.findByRole('option', { name: 'Field set 1' })).toBeTruthy();

    await user.type(screen.getByLabelText('Field set'), 'ab');
    await pause(500);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Type at least 3 characters')).toBeTruthy();

    await user.type(screen.getByLabelText('Field set'), 'c');
    await waitFor(() => expect(fetchedUrls(fetchMock).at(-1)).toBe(`${BASE}?onlyOwnData=false&filter=abc`));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('accepts a plain list and reports the chosen item', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    stubFetch(() => jsonResponse([ref(1), ref(2)]));
    renderPage(<Harness onChange={onChange} />);

    await user.click(screen.getByLabelText('Field set'));
    await user.click(await screen.findByRole('option', { name: 'Field set 2' }));
    expect(onChange).toHaveBeenLastCalledWith(ref(2));
    expect(screen.getByLabelText('Field set')).toHaveProperty('value', 'Field set 2');
    expect(screen.queryByText('Load more')).toBeNull();
  });

  it('accepts {results, pageSize} and loads the next page with skip', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((url) =>
      url.searchParams.get('skip') === '3'
        ? jsonResponse({ results: [ref(4)], pageSize: 3 })
        : jsonResponse({ results: [ref(1), ref(2), ref(3)], pageSize: 3 }),
    );
    renderPage(<Harness />);

    await user.click(screen.getByLabelText('Field set'));
    expect(await screen.findAllByRole('option')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4));
    expect(fetchedUrls(fetchMock).at(-1)).toBe(`${BASE}?onlyOwnData=false&filter=&skip=3`);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it("asks again when 'Own data only' changes", async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => jsonResponse([ref(1)]));
    renderPage(<Harness />);

    await user.click(screen.getByLabelText('Field set'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await user.click(screen.getByRole('button', { name: 'toggle own data' }));
    await waitFor(() => expect(fetchedUrls(fetchMock).at(-1)).toBe(`${BASE}?onlyOwnData=true&filter=`));
  });
});
