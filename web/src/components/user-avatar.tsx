import { Avatar } from '@mantine/core';
import type { User } from '@pim/contract';
import { lazy } from 'react';
import { Link } from 'react-router';
import elephantUrl from '../assets/elephant.svg';
import { useTranslation } from '../i18n/use-translation';
import { DeferredFloating, type PlainTriggerProps } from './deferred-floating';

const loadTooltip = () => import('./avatar-tooltip');
const AvatarTooltip = lazy(() => loadTooltip().then((m) => ({ default: m.AvatarTooltip })));

/** The avatar value 'elephant' picks the elephant picture; any other value the default picture. */
export function avatarSource(avatar: string | null | undefined): string | null {
  return avatar === 'elephant' ? elephantUrl : null;
}

export function UserAvatar({ user }: { user: User | undefined }) {
  const { t } = useTranslation();
  const label = user ? t('nav.profileOf', { name: user.name }) : t('nav.profile');
  const avatar = (props?: PlainTriggerProps) => (
    <Avatar component={Link} to="/pimuser/self" src={avatarSource(user?.avatar)} alt={label} aria-label={label} radius="xl" {...props} />
  );
  return (
    <DeferredFloating load={loadTooltip} popup="tooltip" trigger={avatar}>
      {(handover) => (
        <AvatarTooltip label={user?.email ?? user?.name ?? t('nav.profile')} handover={handover}>
          {avatar()}
        </AvatarTooltip>
      )}
    </DeferredFloating>
  );
}
