import { Button, Stack, Title } from '@mantine/core';
import { ROLE, type Group } from '@pim/contract';
import { IconPlus } from '@tabler/icons-react';
import { useCallback, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDeleteGroup, useGroups } from '../../api/groups';
import { DeleteButton, useConfirmedDelete } from '../../components/confirmed-delete';
import { DataTable } from '../../components/data-table/data-table';
import { useTranslation } from '../../i18n/use-translation';
import { RequireSignIn } from '../../session/require-sign-in';
import { LoadFailed } from '../users/load-failed';
import { groupColumns } from './group-columns';

const rowId = (group: Group) => group.uuid;

function GroupsTable() {
  const { t } = useTranslation('groups');
  const navigate = useNavigate();
  const groups = useGroups();
  const { ask, dialog } = useConfirmedDelete({
    remove: useDeleteGroup(),
    uuidOf: rowId,
    title: t('list.deleteTitle'),
    question: (group: Group) => t('list.deleteQuestion', { name: group.name }),
  });
  const columns = useMemo(() => groupColumns(t), [t]);
  const renderActions = useCallback(
    (group: Group) => (
      <DeleteButton size="xs" aria-label={t('list.deleteLabel', { name: group.name })} onClick={() => ask(group)}>
        {t('list.delete')}
      </DeleteButton>
    ),
    [t, ask],
  );
  if (groups.isError) return <LoadFailed error={groups.error} forbidden={t('list.forbidden')} failed={t('list.loadFailed')} />;
  return (
    <>
      <DataTable
        label={t('list.title')}
        columns={columns}
        data={groups.data}
        loading={groups.isPending}
        getRowId={rowId}
        renderActions={renderActions}
        onRowClick={(group) => void navigate(`/pimgroupedit?uuid=${encodeURIComponent(group.uuid)}`)}
        toolbar={
          <Button component={Link} to="/pimgroup" leftSection={<IconPlus size={16} aria-hidden />}>
            {t('list.new')}
          </Button>
        }
      />
      {dialog}
    </>
  );
}

/** `/pim/pimgroups`: the user groups; a row opens the group, New group creates one. */
export function GroupsPage() {
  const { t } = useTranslation('groups');
  return (
    <Stack gap="md">
      <Title order={2}>{t('list.title')}</Title>
      <RequireSignIn role={ROLE.ADMIN} refusedTitle={t('list.forbidden')}>
        <GroupsTable />
      </RequireSignIn>
    </Stack>
  );
}
