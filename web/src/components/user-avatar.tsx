import { Avatar, Tooltip } from '@mantine/core';
import type { User } from '@pim/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import elephantUrl from '../assets/elephant.svg';

/** The avatar value 'elephant' picks the elephant picture; any other value the default picture. */
export function avatarSource(avatar: string | null | undefined): string | null {
  return avatar === 'elephant' ? elephantUrl : null;
}

export function UserAvatar({ user }: { user: User | undefined }) {
  const { t } = useTranslation();
  const label = user ? t('nav.profileOf', { name: user.name }) : t('nav.profile');
  return (
    <Tooltip label={user?.email ?? user?.name ?? t('nav.profile')}>
      <Avatar component={Link} to="/pimuser/self" src={avatarSource(user?.avatar)} alt={label} aria-label={label} radius="xl" />
    </Tooltip>
  );
}
