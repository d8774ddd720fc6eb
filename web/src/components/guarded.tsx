import { Button, Tooltip } from '@mantine/core';
import { hasRole } from '@pim/contract';
import { IconPlus } from '@tabler/icons-react';
import { cloneElement, type ReactElement } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../i18n/use-translation';
import { useSession } from '../session/session';

/**
 * A control the caller's roles or permissions do not allow: shown disabled, with the reason on
 * hover, so people see that it exists and what they lack. `reason` null: allowed, shown as it is.
 */
export function Guarded({ reason, children }: { reason: string | null; children: ReactElement<{ disabled?: boolean }> }) {
  if (reason === null) return children;
  return (
    <Tooltip label={reason} multiline maw={320}>
      {/* A disabled button gets no mouse events: its wrapper carries the tooltip. */}
      <span style={{ display: 'inline-block' }}>{cloneElement(children, { disabled: true })}</span>
    </Tooltip>
  );
}

/** Why the caller may not do what needs `role` ('This needs the ADMIN role.'), or null when they may. */
export function useRoleRefusal(role: string): string | null {
  const { t } = useTranslation();
  const { roles } = useSession();
  return hasRole(roles, role) ? null : t('access.needsRole', { role });
}

/** The 'New …' button of a list: a link to the create form, or disabled with the reason. */
export function NewRecordButton({ to, label, refusal = null }: { to: string; label: string; refusal?: string | null }) {
  const icon = <IconPlus size={16} aria-hidden />;
  if (refusal === null) {
    return (
      <Button component={Link} to={to} leftSection={icon}>
        {label}
      </Button>
    );
  }
  return (
    <Guarded reason={refusal}>
      <Button leftSection={icon}>{label}</Button>
    </Guarded>
  );
}
