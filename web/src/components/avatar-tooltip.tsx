import { Tooltip } from '@mantine/core';
import type { ReactElement } from 'react';
import { useHandover, type Handover } from './deferred-floating';

/** The avatar's tooltip (the user's email), loaded when the avatar is first pointed at (see DeferredFloating). */
export function AvatarTooltip({ label, handover, children }: { label: string; handover: Handover; children: ReactElement }) {
  const targetRef = useHandover<HTMLDivElement>(handover, { click: false });
  return (
    <Tooltip label={label} ref={targetRef}>
      {children}
    </Tooltip>
  );
}
