import { act, screen, waitFor } from '@testing-library/react';
import { Popover, TextInput, UnstyledButton } from '@mantine/core';
import userEvent from '@testing-library/user-event';
import { lazy, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../test/render';
import { DeferredFloating, useHandover, type Handover, type PlainTriggerProps } from './deferred-floating';

const trigger = (props?: PlainTriggerProps) => <UnstyledButton {...props}>Filter name</UnstyledButton>;

function RealPopover({ handover }: { handover: Handover }) {
  const target = useHandover(handover, { click: true });
  const [value, setValue] = useState('');
  return (
    <Popover trapFocus>
      <Popover.Target ref={target}>{trigger()}</Popover.Target>
      <Popover.Dropdown>
        <TextInput autoFocus aria-label="Name contains" value={value} onChange={(event) => setValue(event.currentTarget.value)} />
      </Popover.Dropdown>
    </Popover>
  );
}

/** A popover whose code arrives when the test lets it, as a slow network would bring it. */
function gatedPopover() {
  let arrive = () => {};
  const code = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const load = () => code;
  const Real = lazy(() => code.then(() => ({ default: RealPopover })));
  const element = (
    <DeferredFloating load={load} popup="dialog" trigger={trigger}>
      {(handover) => <Real handover={handover} />}
    </DeferredFloating>
  );
  return { element, arrive };
}

describe('a popover whose code comes at its first use', () => {
  it('gives its field what was typed after the click while the code was on its way', async () => {
    const { element, arrive } = gatedPopover();
    renderPage(element);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Filter name' }));
    await user.keyboard('Kan');
    expect(screen.queryByRole('textbox', { name: 'Name contains' })).toBeNull();
    await act(async () => arrive());

    const field = await screen.findByRole('textbox', { name: 'Name contains' });
    await waitFor(() => expect((field as HTMLInputElement).value).toBe('Kan'));
    await waitFor(() => expect(document.activeElement).toBe(field));
    await user.keyboard('t');
    expect((field as HTMLInputElement).value).toBe('Kant');
  });

  it('keeps nothing typed before the click, and nothing once its field has the focus', async () => {
    const { element, arrive } = gatedPopover();
    renderPage(
      <>
        <TextInput aria-label="Elsewhere" />
        {element}
      </>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Elsewhere' }), 'ab');

    await user.click(screen.getByRole('button', { name: 'Filter name' }));
    await act(async () => arrive());
    const field = await screen.findByRole('textbox', { name: 'Name contains' });
    await waitFor(() => expect(document.activeElement).toBe(field));
    await user.keyboard('x');

    expect((field as HTMLInputElement).value).toBe('x');
    expect((screen.getByRole('textbox', { name: 'Elsewhere' }) as HTMLInputElement).value).toBe('ab');
  });
});
