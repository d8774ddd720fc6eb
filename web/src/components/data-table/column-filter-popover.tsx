import { Popover } from '@mantine/core';
import type { ComponentProps, ReactElement } from 'react';
import { useHandover, type Handover } from '../deferred-floating';
import { ColumnFilterInput } from './column-filter-input';

type ColumnFilterPopoverProps = ComponentProps<typeof ColumnFilterInput> & { target: ReactElement; handover: Handover };

/** A column's filter, loaded at its first opening (see DeferredFloating). */
export function ColumnFilterPopover({ target, handover, ...input }: ColumnFilterPopoverProps) {
  const targetRef = useHandover(handover, { click: true });
  return (
    <Popover position="bottom-start" shadow="md" trapFocus withinPortal>
      <Popover.Target ref={targetRef}>{target}</Popover.Target>
      <Popover.Dropdown>
        <ColumnFilterInput {...input} />
      </Popover.Dropdown>
    </Popover>
  );
}
