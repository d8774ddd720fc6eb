import { Badge, Button, Group, Stack, Title } from '@mantine/core';
import { hasRole, ROLE, type User } from '@pim/contract';
import { IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useSetUserDisabled, useUser, type UserId } from '../../api/users';
import { BackLink } from '../../components/back-link';
import { Spinner } from '../../components/spinner';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn, RoleRefusal } from '../../session/require-sign-in';
import { useSession } from '../../session/session';
import { LoadFailed } from './load-failed';
import { UserForm } from './user-form';


/** An admin enables or disables another user; a disabled user's sessions end at once. */
function DisableToggle({ user }: { user: User }) {
  const { t } = useTranslation('users');
  const setDisabled = useSetUserDisabled();
  const Icon = user.disabled ? IconUserCheck : IconUserOff;
  return (
    <Button
      variant={user.disabled ? 'filled' : 'light'}
      color={user.disabled ? undefined : 'red'}
      leftSection={<Icon size={16} aria-hidden />}
      loading={setDisabled.isPending}
      onClick={() => setDisabled.mutate({ uuid: user.uuid, disabled: !user.disabled })}
    >
      {user.disabled ? t('edit.enable') : t('edit.disable')}
    </Button>
  );
}

function LoadedUser({ id }: { id: UserId }) {
  const { t } = useTranslation('users');
  const session = useSession();
  const user = useUser(id);
  if (user.isPending) return <Spinner />;
  if (user.isError) return <LoadFailed error={user.error} forbidden={t('edit.forbidden')} failed={t('edit.loadFailed')} />;
  const own = id === 'self' || user.data.uuid === session.user?.uuid;
  const admin = hasRole(session.roles, ROLE.ADMIN);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={3}>{user.data.name}</Title>
          {user.data.disabled && <Badge color="red">{t('edit.disabled')}</Badge>}
        </Group>
        {/* Nobody disables themselves: they would lock themselves out. */}
        {admin && !own && <DisableToggle user={user.data} />}
      </Group>
      {/* A fresh form per record: its draft starts from what the server holds. */}
      <UserForm key={user.data.uuid} id={id} user={user.data} own={own} admin={admin} />
    </Stack>
  );
}

/** One's own record for everyone; someone else's only for admins, the others are told what they lack. */
function UserRecord({ id }: { id: UserId }) {
  const { t } = useTranslation('users');
  const { roles, user } = useSession();
  if (id === 'self' || hasRole(roles, ROLE.ADMIN) || id === user?.uuid) return <LoadedUser id={id} />;
  // Whether the id is the caller's own is known once their own record is.
  if (user === undefined) return <Spinner />;
  return <RoleRefusal role={ROLE.ADMIN} title={t('edit.forbidden')} />;
}

/** `/pim/pimuser[?userid]` and `/pim/pimuser/self`: a user's record; without userid the signed-in user's own. */
export function UserPage() {
  const { t } = useTranslation('users');
  const { roles } = useSession();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('userid') || 'self';
  return (
    <Stack gap="md">
      <Stack gap={4}>
        {hasRole(roles, ROLE.ADMIN) && <BackLink to="/pimusers">{t('edit.back')}</BackLink>}
        <Title order={2}>{id === 'self' ? t('edit.ownTitle') : t('edit.title')}</Title>
      </Stack>
      <RequireSignIn>
        <UserRecord key={id} id={id} />
      </RequireSignIn>
    </Stack>
  );
}
