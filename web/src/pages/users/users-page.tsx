import { Stack, Title } from '@mantine/core';
import { ROLE, type User } from '@pim/contract';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useUsers } from '../../api/users';
import { DataTable } from '../../components/data-table/data-table';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from './load-failed';
import { userColumns } from './user-columns';

const rowId = (user: User) => user.uuid;

function UsersTable() {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const users = useUsers();
  const columns = useMemo(() => userColumns(t), [t]);
  // Only admins may list the users; the others see why instead of an empty table.
  if (users.isError) return <LoadFailed error={users.error} forbidden={t('list.forbidden')} failed={t('list.loadFailed')} />;
  return (
    <DataTable
      label={t('list.title')}
      columns={columns}
      data={users.data}
      loading={users.isPending}
      getRowId={rowId}
      onRowClick={(user) => void navigate(`/pimuser?userid=${encodeURIComponent(user.uuid)}`)}
    />
  );
}

/** `/pim/pimusers`: every user, for administrators. */
export function UsersPage() {
  const { t } = useTranslation('users');
  return (
    <Stack gap="md">
      <Title order={2}>{t('list.title')}</Title>
      <RequireSignIn role={ROLE.ADMIN} refusedTitle={t('list.forbidden')}>
        <UsersTable />
      </RequireSignIn>
    </Stack>
  );
}
