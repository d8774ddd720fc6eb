import { Checkbox, Popover, Stack } from '@mantine/core';
import type { ChangeEvent, ReactElement } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useHandover, type Handover } from '../deferred-floating';

export interface ColumnChoice {
  id: string;
  label: string;
  visible: boolean;
  onToggle: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** The column picker, loaded at its first opening (see DeferredFloating). */
export function ColumnVisibilityPopover({ choices, target, handover }: { choices: ColumnChoice[]; target: ReactElement; handover: Handover }) {
  const { t } = useTranslation();
  const targetRef = useHandover(handover, { click: true });
  return (
    <Popover position="bottom-end" shadow="md" withinPortal>
      <Popover.Target ref={targetRef}>{target}</Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} role="group" aria-label={t('table.visibleColumns')}>
          {choices.map((choice) => (
            <Checkbox key={choice.id} size="xs" label={choice.label} checked={choice.visible} onChange={choice.onToggle} />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
